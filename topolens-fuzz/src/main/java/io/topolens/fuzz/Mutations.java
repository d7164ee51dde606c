package io.topolens.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * The structural mutations. Text is handled as ISO-8859-1 (one char per byte), so invalid UTF-8 and
 * NUL bytes pass through unchanged. Each mutation returns the new text and appends what it did.
 */
final class Mutations {
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");
  private static final Pattern TOKEN = Pattern.compile("\\S+");
  private static final Pattern HEADER =
      Pattern.compile(
          "(?i)^\\s*(#|gpu0|<\\?xml|<system|<graphs|\\{|\\[|apiVersion|runs:|defaults:|kind:)"
              + "|NCCL version|nccl-tests version|\\sGPU0\\s|size\\s+count");
  private static final Pattern STRUCTURE =
      Pattern.compile("Ring|Tree|Trees|->|Channel|channel|rank|nRanks|GPU\\d|<gpu|dev=|busid");
  private static final Pattern NCCL_HEADER =
      Pattern.compile("^(.*?\\bNCCL (INFO|WARN|TRACE) ?)", Pattern.MULTILINE);
  private static final Pattern RANKED =
      Pattern.compile(" via |Init COMPLETE|nranks|nRanks|Trees|Ring \\d|Channel \\d+/\\d+ :");
  private static final Pattern HOST = Pattern.compile("^([A-Za-z][\\w.-]*):(\\d+):(\\d+)");
  private static final Pattern JSON_VALUE = Pattern.compile("(:\\s*)([^,\\n}\\]\\[{]+)");

  static final String[] EVIL_NUMBERS = {
    "",
    "-1",
    "0",
    "-0",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "1e308",
    "1e999",
    "4294967296",
    "2147483648",
    "9223372036854775808",
    "99999999999999999999999",
    "-99999999999",
    "0x1F",
    "1.2.3",
    "1,5",
    "٣"
  };

  private static final String[] EVIL_VALUES = {
    "null", "[]", "{}", "\"x\"", "-1", "1e400", "true", "\"\"", "[1, [2]]", "{\"a\": null}", "0"
  };

  /** How often each mutation is drawn: long lines and thousands of ranks are slow, so rarer. */
  private static final String[] NAMES = {
    "drop-lines",
    "drop-lines",
    "duplicate-lines",
    "swap-lines",
    "swap-lines",
    "truncate",
    "truncate",
    "number",
    "number",
    "number",
    "structure-numbers",
    "structure-numbers",
    "columns",
    "columns",
    "header",
    "header",
    "nul",
    "bad-utf8",
    "bad-utf8",
    "crlf",
    "token-swap",
    "splice",
    "json-value",
    "json-value",
    "control",
    "bom",
    "empty",
    "header-only",
    "many-ranks",
    "long-line",
    "gzip"
  };

  private final Random random;
  private final List<Seed> others;
  private final List<String> steps = new ArrayList<>();
  private boolean gzip;

  Mutations(Random random, List<Seed> others) {
    this.random = random;
    this.others = others;
  }

  /** One to three mutations of the seed. */
  Mutant mutate(Seed seed) {
    String text = new String(seed.bytes(), StandardCharsets.ISO_8859_1);
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      text = apply(NAMES[random.nextInt(NAMES.length)], text);
    }
    byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
    if (gzip) {
      bytes = gzip(bytes);
      if (random.nextBoolean() && bytes.length > 12) {
        int cut = 10 + random.nextInt(bytes.length - 11);
        steps.add("gzip cut at " + cut + " of " + bytes.length);
        bytes = Arrays.copyOf(bytes, cut);
      }
    }
    return new Mutant(seed, bytes, gzip, List.copyOf(steps));
  }

  private String apply(String name, String text) {
    List<String> lines = lines(text);
    return switch (name) {
      case "drop-lines" -> {
        int at = index(lines);
        int k = Math.min(lines.size() - at, 1 + random.nextInt(random.nextBoolean() ? 2 : 20));
        steps.add("drop " + k + " line(s) at " + (at + 1));
        yield join(
            lines.subList(0, at), lines.subList(Math.min(lines.size(), at + k), lines.size()));
      }
      case "duplicate-lines" -> {
        int at = index(lines);
        int k = Math.min(lines.size() - at, 1 + random.nextInt(10));
        steps.add("duplicate " + k + " line(s) at " + (at + 1));
        List<String> out = new ArrayList<>(lines.subList(0, at + k));
        out.addAll(lines.subList(at, lines.size()));
        yield String.join("", out);
      }
      case "swap-lines" -> {
        if (lines.size() < 2) {
          yield text;
        }
        int a = index(lines);
        int b = index(lines);
        steps.add("swap lines " + (a + 1) + " and " + (b + 1));
        String la = lines.get(a);
        lines.set(a, lines.get(b));
        lines.set(b, la);
        yield String.join("", lines);
      }
      case "truncate" -> truncate(text);
      case "number" -> replaceNumber(text, lines, false);
      case "structure-numbers" -> replaceNumber(text, lines, true);
      case "columns" -> columns(lines);
      case "header" -> header(text, lines);
      case "nul" -> {
        int at = random.nextInt(text.length() + 1);
        int k = 1 + random.nextInt(random.nextBoolean() ? 2 : 200);
        steps.add(k + " NUL byte(s) at " + at);
        yield text.substring(0, at) + "\0".repeat(k) + text.substring(at);
      }
      case "bad-utf8" -> {
        String[] bad = {
          "\u00c3", "\u00ff", "\u00ed\u00a0\u0080", "\u00f0\u009f\u0098", "\u00c0\u00af", "\u0080"
        };
        String b = bad[random.nextInt(bad.length)];
        int at = random.nextInt(text.length() + 1);
        steps.add("invalid UTF-8 " + hex(b) + " at " + at);
        yield text.substring(0, at) + b + text.substring(at);
      }
      case "crlf" -> {
        StringBuilder sb = new StringBuilder();
        int changed = 0;
        for (String l : lines) {
          if (l.endsWith("\n") && random.nextInt(3) == 0) {
            String end = random.nextInt(4) == 0 ? "\r" : "\r\n";
            sb.append(l, 0, l.length() - 1).append(end);
            changed++;
          } else {
            sb.append(l);
          }
        }
        steps.add("CR/CRLF on " + changed + " line(s)");
        yield sb.toString();
      }
      case "token-swap" -> {
        int at = index(lines);
        List<int[]> toks = spans(TOKEN, lines.get(at));
        if (toks.size() < 2) {
          yield text;
        }
        int[] a = toks.get(random.nextInt(toks.size()));
        int[] b = toks.get(random.nextInt(toks.size()));
        if (a[0] > b[0]) {
          int[] t = a;
          a = b;
          b = t;
        }
        if (a[0] == b[0]) {
          yield text;
        }
        String l = lines.get(at);
        lines.set(
            at,
            l.substring(0, a[0])
                + l.substring(b[0], b[1])
                + l.substring(a[1], b[0])
                + l.substring(a[0], a[1])
                + l.substring(b[1]));
        steps.add("swap two tokens on line " + (at + 1));
        yield String.join("", lines);
      }
      case "splice" -> {
        Seed other = others.get(random.nextInt(others.size()));
        List<String> theirs = lines(new String(other.bytes(), StandardCharsets.ISO_8859_1));
        int from = index(theirs);
        int k = Math.min(theirs.size() - from, 1 + random.nextInt(30));
        int at = random.nextInt(lines.size() + 1);
        steps.add("splice " + k + " line(s) of " + other.path().getFileName() + " at " + (at + 1));
        List<String> out = new ArrayList<>(lines.subList(0, at));
        out.addAll(theirs.subList(from, from + k));
        out.addAll(lines.subList(at, lines.size()));
        yield String.join("", out);
      }
      case "json-value" -> {
        List<int[]> vals = groupSpans(JSON_VALUE, text, 2);
        if (vals.isEmpty()) {
          yield text;
        }
        int[] v = vals.get(random.nextInt(vals.size()));
        String evil = EVIL_VALUES[random.nextInt(EVIL_VALUES.length)];
        steps.add("value at " + v[0] + " -> " + evil);
        yield text.substring(0, v[0]) + evil + text.substring(v[1]);
      }
      case "control" -> {
        String[] cc = {"\u001b[31m", "\t", "\f", "\u000b", "\u001b", "\u007f", "\u0085", "\u00a0"};
        String c = cc[random.nextInt(cc.length)];
        int at = random.nextInt(text.length() + 1);
        steps.add("control " + hex(c) + " at " + at);
        yield text.substring(0, at) + c + text.substring(at);
      }
      case "bom" -> {
        String[] boms = {"\u00ef\u00bb\u00bf", "\u00ff\u00fe", "\u00fe\u00ff"};
        String b = boms[random.nextInt(boms.length)];
        steps.add("BOM " + hex(b));
        yield b + text;
      }
      case "empty" -> {
        String[] empties = {"", "\n", "\r\n", " \n\n", "\0"};
        String e = empties[random.nextInt(empties.length)];
        steps.add("empty file " + hex(e));
        yield e;
      }
      case "header-only" -> headerOnly(text, lines);
      case "many-ranks" -> manyRanks(text, lines);
      case "long-line" -> longLine(text, lines);
      case "gzip" -> {
        gzip = true;
        steps.add("gzip");
        yield text;
      }
      default -> throw new IllegalArgumentException(name);
    };
  }

  private String truncate(String text) {
    if (text.isEmpty()) {
      return text;
    }
    int at = random.nextInt(text.length());
    if (random.nextBoolean()) {
      // cut inside a UTF-8 sequence where the text has one
      List<Integer> high = new ArrayList<>();
      for (int i = 0; i < text.length() && high.size() < 1000; i++) {
        if (text.charAt(i) >= 0xC0) {
          high.add(i + 1);
        }
      }
      if (!high.isEmpty()) {
        at = high.get(random.nextInt(high.size()));
        steps.add("cut mid-UTF-8 at byte " + at);
        return text.substring(0, at);
      }
    }
    steps.add("cut at byte " + at + " of " + text.length());
    return text.substring(0, at);
  }

  private String replaceNumber(String text, List<String> lines, boolean structure) {
    List<Integer> candidates = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      // a line of a 10 MB mutation would make this quadratic in the fuzzer, not in topolens
      if (l.length() <= 65536
          && NUMBER.matcher(l).find()
          && (!structure || STRUCTURE.matcher(l).find())) {
        candidates.add(i);
      }
    }
    if (candidates.isEmpty()) {
      return text;
    }
    int at = candidates.get(random.nextInt(candidates.size()));
    String l = lines.get(at);
    List<int[]> nums = spans(NUMBER, l);
    int count = structure ? nums.size() : 1;
    StringBuilder desc = new StringBuilder();
    String evil = "";
    for (int k = 0; k < count; k++) {
      List<int[]> now = spans(NUMBER, l);
      if (now.isEmpty()) {
        break;
      }
      int[] n = structure && k < now.size() ? now.get(k) : now.get(random.nextInt(now.size()));
      evil =
          structure
              ? new String[] {"-1", "4096", "65535", "99999999999", "" + (9 + k), "-2147483648"}
                  [random.nextInt(6)]
              : EVIL_NUMBERS[random.nextInt(EVIL_NUMBERS.length)];
      l = l.substring(0, n[0]) + evil + l.substring(n[1]);
    }
    desc.append(structure ? "numbers of structure line " : "number on line ")
        .append(at + 1)
        .append(" -> ")
        .append(structure ? "out-of-range values" : "'" + evil + "'");
    steps.add(desc.toString());
    lines.set(at, l);
    return String.join("", lines);
  }

  private String columns(List<String> lines) {
    int at = -1;
    for (int tries = 0; tries < 20; tries++) {
      int i = index(lines);
      if (spans(TOKEN, lines.get(i)).size() >= 3) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      return String.join("", lines);
    }
    String l = lines.get(at);
    List<int[]> toks = spans(TOKEN, l);
    int[] t = toks.get(random.nextInt(toks.size()));
    if (random.nextBoolean()) {
      steps.add("remove a column on line " + (at + 1));
      l = l.substring(0, t[0]) + l.substring(Math.min(l.length(), t[1] + 1));
    } else {
      String[] extra = {"X", "NV18", "SYS", "-1", "0-63", "N/A", "GPU9", "PIX"};
      String e = extra[random.nextInt(extra.length)];
      steps.add("add column '" + e + "' on line " + (at + 1));
      l = l.substring(0, t[1]) + " " + e + l.substring(t[1]);
    }
    lines.set(at, l);
    return String.join("", lines);
  }

  private String header(String text, List<String> lines) {
    List<Integer> headers = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (HEADER.matcher(lines.get(i)).find()) {
        headers.add(i);
      }
    }
    if (headers.isEmpty()) {
      return text;
    }
    int at = headers.get(random.nextInt(headers.size()));
    if (random.nextBoolean()) {
      steps.add("remove header line " + (at + 1));
      lines.remove(at);
    } else {
      int to = random.nextInt(lines.size() + 1);
      steps.add("copy header line " + (at + 1) + " to " + (to + 1));
      lines.add(to, lines.get(at));
    }
    return String.join("", lines);
  }

  private String headerOnly(String text, List<String> lines) {
    Matcher m = NCCL_HEADER.matcher(text);
    String header = m.find() ? m.group(1) : "node-0:12:34 [0] NCCL INFO ";
    if (random.nextBoolean()) {
      steps.add("only NCCL headers");
      return (header + "\n").repeat(1 + random.nextInt(5));
    }
    StringBuilder sb = new StringBuilder();
    for (String l : lines) {
      Matcher h = NCCL_HEADER.matcher(l);
      sb.append(h.find() ? h.group(1) + "\n" : l);
    }
    steps.add("NCCL lines cut after their header");
    return sb.toString();
  }

  private String manyRanks(String text, List<String> lines) {
    int at = index(lines);
    for (int tries = 0; tries < 50; tries++) {
      // rather an NCCL line that makes ranks, edges or communicators
      int i = index(lines);
      if (RANKED.matcher(lines.get(i)).find()) {
        at = i;
        break;
      }
    }
    String l = lines.get(at);
    if (l.length() > 4096) {
      return text; // thousands of copies of a long line would fill the fuzzer's heap, not
      // topolens's
    }
    if (!l.endsWith("\n")) {
      l = l + "\n";
    }
    int copies = 1000 + random.nextInt(4000);
    int hosts = 1 + random.nextInt(4);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < copies; i++) {
      String c = HOST.matcher(l).replaceFirst("host-" + (i % hosts) + ":" + (i % 97) + ":$3");
      List<int[]> nums = spans(NUMBER, c);
      if (!nums.isEmpty()) {
        int[] n = nums.get(nums.size() > 2 ? 2 : nums.size() - 1);
        c = c.substring(0, n[0]) + i + c.substring(n[1]);
      }
      sb.append(c);
    }
    steps.add(
        copies + " copies of line " + (at + 1) + " with ranks 0.. over " + hosts + " host name(s)");
    lines.add(at + 1, sb.toString());
    return String.join("", lines);
  }

  private String longLine(String text, List<String> lines) {
    int at = index(lines);
    String l = lines.get(at);
    String body = l.strip();
    if (body.isEmpty() || random.nextBoolean()) {
      body = "a";
    }
    int size = 10 << 20;
    String longText = body.repeat(Math.max(1, size / body.length()));
    steps.add(
        "10 MB line ("
            + (body.length() > 20 ? body.substring(0, 20) + "..." : body)
            + ") at "
            + (at + 1));
    lines.add(at, longText + (random.nextBoolean() ? "\n" : ""));
    return String.join("", lines);
  }

  private int index(List<String> lines) {
    return lines.isEmpty() ? 0 : random.nextInt(lines.size());
  }

  static List<String> lines(String text) {
    List<String> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        out.add(text.substring(start, i + 1));
        start = i + 1;
      }
    }
    if (start < text.length() || out.isEmpty()) {
      out.add(text.substring(start));
    }
    return out;
  }

  private static String join(List<String> a, List<String> b) {
    return String.join("", a) + String.join("", b);
  }

  private static List<int[]> spans(Pattern p, String s) {
    List<int[]> out = new ArrayList<>();
    Matcher m = p.matcher(s);
    while (m.find()) {
      out.add(new int[] {m.start(), m.end()});
    }
    return out;
  }

  private static List<int[]> groupSpans(Pattern p, String s, int group) {
    List<int[]> out = new ArrayList<>();
    Matcher m = p.matcher(s);
    while (m.find() && out.size() < 10_000) {
      out.add(new int[] {m.start(group), m.end(group)});
    }
    return out;
  }

  private static String hex(String s) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      sb.append(String.format("%02x", (int) c));
    }
    return sb.isEmpty() ? "(nothing)" : sb.toString();
  }

  private static byte[] gzip(byte[] in) {
    try {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      try (GZIPOutputStream g = new GZIPOutputStream(b)) {
        g.write(in);
      }
      return b.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
