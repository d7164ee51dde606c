package io.topolens.report;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What {@code topolens experiment} wrote in {@code DIR/results.json}: each variant with its status,
 * layout, measured busbw and step times, the transports it used and its findings. Fields this
 * report does not draw are ignored, so the file may grow.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Experiment(String name, List<Variant> variants) {

  /** The file an experiment folder holds. */
  public static final String FILE = "results.json";

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);

  public Experiment {
    variants = variants == null ? List.of() : List.copyOf(variants);
  }

  /**
   * One variant.
   *
   * @param status ok, failed or skipped
   * @param busbw peak busbw per collective, GB/s
   * @param stepSeconds the measured step times, or null when the variant did not train
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Variant(
      String name,
      String status,
      String layout,
      Integer ranks,
      String dir,
      Map<String, Double> busbw,
      Steps stepSeconds,
      List<String> transports,
      List<FindingRef> findings) {

    public Variant {
      busbw = busbw == null ? Map.of() : Map.copyOf(busbw);
      transports = transports == null ? List.of() : List.copyOf(transports);
      findings = findings == null ? List.of() : List.copyOf(findings);
    }

    /** The most severe finding (the first of the most severe), or null. */
    public FindingRef mainFinding() {
      FindingRef best = null;
      for (FindingRef f : findings) {
        if (best == null || f.weight() > best.weight()) {
          best = f;
        }
      }
      return best;
    }
  }

  /** Median, fastest and slowest step, seconds. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Steps(double median, double min, double max) {}

  /** A finding of a variant: its id and severity (error, warn, info). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record FindingRef(String id, String severity) {
    int weight() {
      return switch (severity == null ? "" : severity) {
        case "error" -> 3;
        case "warn" -> 2;
        case "info" -> 1;
        default -> 0;
      };
    }
  }

  /** Whether a folder holds an experiment's results. */
  public static boolean isExperiment(Path dir) {
    return Files.isDirectory(dir) && Files.isRegularFile(dir.resolve(FILE));
  }

  /** Reads {@code DIR/results.json}; a file that is not that shape is named in the problem. */
  public static Experiment read(Path dir) throws InputProblem {
    Path f = dir.resolve(FILE);
    try {
      Experiment e = JSON.readValue(f.toFile(), Experiment.class);
      if (e.variants().isEmpty()) {
        throw new InputProblem(f + ": no variants in it");
      }
      return new Experiment(
          e.name() == null ? dir.getFileName().toString() : e.name(), e.variants());
    } catch (IOException e) {
      String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      throw new InputProblem(
          f + ": not an experiment's results: " + msg.lines().findFirst().orElse(msg));
    }
  }
}
