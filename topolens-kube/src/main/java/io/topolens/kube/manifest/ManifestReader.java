package io.topolens.kube.manifest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.topolens.inputs.YamlLineLimit;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a manifest file (one or more YAML documents) into {@link YamlDocument}s that remember the
 * line of every key. Optional {@code ${NAME}} / {@code $NAME} substitution does what {@code
 * envsubst} does for the listed names only, line by line, so line numbers stay true.
 */
public final class ManifestReader {
  /** Manifests larger than this are not manifests. */
  static final long MAX_BYTES = 16L << 20;

  private static final YAMLFactory YAML = YAMLFactory.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Map<String, String> vars;

  /** A reader that substitutes {@code vars} ({@code NAME -> value}) before parsing. */
  public ManifestReader(Map<String, String> vars) {
    this.vars = Map.copyOf(vars);
  }

  public ManifestReader() {
    this(Map.of());
  }

  /** Reads a file; {@code -} reads standard input. */
  public List<YamlDocument> read(String name) throws InputProblem {
    byte[] bytes;
    try {
      if (name.equals("-")) {
        bytes = System.in.readAllBytes();
      } else {
        Path p = Path.of(name);
        if (Files.isDirectory(p)) {
          throw new InputProblem(name + ": is a directory (give the manifest files)");
        }
        if (Files.size(p) > MAX_BYTES) {
          throw new InputProblem(name + ": larger than 16 MiB; not a manifest");
        }
        try (InputStream in = Files.newInputStream(p)) {
          bytes = in.readAllBytes();
        }
      }
    } catch (NoSuchFileException e) {
      throw new InputProblem(name + ": no such file");
    } catch (IOException e) {
      throw new InputProblem(
          name + ": cannot read: " + (e.getMessage() == null ? e.getClass() : e.getMessage()));
    }
    return parse(name, bytes);
  }

  /** Parses manifest text already in memory. */
  public List<YamlDocument> parse(String name, byte[] bytes) throws InputProblem {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(java.nio.ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw new InputProblem(name + ": not UTF-8 text; not a manifest");
    }
    if (text.indexOf('\0') >= 0) {
      throw new InputProblem(name + ": binary file; not a manifest");
    }
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    YamlLineLimit.check(name, text);
    List<String> lines = substitute(text.lines().toList());
    String source = String.join("\n", lines) + "\n";
    List<YamlDocument> docs = new ArrayList<>();
    try (YAMLParser p = YAML.createParser(source)) {
      JsonToken t;
      int index = 0;
      while ((t = p.nextToken()) != null) {
        Map<String, Integer> at = new HashMap<>();
        JsonNode root = value(name, p, t, "", at);
        if (root.isNull() || root.isTextual() && root.asText().isBlank()) {
          continue; // an empty document between two ---
        }
        if (!root.isObject()) {
          throw new InputProblem(
              name
                  + ":"
                  + at.getOrDefault("", 1)
                  + ": a manifest document must be a mapping (apiVersion, kind, ...), not "
                  + kind(root));
        }
        docs.add(new YamlDocument(name, index++, root, at, lines));
      }
    } catch (JsonProcessingException e) {
      JsonLocation loc = e.getLocation();
      String where = loc == null || loc.getLineNr() < 1 ? "" : ":" + loc.getLineNr();
      throw new InputProblem(
          name + where + ": malformed YAML: " + firstLine(e.getOriginalMessage()));
    } catch (IOException e) {
      throw new InputProblem(name + ": cannot parse: " + firstLine(e.getMessage()));
    }
    if (docs.isEmpty()) {
      throw new InputProblem(name + ": no YAML documents (empty file)");
    }
    return docs;
  }

  private JsonNode value(
      String file, YAMLParser p, JsonToken t, String ptr, Map<String, Integer> at)
      throws IOException, InputProblem {
    int line = p.currentTokenLocation().getLineNr();
    at.putIfAbsent(ptr, line);
    if (p.isCurrentAlias()) {
      throw new InputProblem(
          file
              + ":"
              + line
              + ": YAML aliases (*"
              + p.getText()
              + ") are not supported; expand them");
    }
    switch (t) {
      case START_OBJECT -> {
        ObjectNode o = NODES.objectNode();
        JsonToken k;
        while ((k = p.nextToken()) == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          int keyLine = p.currentTokenLocation().getLineNr();
          if (o.has(key)) {
            throw new InputProblem(
                file + ":" + keyLine + ": duplicate key \"" + key + "\" (kubectl rejects it)");
          }
          String child = YamlDocument.child(ptr, key);
          at.put(child, keyLine);
          o.set(key, value(file, p, p.nextToken(), child, at));
        }
        if (k != JsonToken.END_OBJECT) {
          throw new InputProblem(file + ":" + line + ": malformed YAML mapping");
        }
        return o;
      }
      case START_ARRAY -> {
        ArrayNode a = NODES.arrayNode();
        JsonToken v;
        int i = 0;
        while ((v = p.nextToken()) != JsonToken.END_ARRAY) {
          if (v == null) {
            throw new InputProblem(file + ":" + line + ": malformed YAML list");
          }
          a.add(value(file, p, v, YamlDocument.item(ptr, i++), at));
        }
        return a;
      }
      case VALUE_STRING -> {
        return NODES.textNode(p.getText());
      }
      case VALUE_NUMBER_INT -> {
        return NODES.numberNode(p.getBigIntegerValue());
      }
      case VALUE_NUMBER_FLOAT -> {
        return NODES.numberNode(p.getDecimalValue());
      }
      case VALUE_TRUE -> {
        return NODES.booleanNode(true);
      }
      case VALUE_FALSE -> {
        return NODES.booleanNode(false);
      }
      case VALUE_NULL -> {
        return NODES.nullNode();
      }
      default -> {
        return NODES.textNode(p.getText());
      }
    }
  }

  private static final Pattern VAR =
      Pattern.compile("\\$(?:\\{([A-Za-z_][A-Za-z0-9_]*)}|([A-Za-z_][A-Za-z0-9_]*))");

  private List<String> substitute(List<String> lines) {
    if (vars.isEmpty()) {
      return lines;
    }
    List<String> out = new ArrayList<>(lines.size());
    for (String l : lines) {
      Matcher m = VAR.matcher(l);
      StringBuilder sb = new StringBuilder();
      while (m.find()) {
        String n = m.group(1) != null ? m.group(1) : m.group(2);
        String v = vars.get(n);
        m.appendReplacement(sb, Matcher.quoteReplacement(v != null ? v : m.group()));
      }
      m.appendTail(sb);
      out.add(sb.toString());
    }
    return out;
  }

  private static String kind(JsonNode n) {
    return n.isArray() ? "a list" : "a scalar (" + n.asText() + ")";
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "unknown problem";
    }
    String l = s.strip();
    int nl = l.indexOf('\n');
    return nl < 0 ? l : l.substring(0, nl).strip();
  }
}
