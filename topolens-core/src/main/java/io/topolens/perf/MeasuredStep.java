package io.topolens.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.model.Evidence;
import io.topolens.nccl.InputProblem;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The timing line a training script prints at the end of its log, as the H200 fixtures' FSDP runs
 * do: {@code {"tag": "p2p", "world": 4, "params": ..., "step_s_median": 0.098, ...}}.
 *
 * @param stepS the median step time in seconds
 */
public record MeasuredStep(
    String tag,
    int world,
    long params,
    int seq,
    int microBatch,
    boolean offload,
    double stepS,
    Evidence evidence) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The last line of the file that is a JSON object with {@code step_s_median}. */
  public static MeasuredStep read(Path file, String name) throws InputProblem {
    String found = null;
    long foundLine = 0;
    long n = 0;
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        n++;
        String t = line.strip();
        if (t.startsWith("{") && t.contains("\"step_s_median\"")) {
          found = t;
          foundLine = n;
        }
      }
    } catch (IOException e) {
      throw new InputProblem(name + ": cannot read: " + e.getMessage());
    }
    if (found == null) {
      throw new InputProblem(name + ": no timing line ({\"step_s_median\": ...}) in the log");
    }
    try {
      JsonNode j = JSON.readTree(found);
      return new MeasuredStep(
          j.path("tag").asText(name),
          j.path("world").asInt(),
          j.path("params").asLong(),
          j.path("seq").asInt(),
          j.path("mb").asInt(),
          j.path("offload").asBoolean(),
          j.path("step_s_median").asDouble(),
          new Evidence(name, foundLine, found));
    } catch (IOException e) {
      throw new InputProblem(name + ":" + foundLine + ": timing line is not JSON");
    }
  }
}
