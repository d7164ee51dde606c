package io.topolens.kube.yaml;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Prints a {@link YamlNode} tree as block-style YAML with comments: a comment goes on its own lines
 * above its key or item, wrapped; multi-line strings become literal blocks; strings that YAML would
 * read as something else are double-quoted. Jackson's YAML writer cannot write comments, hence this
 * small printer; tests read its output back with Jackson.
 */
public final class YamlWriter {
  static final int WIDTH = 100;

  /** What YAML 1.1 or 1.2 would read as a number, a date or a sexagesimal, not a string. */
  private static final Pattern NUMBER_LIKE =
      Pattern.compile(
          "[-+]?([0-9][0-9_]*)?(\\.[0-9_]*)?([eE][-+]?[0-9]+)?|[-+]?\\.(inf|nan)|0x[0-9a-fA-F_]+|0o?[0-7_]+"
              + "|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern KEYWORD = Pattern.compile("(?i)true|false|yes|no|on|off|y|n|null|~");

  /** The document, ending with a newline; {@code header} lines become comments at the top. */
  public String write(YamlNode root, List<String> header) {
    List<String> lines = new ArrayList<>();
    for (String h : header) {
      comment(lines, "", h);
    }
    node(lines, root, "");
    return String.join("\n", lines) + "\n";
  }

  private void node(List<String> out, YamlNode n, String indent) {
    switch (n) {
      case YamlMap m -> map(out, m, indent);
      case YamlList l -> list(out, l, indent);
      case YamlScalar s -> out.add(indent + scalar(s.value()));
    }
  }

  private void map(List<String> out, YamlMap m, String indent) {
    for (YamlMap.Entry e : m.entries()) {
      comment(out, indent, e.comment());
      String key = indent + key(e.key()) + ":";
      switch (e.value()) {
        case YamlScalar s when s.value() instanceof String str && str.contains("\n") ->
            block(out, key, str, indent + "  ");
        case YamlScalar s -> out.add(key + " " + scalar(s.value()));
        case YamlMap sub when sub.isEmpty() -> out.add(key + " {}");
        case YamlList sub when sub.isEmpty() -> out.add(key + " []");
        case YamlMap sub -> {
          out.add(key);
          map(out, sub, indent + "  ");
        }
        case YamlList sub -> {
          out.add(key);
          list(out, sub, indent + "  ");
        }
      }
    }
  }

  private void list(List<String> out, YamlList l, String indent) {
    for (YamlList.Item i : l.items()) {
      comment(out, indent, i.comment());
      switch (i.value()) {
        case YamlScalar s when s.value() instanceof String str && str.contains("\n") ->
            block(out, indent + "-", str, indent + "  ");
        case YamlScalar s -> out.add(indent + "- " + scalar(s.value()));
        case YamlMap m when m.isEmpty() -> out.add(indent + "- {}");
        case YamlList sub when sub.isEmpty() -> out.add(indent + "- []");
        case YamlMap m -> {
          List<String> sub = new ArrayList<>();
          map(sub, m, indent + "  ");
          dash(out, sub, indent);
        }
        case YamlList sub -> {
          List<String> lines = new ArrayList<>();
          list(lines, sub, indent + "  ");
          dash(out, lines, indent);
        }
      }
    }
  }

  /** Puts {@code "- "} in front of the first line that is not a comment. */
  private static void dash(List<String> out, List<String> sub, String indent) {
    boolean done = false;
    for (String s : sub) {
      if (!done && !s.strip().startsWith("#")) {
        out.add(indent + "- " + s.substring(indent.length() + 2));
        done = true;
      } else {
        out.add(s);
      }
    }
  }

  private static void block(List<String> out, String key, String text, String indent) {
    boolean trailing = text.endsWith("\n");
    String body = trailing ? text.substring(0, text.length() - 1) : text;
    out.add(key + " |" + (trailing ? "" : "-"));
    for (String l : body.split("\n", -1)) {
      out.add(l.isEmpty() ? "" : indent + l);
    }
  }

  private static void comment(List<String> out, String indent, String text) {
    if (text == null || text.isBlank()) {
      return;
    }
    for (String para : text.split("\n")) {
      StringBuilder line = new StringBuilder(indent + "#");
      for (String word : para.split(" ")) {
        if (line.length() > indent.length() + 2 && line.length() + 1 + word.length() > WIDTH) {
          out.add(line.toString());
          line = new StringBuilder(indent + "#");
        }
        line.append(' ').append(word);
      }
      out.add(line.toString());
    }
  }

  private static String key(String k) {
    return needsQuotes(k) ? quote(k) : k;
  }

  static String scalar(Object v) {
    if (v instanceof String s) {
      return needsQuotes(s) ? quote(s) : s;
    }
    if (v instanceof Double d && d == Math.rint(d)) {
      return String.format(Locale.ROOT, "%.1f", d);
    }
    return String.valueOf(v);
  }

  static boolean needsQuotes(String s) {
    if (s.isEmpty()
        || !s.equals(s.strip())
        || NUMBER_LIKE.matcher(s).matches()
        || KEYWORD.matcher(s).matches()) {
      return true;
    }
    if ("-?:,[]{}#&*!|>'\"%@`".indexOf(s.charAt(0)) >= 0) {
      return true;
    }
    if (s.contains(": ") || s.contains(" #") || s.endsWith(":") || s.contains("\t")) {
      return true;
    }
    return s.chars().anyMatch(c -> c < 0x20 || c == 0x7f);
  }

  private static String quote(String s) {
    return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
  }
}
