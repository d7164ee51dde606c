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
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads the JSON lines the bench scripts print (bench/fsdp-step.py, bench/cpu-adam.py,
 * bench/gpu-micro.py, bench/host-threads.py, bench/fsdp-phases.py), telling each line's kind by its
 * keys, never by the
 * file's name: a training run's summary ({@code step_s_median}) with the per-step lines before it
 * ({@code step}, {@code fwd}, {@code bwd}, {@code opt}), a CPU optimizer run ({@code
 * host_rate_params_per_s}), a copy ({@code "kind": "copy"}), a run of the host-threads sweep
 * ({@code setting} and {@code cpu_busy}; one without {@code step_s_median} failed and is counted as
 * malformed), one rank's timing of one shape by bench/fsdp-phases.py ({@code mode} and {@code
 * fwd_s}; one with {@code error} failed and is counted as malformed). Lines that start with {@code {} but are not JSON are counted as
 * malformed and named; other lines (text, other JSON) are left alone.
 */
public final class BenchLines {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the files held. */
  public record Read(
      List<TrainingRun> runs,
      List<CpuAdamPoint> cpuAdam,
      List<CopyPoint> copies,
      List<ThreadRun> threadRuns,
      List<PhaseRun> phaseRuns,
      List<String> files,
      List<String> malformed) {}

  /**
   * One training run of bench/fsdp-step.py.
   *
   * @param fwdBwdS median forward + backward seconds of steps 3.., or null without step lines
   * @param optS median optimizer seconds of steps 3.., or null
   */
  public record TrainingRun(
      String tag,
      String gpu,
      int world,
      long params,
      int hidden,
      int layers,
      int seq,
      int microBatch,
      boolean offload,
      boolean checkpointing,
      int threads,
      double stepS,
      Double fwdBwdS,
      Double optS,
      Evidence evidence) {}

  /**
   * One process of bench/cpu-adam.py: seconds per parameter with {@code threads} threads, one of
   * {@code procs} processes run at once on a host of {@code cpus} logical CPUs (0: not recorded),
   * stepping a Llama-shaped model of {@code layers} layers.
   */
  public record CpuAdamPoint(
      int threads, long params, double stepS, int procs, int cpus, int layers, Evidence evidence) {
    public double secondsPerParam() {
      return stepS / params;
    }

    /** The host's threads while it ran. */
    public HostThreads host() {
      return new HostThreads(procs, threads, cpus);
    }

    /** One process with its threads on their own vCPUs: what the Amdahl fit takes. */
    public boolean alone() {
      return procs == 1 && !host().oversubscribed();
    }
  }

  /**
   * One run of bench/host-threads.py: {@code procs} ranks of {@code threads} CPU threads each
   * (torch's own count, {@code cpu_threads}) on a host of {@code vcpus}, beside {@code spinners}
   * busy-looping co-processes, training the shape named {@code h<hidden>-l<layers>-s<seq>}.
   *
   * @param setting the sweep's own name of the setting (OMP_NUM_THREADS, or "default" when unset)
   * @param stepS the median step of steps 3..
   * @param busy the vCPUs each rank kept busy over those steps (CPU seconds over wall seconds),
   *     averaged over the ranks
   */
  public record ThreadRun(
      String shape,
      String setting,
      int procs,
      int threads,
      int vcpus,
      int spinners,
      double stepS,
      double busy,
      Evidence evidence) {
    private static final java.util.regex.Pattern SHAPE =
        java.util.regex.Pattern.compile("h(\\d+)-l(\\d+)-s(\\d+)\\b.*");

    /** The host's threads while it ran. */
    public HostThreads host() {
      return new HostThreads(procs, threads, vcpus);
    }

    /** Whether the shape's name says this hidden size, layer count and sequence length. */
    public boolean shapeIs(int hidden, int layers, int seq) {
      java.util.regex.Matcher m = SHAPE.matcher(shape);
      return m.matches()
          && Integer.parseInt(m.group(1)) == hidden
          && Integer.parseInt(m.group(2)) == layers
          && Integer.parseInt(m.group(3)) == seq;
    }
  }

  /**
   * One rank's timing of one shape by bench/fsdp-phases.py: the medians of its timed steps, each
   * phase followed by a device synchronisation as train_fsdp.py times them.
   *
   * @param label the run's name, kept in every line of the run ({@code --label})
   * @param mode plain (the module alone), fsdp (FSDP2 over NCCL), fake (FSDP2 over the fake group)
   * @param world the ranks FSDP2 shards over
   */
  public record PhaseRun(
      String label,
      String tag,
      String mode,
      int world,
      int rank,
      String gpu,
      double fwdS,
      double bwdS,
      double optS,
      Evidence evidence) {
    /** Forward plus backward, seconds. */
    public double fwdBwdS() {
      return fwdS + bwdS;
    }
  }

  /** A host-device copy rate of bench/gpu-micro.py. */
  public record CopyPoint(
      long mib, boolean pinned, double h2dGBps, double d2hGBps, Evidence evidence) {}

  /** Reads files, or every regular file under a directory (sorted), that hold such lines. */
  public static Read read(List<Path> paths) throws InputProblem {
    List<Path> files = new ArrayList<>();
    for (Path p : paths) {
      if (Files.isDirectory(p)) {
        try (Stream<Path> s = Files.walk(p)) {
          s.filter(Files::isRegularFile).sorted().forEach(files::add);
        } catch (IOException e) {
          throw new InputProblem(p + ": cannot list: " + e.getMessage());
        }
      } else if (Files.isRegularFile(p)) {
        files.add(p);
      } else {
        throw new InputProblem(p + ": no such file or directory");
      }
    }
    Read out =
        new Read(
            new ArrayList<>(),
            new ArrayList<>(),
            new ArrayList<>(),
            new ArrayList<>(),
            new ArrayList<>(),
            new ArrayList<>(),
            new ArrayList<>());
    for (Path f : files) {
      readFile(f, out);
    }
    return out;
  }

  private static void readFile(Path f, Read out) throws InputProblem {
    String name = f.toString();
    List<JsonNode> steps = new ArrayList<>();
    boolean any = false;
    long n = 0;
    try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        n++;
        String t = line.strip();
        if (!t.startsWith("{")) {
          continue;
        }
        JsonNode j;
        try {
          j = JSON.readTree(t);
        } catch (IOException e) {
          out.malformed().add(name + ":" + n + ": not JSON");
          continue;
        }
        Evidence ev = new Evidence(name, n, t);
        if (j.has("setting") && j.has("cpu_busy") || j.has("setting") && j.has("rcs")) {
          if (!j.has("step_s_median") || !j.has("cpu_busy")) {
            out.malformed()
                .add(
                    name
                        + ":"
                        + n
                        + ": host-threads run without a step (exit codes "
                        + j.path("rcs")
                        + ")");
            continue;
          }
          double busy = 0;
          for (JsonNode b : j.path("cpu_busy")) {
            busy += b.asDouble() / j.path("cpu_busy").size();
          }
          out.threadRuns()
              .add(
                  new ThreadRun(
                      j.path("shape").asText(""),
                      j.path("setting").asText(""),
                      j.path("procs").asInt(1),
                      j.path("cpu_threads").asInt(1),
                      j.path("vcpus").asInt(0),
                      j.path("spin").asInt(0),
                      j.path("step_s_median").asDouble(),
                      busy,
                      ev));
        } else if (j.has("mode") && j.has("tag") && j.has("world")) {
          if (j.has("error") || !j.has("fwd_s")) {
            out.malformed()
                .add(
                    name
                        + ":"
                        + n
                        + ": fsdp-phases run without a step ("
                        + j.path("error").asText("no fwd_s")
                        + ")");
            continue;
          }
          out.phaseRuns()
              .add(
                  new PhaseRun(
                      j.path("label").asText(""),
                      j.path("tag").asText(""),
                      j.path("mode").asText(""),
                      j.path("world").asInt(1),
                      j.path("rank").asInt(0),
                      j.path("gpu").asText(""),
                      j.path("fwd_s").asDouble(),
                      j.path("bwd_s").asDouble(),
                      j.path("opt_s").asDouble(),
                      ev));
          any = true;
        } else if (j.has("step_s_median")) {
          out.runs().add(run(j, steps, ev));
          steps.clear();
          any = true;
        } else if (j.has("step") && j.has("fwd")) {
          steps.add(j);
        } else if (j.has("host_rate_params_per_s")) {
          for (JsonNode p : j.path("per_proc")) {
            out.cpuAdam()
                .add(
                    new CpuAdamPoint(
                        p.path("threads").asInt(1),
                        p.path("params").asLong(),
                        p.path("step_s").asDouble(),
                        j.path("procs").asInt(1),
                        j.path("cpus").asInt(0),
                        j.path("layers").asInt(0),
                        ev));
          }
          any = true;
        } else if ("copy".equals(j.path("kind").asText())) {
          out.copies()
              .add(
                  new CopyPoint(
                      j.path("mib").asLong(),
                      j.path("pinned").asBoolean(),
                      j.path("h2d_gbps").asDouble(),
                      j.path("d2h_gbps").asDouble(),
                      ev));
          any = true;
        }
      }
    } catch (IOException e) {
      throw new InputProblem(name + ": cannot read: " + e.getMessage());
    }
    if (any) {
      out.files().add(name);
    }
  }

  private static TrainingRun run(JsonNode j, List<JsonNode> steps, Evidence ev) {
    List<JsonNode> timed = steps.size() > 2 ? steps.subList(2, steps.size()) : steps;
    Double fb = null;
    Double opt = null;
    if (!timed.isEmpty()) {
      fb =
          median(
              timed.stream()
                  .mapToDouble(s -> s.path("fwd").asDouble() + s.path("bwd").asDouble())
                  .toArray());
      opt = median(timed.stream().mapToDouble(s -> s.path("opt").asDouble()).toArray());
    }
    return new TrainingRun(
        j.path("tag").asText(""),
        j.path("gpu").asText(""),
        j.path("world").asInt(1),
        j.path("params").asLong(),
        j.path("hidden").asInt(),
        j.path("layers").asInt(),
        j.path("seq").asInt(),
        j.path("mb").asInt(),
        j.path("offload").asBoolean(),
        j.path("checkpoint").asBoolean(),
        j.path("omp_threads").asInt(1),
        j.path("step_s_median").asDouble(),
        fb,
        opt,
        ev);
  }

  static double median(double[] v) {
    double[] s = v.clone();
    java.util.Arrays.sort(s);
    int m = s.length / 2;
    return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
  }
}
