package io.topolens.experiment;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.topolens.bench.ProbeLaunch;
import io.topolens.inputs.JsonMessages;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * What {@code topolens experiment} writes in {@code DIR/results.json} and {@code topolens report}
 * draws: each variant with its status, layout, measured busbw and step times, the transports it
 * used and its findings. Unknown fields are ignored on reading, so the file may grow.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Experiment(String name, List<Variant> variants) {

  /** The file an experiment folder holds. */
  public static final String FILE = "results.json";

  private static final ObjectMapper JSON =
      new ObjectMapper()
          .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false)
          .enable(SerializationFeature.INDENT_OUTPUT);

  public Experiment {
    // nulls kept for read() to name, not lost in a NullPointerException
    variants = variants == null ? List.of() : nullable(variants);
  }

  private static <T> List<T> nullable(List<T> list) {
    return java.util.Collections.unmodifiableList(new java.util.ArrayList<>(list));
  }

  /**
   * One variant.
   *
   * @param status ok, failed or skipped
   * @param ranks the ranks it ran (pods x GPUs per pod x nodes)
   * @param dir its folder, relative to the experiment's
   * @param busbw peak busbw per collective, GB/s, as {@code bench} read it from the probe's output
   * @param stepSeconds the measured step times, or null when the variant did not train
   * @param transports the paths NCCL printed in its connection lines ({@code P2P/CUMEM}, {@code
   *     NET/Socket/0}), distinct, in the order first seen
   * @param reason why it failed or was skipped; null when it ran
   * @param env the variables this variant set beside the experiment's own
   * @param elapsedSeconds how long it ran; null when it did not
   * @param predictedSeconds {@code predict}'s step time for this variant, its slowest path
   *     calibrated by its own probe; null without one
   * @param predictedFrom what the prediction's link rates come from (the variant's own probe, or
   *     the catalog)
   * @param predictedWithStepSeconds the same with the job's compute fixed by one measured step (the
   *     variant predicted fastest without offload); for that variant its own measured step; null
   *     without a measured step or for another job
   * @param predictedWithStepFrom whose step fixed the compute and the MFU it gave, a sentence for
   *     people; null without
   * @param predictedWithStepReference the name of the variant whose measured step fixed the compute
   *     (this variant's own for the reference itself), for programs; null without
   * @param launch the probe's launch micro-benchmark (host microseconds per op), null when its
   *     probe printed none
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Variant(
      String name,
      String status,
      String layout,
      Integer ranks,
      String dir,
      Map<String, Double> busbw,
      Steps stepSeconds,
      List<String> transports,
      List<FindingRef> findings,
      Integer nodes,
      String network,
      String offload,
      Map<String, String> env,
      Integer repeat,
      String reason,
      Double elapsedSeconds,
      Double predictedSeconds,
      String predictedFrom,
      Double predictedWithStepSeconds,
      String predictedWithStepFrom,
      String predictedWithStepReference,
      ProbeLaunch launch) {

    public static final String OK = "ok";
    public static final String FAILED = "failed";
    public static final String SKIPPED = "skipped";

    public Variant {
      busbw = busbw == null ? Map.of() : java.util.Collections.unmodifiableMap(busbw);
      transports = transports == null ? List.of() : nullable(transports);
      findings = findings == null ? List.of() : nullable(findings);
      env = env == null ? Map.of() : java.util.Collections.unmodifiableMap(env);
    }

    /** The most severe warn or error finding (the first of the most severe), or null. */
    public FindingRef mainFinding() {
      FindingRef best = null;
      for (FindingRef f : findings) {
        // info findings (an environment variable set, as the experiment itself sets some) are
        // context, not what went wrong
        if (f.weight() > 1 && (best == null || f.weight() > best.weight())) {
          best = f;
        }
      }
      return best;
    }

    public boolean ok() {
      return OK.equals(status);
    }

    /**
     * The same variant with its predictions, from its probe and with one measured step ({@code
     * withStepReference}: the name of the variant whose step it was).
     */
    public Variant withPrediction(
        Double seconds,
        String from,
        Double withStepSeconds,
        String withStepFrom,
        String withStepReference) {
      return new Variant(
          name,
          status,
          layout,
          ranks,
          dir,
          busbw,
          stepSeconds,
          transports,
          findings,
          nodes,
          network,
          offload,
          env,
          repeat,
          reason,
          elapsedSeconds,
          seconds,
          from,
          withStepSeconds,
          withStepFrom,
          withStepReference,
          launch);
    }

    /** (predicted - measured) / measured median step, or null without both. */
    public Double predictionError() {
      return error(predictedSeconds);
    }

    /** As {@link #predictionError()} for the prediction with one measured step. */
    public Double predictionWithStepError() {
      return error(predictedWithStepSeconds);
    }

    private Double error(Double predicted) {
      return predicted == null || stepSeconds == null || stepSeconds.median() <= 0
          ? null
          : (predicted - stepSeconds.median()) / stepSeconds.median();
    }
  }

  /**
   * Median, fastest and slowest step, seconds, over {@code count} steps (warm-up left out).
   *
   * @param count null in files written before it was recorded
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Steps(double median, double min, double max, Integer count) {}

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
      for (int i = 0; i < e.variants().size(); i++) {
        check(f + ": variant " + (i + 1), e.variants().get(i));
      }
      return new Experiment(
          e.name() == null ? dir.getFileName().toString() : e.name(), e.variants());
    } catch (JsonProcessingException e) {
      throw new InputProblem(f + ": not an experiment's results: " + JsonMessages.plain(e));
    } catch (IOException e) {
      String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      throw new InputProblem(
          f + ": not an experiment's results: " + msg.lines().findFirst().orElse(msg));
    }
  }

  /** What the report and validate-model rely on: a name, findings with an id and a severity. */
  private static void check(String where, Variant v) throws InputProblem {
    if (v == null) {
      throw new InputProblem(where + " is null");
    }
    if (v.name() == null || v.name().isBlank()) {
      throw new InputProblem(where + " has no name");
    }
    if (v.transports().stream().anyMatch(java.util.Objects::isNull)) {
      throw new InputProblem(where + " (" + v.name() + "): a null transport");
    }
    for (FindingRef r : v.findings()) {
      if (r == null || r.id() == null || r.weight() == 0) {
        throw new InputProblem(
            where
                + " ("
                + v.name()
                + "): a finding without an id or with a severity other than error, warn or info: "
                + (r == null ? "null" : r.id() + " " + r.severity()));
      }
    }
  }

  /** Reads one variant as {@link #writeVariant} wrote it. */
  public static Variant readVariant(Path file) throws IOException {
    return JSON.readValue(file.toFile(), Variant.class);
  }

  /**
   * Writes {@code DIR/results.json} whole (through a temporary file, so a reader never sees half).
   */
  public void write(Path dir) throws IOException {
    writeAtomically(dir.resolve(FILE), JSON.writeValueAsString(this));
  }

  /** Writes one variant's entry to {@code file}, the mark that the variant finished. */
  public static void writeVariant(Variant v, Path file) throws IOException {
    writeAtomically(file, JSON.writeValueAsString(v));
  }

  private static void writeAtomically(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text + "\n");
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
