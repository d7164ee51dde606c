package io.topolens.steps;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;

/**
 * JSON lines with a step's time, as training scripts and benchmarks print them ({@code {"step": 3,
 * "step_time": 0.12846, "fwd": 0.04122, ...}}, bench/fsdp-step.py): the step under {@code step},
 * {@code iteration}, {@code iter} or {@code global_step}; the time in seconds under one of {@link
 * #SECONDS}, in milliseconds under one of {@link #MILLISECONDS}. A summary line's list of step
 * times ({@code "steps_s": [2.5622, 0.096, ...]}) is read only when the file printed no per-step
 * line. A line that names such a key but is not valid JSON, or whose time is not a number, is
 * malformed.
 */
final class JsonStepLines implements StepFormat {
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
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public List<String> needles() {
    return List.of("time", "step");
  }

  @Override
  public void read(String text, FileSteps file) {
    int open = text.indexOf('{');
    int close = text.lastIndexOf('}');
    if (open < 0 || close < open || !text.contains("\"")) {
      return;
    }
    JsonNode node;
    try {
      node = JSON.readTree(text.substring(open, close + 1));
    } catch (JsonProcessingException e) {
      if (names(text)) {
        file.malformed(Framework.JSON_LINES, "not valid JSON");
      }
      return;
    }
    if (!node.isObject()) {
      return;
    }
    for (String key : SECONDS) {
      if (node.has(key)) {
        one(node, node.get(key), 1, file);
        return;
      }
    }
    for (String key : MILLISECONDS) {
      if (node.has(key)) {
        one(node, node.get(key), 1e-3, file);
        return;
      }
    }
    for (String key : LISTS) {
      if (node.has(key) && node.get(key).isArray()) {
        list(node.get(key), file);
        return;
      }
    }
  }

  private static void one(JsonNode node, JsonNode value, double scale, FileSteps file) {
    if (!value.isNumber() || !(value.asDouble() > 0)) {
      file.malformed(Framework.JSON_LINES, "step time is not a positive number");
      return;
    }
    long step = -1;
    for (String key : STEP_KEYS) {
      if (node.has(key) && node.get(key).canConvertToLong()) {
        step = node.get(key).asLong();
        break;
      }
    }
    file.recognized(Framework.JSON_LINES);
    file.jsonPerStep = true;
    file.step(
        file.key("json"),
        step,
        value.asDouble() * scale,
        Framework.JSON_LINES,
        Derivation.MEASURED);
  }

  private static void list(JsonNode values, FileSteps file) {
    file.recognized(Framework.JSON_LINES);
    if (file.jsonPerStep) {
      return; // the same steps were read one by one
    }
    for (JsonNode v : values) {
      if (!v.isNumber() || !(v.asDouble() > 0)) {
        file.malformed(Framework.JSON_LINES, "a step time of the list is not a positive number");
        return;
      }
    }
    String key = file.key("json-list") + "#" + file.evidence().line();
    long step = 1;
    for (JsonNode v : values) {
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
