package io.topolens.steps;

import io.topolens.catalog.JsonTokens;
import io.topolens.catalog.JsonTokens.Token;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON lines with a step's time, as training scripts and benchmarks print them ({@code {"step": 3,
 * "step_time": 0.12846, "fwd": 0.04122, ...}}, bench/fsdp-step.py): the step under {@code step},
 * {@code iteration}, {@code iter} or {@code global_step}; the time in seconds under one of {@link
 * #SECONDS}, in milliseconds under one of {@link #MILLISECONDS}. A summary line's list of step
 * times ({@code "steps_s": [2.5622, 0.096, ...]}) is read only when the file printed no per-step
 * line. A line that names such a key but is not valid JSON, or whose time is not a number, is
 * malformed.
 *
 * <p>The line is read token by token ({@link JsonTokens}, what Jackson's streaming parser accepts,
 * without Jackson: its parser starts {@code BigDecimal}, 15 ms of a small diagnose). Only the first
 * object counts (what follows it is ignored), a repeated key keeps its last value, and numbers
 * convert as Jackson's tree nodes convert them ({@code JsonStepLinesTest} compares the two).
 */
final class JsonStepLines implements StepFormat {

  @Override
  public Framework framework() {
    return Framework.JSON_LINES;
  }

  static final List<String> SECONDS =
      List.of(
          "step_time",
          "step_time_s",
          "step_seconds",
          "step_s",
          "time_per_step",
          "iter_time",
          "iteration_time",
          "batch_time");
  static final List<String> MILLISECONDS =
      List.of("step_time_ms", "step_ms", "iter_time_ms", "iteration_time_ms");
  static final List<String> LISTS = List.of("steps_s", "step_times", "step_times_s");
  private static final List<String> STEP_KEYS = List.of("step", "iteration", "iter", "global_step");

  @Override
  public List<String> needles() {
    return List.of("time", "step");
  }

  /** A key may be written with escapes ({@code "step\u005ftime"}), which no needle finds. */
  @Override
  public boolean readsEveryWantedLine() {
    return true;
  }

  @Override
  public void read(StepLine line, long found, StepSink file) {
    if (!StepNeedles.has(found, StepNeedles.BRACE) || !line.contains("\"")) {
      return; // the mark and a vectorised search first: lastIndexOf walks the line char by char
    }
    String text = line.text();
    int open = text.indexOf('{');
    int close = text.lastIndexOf('}');
    if (close < open) {
      return;
    }
    Map<String, Value> node;
    try {
      node = object(text.substring(open, close + 1));
    } catch (JsonTokens.NotJson e) {
      if (names(text)) {
        file.malformed(Framework.JSON_LINES, "not valid JSON");
      }
      return;
    }
    if (node == null) {
      return;
    }
    for (String key : SECONDS) {
      if (node.containsKey(key)) {
        one(node, node.get(key), 1, file);
        return;
      }
    }
    for (String key : MILLISECONDS) {
      if (node.containsKey(key)) {
        one(node, node.get(key), 1e-3, file);
        return;
      }
    }
    for (String key : LISTS) {
      if (node.containsKey(key) && node.get(key).items() != null) {
        list(node.get(key).items(), file);
        return;
      }
    }
  }

  /**
   * A value of the line's object, as far as step times need it: a number (Integer, Long, BigInteger
   * or Double, as the parser reads it), the items of a list, or neither.
   */
  record Value(Number number, List<Value> items) {
    static final Value OTHER = new Value(null, null);

    boolean isNumber() {
      return number != null;
    }

    double asDouble() {
      return number.doubleValue();
    }

    boolean canConvertToLong() {
      return switch (number) {
        case null -> false;
        case Integer i -> true;
        case Long l -> true;
        case BigInteger b -> b.bitLength() < 64;
        default -> number.doubleValue() >= Long.MIN_VALUE && number.doubleValue() <= Long.MAX_VALUE;
      };
    }
  }

  /** The top-level fields of the first JSON value of {@code json}, or null when it is no object. */
  static Map<String, Value> object(String json) {
    JsonTokens p = new JsonTokens("line", json);
    if (p.next() != Token.START_OBJECT) {
      return null;
    }
    Map<String, Value> fields = new HashMap<>();
    while (p.next() == Token.FIELD_NAME) {
      String name = p.text();
      fields.put(name, value(p, p.next(), true));
    }
    return fields;
  }

  private static Value value(JsonTokens p, Token t, boolean listed) {
    if (t == Token.NUMBER) {
      return new Value(number(p.text()), null);
    }
    if (t == Token.START_ARRAY && listed) {
      List<Value> items = new ArrayList<>();
      Token next;
      while ((next = p.next()) != Token.END_ARRAY) {
        items.add(value(p, next, false));
      }
      return new Value(null, items);
    }
    if (t == Token.START_ARRAY || t == Token.START_OBJECT) {
      p.skipChildren();
    }
    return Value.OTHER;
  }

  /**
   * A number as Jackson's parser gives it: a whole number as a {@code long} where it fits, else a
   * {@link BigInteger}; one with a fraction or an exponent as a {@code double}.
   */
  static Number number(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '.' || c == 'e' || c == 'E') {
        return Double.parseDouble(text);
      }
    }
    if (text.length() <= 18) {
      return Long.parseLong(text);
    }
    BigInteger big = new BigInteger(text);
    return big.bitLength() < 64 ? (Number) big.longValue() : big;
  }

  private static void one(Map<String, Value> node, Value value, double scale, StepSink file) {
    if (!value.isNumber() || !(value.asDouble() > 0)) {
      file.malformed(Framework.JSON_LINES, "step time is not a positive number");
      return;
    }
    long step = -1;
    for (String key : STEP_KEYS) {
      if (node.containsKey(key) && node.get(key).canConvertToLong()) {
        step = node.get(key).number().longValue();
        break;
      }
    }
    file.recognized(Framework.JSON_LINES);
    file.jsonPerStep();
    file.step(
        file.key("json"),
        step,
        value.asDouble() * scale,
        Framework.JSON_LINES,
        Derivation.MEASURED);
  }

  private static void list(List<Value> values, StepSink file) {
    file.recognized(Framework.JSON_LINES);
    String series = file.key("json-list");
    // whether the file printed per-step lines is known only in file order
    file.whenApplied(f -> list(values, series, f));
  }

  private static void list(List<Value> values, String series, FileSteps file) {
    if (file.jsonPerStep) {
      return; // the same steps were read one by one
    }
    for (Value v : values) {
      if (!v.isNumber() || !(v.asDouble() > 0)) {
        file.malformed(Framework.JSON_LINES, "a step time of the list is not a positive number");
        return;
      }
    }
    String key = series + "#" + file.evidence().line();
    long step = 1;
    for (Value v : values) {
      file.step(key, step++, v.asDouble(), Framework.JSON_LINES, Derivation.MEASURED);
    }
  }

  private static boolean names(String text) {
    for (String k : SECONDS) {
      if (text.contains("\"" + k + "\"")) {
        return true;
      }
    }
    for (String k : MILLISECONDS) {
      if (text.contains("\"" + k + "\"")) {
        return true;
      }
    }
    for (String k : LISTS) {
      if (text.contains("\"" + k + "\"")) {
        return true;
      }
    }
    return false;
  }
}
