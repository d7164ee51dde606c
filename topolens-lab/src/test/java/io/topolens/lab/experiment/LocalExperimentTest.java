package io.topolens.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.bench.BenchFile;
import io.topolens.bench.BenchResult;
import io.topolens.bench.BenchRow;
import io.topolens.bench.BenchRun;
import io.topolens.bench.Collective;
import io.topolens.bench.NcclTestsReader;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import io.topolens.lab.PythonFinder;
import io.topolens.perf.Layout;
import io.topolens.verdict.Hardware;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Experiments run for real on this host's CPU: ranks over gloo, pods emulated, the probe's output
 * read by the bench reader. Skipped, saying why, only where no Python imports torch.
 */
class LocalExperimentTest {

  static PythonFinder.Python python;

  @TempDir Path dir;

  @BeforeAll
  static void findTorch() {
    try {
      python = new PythonFinder(null).find();
    } catch (PythonFinder.NotFound e) {
      Assumptions.assumeTrue(false, "SKIPPED LOUDLY: no torch for a local experiment: " + e);
    }
  }

  record Ran(int code, String out, String err) {}

  private Ran experiment(Path spec, Path out, boolean resume) throws Exception {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int code =
        Experiments.run(
            spec,
            out,
            resume,
            python.command(),
            new PrintWriter(o, true),
            new PrintWriter(e, true));
    return new Ran(code, o.toString(), e.toString());
  }

  private Path spec(String text) throws Exception {
    Path f = dir.resolve("spec.yaml");
    Files.writeString(f, text);
    return f;
  }

  @Test
  void oneByTwoAgainstTwoByOneWithTheProbeThenResumed() throws Exception {
    Path spec =
        spec(
            """
            name: cpu-layouts
            device: cpu
            probe:
              collectives: [all_reduce, all_gather]
              minBytes: 256K
              maxBytes: 1M
              stepFactor: 2
              warmup: 1
              iters: 3
            variants:
              layout: [1x2, 2x1]
            """);
    Path out = dir.resolve("out");
    Ran r = experiment(spec, out, false);
    assertThat(r.code()).as(r.err()).isZero();

    JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(results.get("name").asText()).isEqualTo("cpu-layouts");
    assertThat(results.get("variants")).hasSize(2);
    for (JsonNode v : results.get("variants")) {
      assertThat(v.fieldNames())
          .toIterable()
          .contains(
              "name",
              "status",
              "layout",
              "ranks",
              "dir",
              "busbw",
              "stepSeconds",
              "transports",
              "findings");
      assertThat(v.get("status").asText()).isEqualTo("ok");
      assertThat(v.get("ranks").asInt()).isEqualTo(2);
      assertThat(v.get("stepSeconds").isNull()).isTrue();
      assertThat(v.get("transports").isArray()).isTrue();
      assertThat(v.get("findings").isArray()).isTrue();
    }

    Experiment e = Experiment.read(out);
    for (Experiment.Variant v : e.variants()) {
      Path probe = out.resolve(v.dir()).resolve("probe");
      // one process per rank, each with its own output
      assertThat(probe.resolve("rank-0.out")).exists();
      assertThat(probe.resolve("rank-1.out")).exists();
      assertThat(probe.resolve("rank-2.out")).doesNotExist();
      // the probe records each rank's emulated pod
      JsonNode ranks =
          new ObjectMapper().readTree(probe.resolve("probe.json").toFile()).get("ranks");
      List<String> pods = new ArrayList<>();
      ranks.forEach(n -> pods.add(n.get("pod").asText() + " " + n.get("nccl_hostid").asText()));
      assertThat(pods)
          .containsExactlyElementsOf(
              v.name().equals("1x2")
                  ? List.of("1x2-pod-0 1x2-pod-0", "1x2-pod-0 1x2-pod-0")
                  : List.of("2x1-pod-0 2x1-pod-0", "2x1-pod-1 2x1-pod-1"));
      ranks.forEach(n -> assertThat(n.get("cuda_visible_devices").asText()).isEmpty());

      // bench reads the probe's output unchanged, and busbw follows from the times
      BenchFile bench = new NcclTestsReader().read(probe.resolve("rank-0.out"), "rank-0.out");
      assertThat(bench.runs())
          .extracting(BenchRun::collective)
          .containsExactly(Collective.ALL_REDUCE, Collective.ALL_GATHER);
      for (BenchRun run : bench.runs()) {
        assertThat(run.nranks()).isEqualTo(2);
        assertThat(run.rows())
            .extracting(BenchRow::bytes)
            .containsExactly(262144L, 524288L, 1048576L);
        double peak = 0;
        for (BenchRow row : run.rows()) {
          for (BenchResult half : List.of(row.outOfPlace(), row.inPlace())) {
            // nccl-tests: algbw = bytes / time; busbw = algbw x 2(n-1)/n or (n-1)/n
            double algbw = row.bytes() / half.timeUs() / 1e3;
            double factor = run.collective() == Collective.ALL_REDUCE ? 2.0 * 1 / 2 : 1.0 / 2;
            assertThat(half.algBw()).isCloseTo(algbw, within(0.006));
            assertThat(half.busBw()).isCloseTo(algbw * factor, within(0.006));
            peak = Math.max(peak, half.busBw());
          }
        }
        String name = run.collective() == Collective.ALL_REDUCE ? "all_reduce" : "all_gather";
        assertThat(v.busbw()).containsEntry(name, peak);
      }
    }
    assertThat(r.out()).contains("Experiment cpu-layouts").containsPattern("(?m)^1x2 +ok ");
    assertThat(r.out()).containsPattern("(?m)^2x1 +ok ");
    assertThat(r.err()).contains("[1/2] 1x2: ok in ").contains("[2/2] 2x1: ok in ");

    // a second run into the same folder needs --resume
    Ran again = experiment(spec, out, false);
    assertThat(again.code()).isEqualTo(2);
    assertThat(again.err()).contains("already holds an experiment's results.json");

    // --resume keeps both finished variants without running them again
    String mark = Files.readString(out.resolve("variants/1x2/variant.json"));
    Ran resumed = experiment(spec, out, true);
    assertThat(resumed.code()).as(resumed.err()).isZero();
    assertThat(resumed.err())
        .contains("[1/2] 1x2: finished before, kept (--resume)")
        .contains("[2/2] 2x1: finished before, kept (--resume)")
        .doesNotContain("starts");
    assertThat(Files.readString(out.resolve("variants/1x2/variant.json"))).isEqualTo(mark);
    assertThat(Experiment.read(out).variants()).isEqualTo(e.variants());
  }

  @Test
  void aFailingVariantIsRecordedAndTheNextOneRuns() throws Exception {
    Files.writeString(
        dir.resolve("train.py"),
        """
        import json, os, sys
        if os.environ["TOPOLENS_VARIANT"] == "1x2" and os.environ["RANK"] == "1":
            print("RuntimeError: CUDA out of memory (as a test)", file=sys.stderr)
            sys.exit(3)
        for step, t in enumerate([0.9, 0.4, 0.6, 0.5]):
            print(json.dumps({"step": step + 1, "step_time": t}), flush=True)
        """);
    Path spec =
        spec(
            """
            run: train
            device: cpu
            train: ["{python}", train.py]
            variants:
              layout: [1x2, 2x1]
            """);
    Path out = dir.resolve("out");
    Ran r = experiment(spec, out, false);
    assertThat(r.code()).as(r.err()).isEqualTo(1);
    List<Experiment.Variant> vs = Experiment.read(out).variants();
    assertThat(vs).extracting(Experiment.Variant::status).containsExactly("failed", "ok");
    assertThat(vs.get(0).reason())
        .isEqualTo("training: rank 1 exited with 3: RuntimeError: CUDA out of memory (as a test)");
    // the step-time reader reads the JSON lines of both ranks; each one's first step is warm-up
    assertThat(vs.get(1).stepSeconds()).isEqualTo(new Experiment.Steps(0.5, 0.4, 0.6, 6));
    // what the failed variant measured before it failed is kept: rank 0 ran its steps
    assertThat(vs.get(0).stepSeconds()).isEqualTo(new Experiment.Steps(0.5, 0.4, 0.6, 3));
    assertThat(r.out())
        .containsPattern("(?m)^1x2 +failed +- +0.500 +- +- +- +-$")
        .containsPattern("(?m)^2x1 +ok +- +0.500 +1.00x +- +- +-$");

    // --resume runs the failed variant again and keeps the finished one
    Ran resumed = experiment(spec, out, true);
    assertThat(resumed.err())
        .contains("[1/2] 1x2: 1x2 (2 ranks) starts")
        .contains("[2/2] 2x1: finished before, kept (--resume)");
  }

  @Test
  void aVariantPastItsTimeoutIsKilledAndRecorded() throws Exception {
    Path spec =
        spec(
            """
            run: train
            device: cpu
            timeout: 2s
            train: ["{python}", "-c", "import time; time.sleep(120)"]
            variants:
              layout: 1x1
            """);
    long start = System.nanoTime();
    Ran r = experiment(spec, dir.resolve("out"), false);
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(60);
    assertThat(r.code()).isEqualTo(1);
    Experiment.Variant v = Experiment.read(dir.resolve("out")).variants().getFirst();
    assertThat(v.status()).isEqualTo("failed");
    assertThat(v.reason())
        .isEqualTo("training: timed out after 2 s (timeout:); the ranks were killed");
  }

  @Test
  void interruptKillsTheRunningVariantsProcessGroupsAndKeepsTheFinishedOnes() throws Exception {
    Path pids = dir.resolve("pids");
    // the rank starts a grandchild that outlives its parent shell: only a group kill reaches it
    Files.writeString(
        dir.resolve("train.py"),
        """
        import os, subprocess, sys, time
        if os.environ["TOPOLENS_VARIANT"] == "1x1":
            sys.exit(0)
        subprocess.run(["sh", "-c", "sleep 300 > /dev/null 2>&1 & echo $! > %s.tmp"])
        with open("%s.tmp") as f:
            grandchild = f.read().strip()
        with open("%s.tmp2", "w") as f:
            f.write("%%d %%s" %% (os.getpid(), grandchild))
        os.rename("%s.tmp2", "%s")
        time.sleep(300)
        """
            .formatted(pids, pids, pids, pids, pids));
    Path specFile =
        spec(
            """
            run: train
            device: cpu
            train: ["{python}", train.py]
            variants:
              layout: [1x1, 2x1, 1x2]
            """);
    ExperimentSpec spec = SpecReader.read(specFile);
    Path out = dir.resolve("out");
    StringWriter err = new StringWriter();
    ExperimentRun run =
        new ExperimentRun(
            spec,
            new LocalVariantRunner(spec, python, 0),
            new VariantAnalysis(HardwareCatalog.builtIn(), Hardware.unknown()),
            HardwareCatalog.builtIn(),
            out,
            false,
            new PrintWriter(err, true));
    Thread t =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    run.run();
                  } catch (Exception e) {
                    throw new RuntimeException(e);
                  }
                });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(pids) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(pids).as(err.toString()).exists();
    String[] p = Files.readString(pids).split(" ");
    long rank = Long.parseLong(p[0]);
    long grandchild = Long.parseLong(p[1]);
    assertThat(ProcessHandle.of(grandchild).map(ProcessHandle::isAlive)).contains(true);

    run.interrupt();
    t.join(30_000);
    assertThat(t.isAlive()).isFalse();
    assertThat(ProcessHandle.of(rank).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(ProcessHandle.of(grandchild).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    List<Experiment.Variant> vs = Experiment.read(out).variants();
    assertThat(vs)
        .extracting(v -> v.name() + " " + v.status() + " " + v.reason())
        .containsExactly("1x1 ok null", "2x1 skipped interrupted", "1x2 skipped interrupted");
    assertThat(err.toString())
        .contains(
            "topolens: interrupted: the running variant was stopped; 1 finished variant(s) kept in "
                + out.resolve("results.json"));
  }

  @Test
  void eachEmulatedPodSeesOnlyItsGpusAndItsOwnHostIdentity() throws Exception {
    ExperimentSpec spec = SpecReader.read(spec("variants: {layout: 2x2}\n"));
    Variant v = spec.variants().getFirst();
    LocalVariantRunner gpus = new LocalVariantRunner(spec, python, 4);
    assertThat(gpus.podEnv(v, 3))
        .containsAllEntriesOf(
            Map.of(
                "CUDA_VISIBLE_DEVICES", "2,3",
                "LOCAL_RANK", "1",
                "LOCAL_WORLD_SIZE", "2",
                "NCCL_HOSTID", "2x2-pod-1",
                "POD_NAME", "2x2-pod-1"));
    assertThat(gpus.podEnv(v, 0)).containsEntry("CUDA_VISIBLE_DEVICES", "0,1");
    assertThat(new LocalVariantRunner(spec, python, 0).podEnv(v, 2))
        .containsEntry("CUDA_VISIBLE_DEVICES", "")
        .containsEntry("NCCL_HOSTID", "2x2-pod-1");
    assertThat(gpus.skipReason(new Variant("big", Layout.parse("4x2"), 1, null, Map.of(), null, 1)))
        .contains("needs 8 GPUs, this host has 4");
    assertThat(
            gpus.skipReason(new Variant("efa", Layout.parse("2x1"), 1, "efa", Map.of(), null, 1)))
        .contains("emulated pods on one host talk over sockets (eni); this host offers no efa");
  }

  @ParameterizedTest
  @CsvSource(
      nullValues = "-",
      delimiter = ';',
      value = {
        "variants: {layout: 2x2}; 1",
        "variants: {layout: 4x1}; -",
        "env: {OMP_NUM_THREADS: 8}|variants: {layout: 2x2}; -",
        "variants: {layout: 2x2, env: {OMP_NUM_THREADS: 4}}; -"
      })
  void severalRanksOfOnePodGetOneCpuThreadEachAsTorchrunGivesThem(String yaml, String threads)
      throws Exception {
    ExperimentSpec spec = SpecReader.read(spec(yaml.replace('|', '\n') + "\n"));
    Map<String, String> env =
        new LocalVariantRunner(spec, python, 4).podEnv(spec.variants().getFirst(), 0);
    assertThat(env.get("OMP_NUM_THREADS")).isEqualTo(threads);
  }
}
