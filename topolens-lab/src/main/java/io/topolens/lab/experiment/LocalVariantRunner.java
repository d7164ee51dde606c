package io.topolens.lab.experiment;

import io.topolens.lab.PythonFinder;
import io.topolens.lab.local.LocalLauncher;
import io.topolens.lab.probe.ProbeScript;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Runs variants on this host with pods emulated the way Kubernetes makes them: each pod's ranks see
 * only the pod's GPUs ({@code CUDA_VISIBLE_DEVICES}; none on CPU, so the ranks use gloo), carry the
 * pod's identity ({@code NCCL_HOSTID}, {@code POD_NAME}) and count their local ranks within the
 * pod, each rank in its own process group; all join one rendezvous on loopback. NCCL then counts
 * one node per pod and sends traffic between pods over NET/Socket, as pods with their own hostnames
 * get.
 */
public final class LocalVariantRunner implements VariantRunner {

  /** The variable the probe records as the rank's pod. */
  public static final String POD_NAME = "POD_NAME";

  private final ExperimentSpec spec;
  private final PythonFinder.Python python;
  private final int gpus;
  private volatile LocalLauncher current;
  private volatile boolean stopped;

  /**
   * @param gpus the GPUs the variants may use; 0 runs every rank on the CPU
   */
  public LocalVariantRunner(ExperimentSpec spec, PythonFinder.Python python, int gpus) {
    this.spec = spec;
    this.python = python;
    this.gpus = gpus;
  }

  @Override
  public Optional<String> skipReason(Variant v) {
    if (v.nodes() > 1) {
      return Optional.of(
          "a local experiment has one node; nodes: " + v.nodes() + " needs where: kubernetes");
    }
    if (v.network() != null && !List.of("eni", "tcp", "socket", "sockets").contains(v.network())) {
      return Optional.of(
          "emulated pods on one host talk over sockets (eni); this host offers no " + v.network());
    }
    if (gpus > 0 && v.ranks() > gpus) {
      return Optional.of("needs " + v.ranks() + " GPUs, this host has " + gpus);
    }
    return Optional.empty();
  }

  @Override
  public VariantRun run(Variant v, Path dir, Consumer<String> progress)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    List<Path> logs = new ArrayList<>();
    if (spec.run().probes()) {
      Path probeDir = dir.resolve("probe");
      Path script = ProbeScript.writeTo(probeDir);
      List<String> cmd = new ArrayList<>(List.of(python.command(), script.toString()));
      cmd.addAll(spec.probe().toArgs());
      cmd.addAll(List.of("--json", probeDir.resolve("probe.json").toString()));
      progress.accept("probe on " + v.ranks() + " ranks");
      String failure = launch(v, cmd, probeDir, remaining(start), probeProgress(progress));
      logs.addAll(rankFiles(probeDir));
      if (failure != null) {
        return new VariantRun("probe: " + failure, logs, v.ranks());
      }
    }
    if (spec.run().trains()) {
      Path trainDir = dir.resolve("train");
      List<String> cmd = new ArrayList<>();
      for (String word : spec.train()) {
        cmd.add(
            word.replace("{python}", python.command())
                .replace("{offload}", v.offload() == null ? "none" : v.offload())
                .replace("{variant}", v.name()));
      }
      progress.accept("training on " + v.ranks() + " ranks");
      String failure = launch(v, cmd, trainDir, remaining(start), null);
      logs.addAll(rankFiles(trainDir));
      if (failure != null) {
        return new VariantRun("training: " + failure, logs, v.ranks());
      }
    }
    return new VariantRun(null, logs, v.ranks());
  }

  private Duration remaining(long start) {
    Duration used = Duration.ofNanos(System.nanoTime() - start);
    Duration left = spec.timeout().minus(used);
    return left.isNegative() ? Duration.ofMillis(1) : left;
  }

  /** The probe's own progress lines of rank 0 ({@code topolens-probe: all_reduce: ...}). */
  private static Consumer<String> probeProgress(Consumer<String> progress) {
    String prefix = "topolens-probe: ";
    return line -> {
      if (line.startsWith(prefix)) {
        progress.accept("probe: " + line.substring(prefix.length()));
      }
    };
  }

  /**
   * @param rank0Err also handed rank 0's stderr lines as they come, or null
   */
  private String launch(
      Variant v, List<String> cmd, Path logs, Duration timeout, Consumer<String> rank0Err)
      throws IOException, InterruptedException {
    if (stopped) {
      return "stopped";
    }
    Map<String, String> env = new LinkedHashMap<>();
    env.put("NCCL_DEBUG", "INFO");
    env.putAll(spec.env());
    env.putAll(v.env());
    env.put("TOPOLENS_VARIANT", v.name());
    if (v.offload() != null) {
      env.put("TOPOLENS_OFFLOAD", v.offload());
    }
    Path cwd = spec.file().toAbsolutePath().getParent();
    LocalLauncher launcher =
        new LocalLauncher(cmd, v.ranks())
            .env(env)
            .rankEnv(r -> podEnv(v, r))
            .processGroups()
            .timeout(timeout);
    if (rank0Err != null) {
      launcher.followRank0(null, rank0Err);
    }
    if (cwd != null) {
      launcher.workingDirectory(cwd);
    }
    current = launcher;
    try {
      if (stopped) {
        return "stopped";
      }
      LocalLauncher.Result r = launcher.run(logs);
      if (stopped) {
        return "stopped (interrupted)";
      }
      if (r.timedOut()) {
        return "timed out after "
            + spec.timeout().toSeconds()
            + " s (timeout:); the ranks were killed";
      }
      return r.failure();
    } finally {
      current = null;
    }
  }

  private static final String OMP = "OMP_NUM_THREADS";

  /** What rank {@code r} sees of its emulated pod. */
  Map<String, String> podEnv(Variant v, int r) {
    int perPod = v.layout().gpusPerPod();
    int pod = r / perPod;
    String name = v.dirName() + "-pod-" + pod;
    Map<String, String> e = new LinkedHashMap<>();
    e.put("LOCAL_RANK", Integer.toString(r % perPod));
    e.put("LOCAL_WORLD_SIZE", Integer.toString(perPod));
    e.put("GROUP_RANK", Integer.toString(pod));
    e.put("NODE_RANK", Integer.toString(pod));
    e.put("NCCL_HOSTID", name);
    e.put(POD_NAME, name);
    if (perPod > 1 && !spec.env().containsKey(OMP) && !v.env().containsKey(OMP)) {
      // as torchrun does for several processes of one pod (its launcher sets 1 and warns), so a
      // pod's CPU optimizers do not each spawn a thread per core of the host
      e.put(OMP, "1");
    }
    List<String> ids = new ArrayList<>();
    if (gpus > 0) {
      for (int g = pod * perPod; g < (pod + 1) * perPod; g++) {
        ids.add(Integer.toString(g));
      }
    }
    e.put("CUDA_VISIBLE_DEVICES", String.join(",", ids));
    return e;
  }

  @Override
  public void stop() {
    stopped = true;
    LocalLauncher l = current;
    if (l != null) {
      l.stop();
    }
  }

  private static List<Path> rankFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().matches("rank-\\d+\\.(out|err)"))
          .sorted()
          .toList();
    }
  }

  /**
   * GPUs this host offers for {@code device} (auto, gpu, cpu): {@code nvidia-smi -L}'s count, 0 for
   * cpu or when nvidia-smi is missing.
   */
  public static int gpus(String device) {
    if (device.equals("cpu")) {
      return 0;
    }
    try {
      Process p = new ProcessBuilder("nvidia-smi", "-L").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0) {
        return 0;
      }
      return (int) out.lines().filter(l -> l.startsWith("GPU ")).count();
    } catch (IOException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }
}
