package io.topolens.steps;

import io.topolens.model.SampleCounter;
import io.topolens.nccl.OtherLines;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The step-time formats on one parse slice (256 KiB) of step lines, the mixed shape's own (the
 * wanted lines of the DeepSpeed job's pod log bench/run.sh repeats: throughput timers and the
 * Trainer's bar): matched on the slice's bytes and recorded as the parse threads do ({@code
 * matchOnBytes}), the same lines decoded to Strings first and matched on those ({@code
 * matchOnTexts}: what each line cost before the bytes were read, less the per-line records), and
 * the record applied to a file's steps in order ({@code applySlice}: the reader's thread). Run from
 * the repository root: {@code java -jar topolens-bench/target/benchmarks.jar StepLineStages}. Times
 * are per slice. On a loaded machine the measuring thread's CPU time is steadier than JMH's wall
 * time: {@code java -cp topolens-bench/target/benchmarks.jar io.topolens.steps.StepLineStages}
 * prints each stage's µs of CPU per slice, minimum and median of 30 batches of 30 calls after 10
 * batches of warm-up.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StepLineStages {
  static final Path ROOT = Path.of(System.getProperty("topolens.root", "."));

  /** The real pod log whose own lines bench/run.sh's mixed shape repeats. */
  static final Path STEPS = ROOT.resolve("examples/eks-efa-fallback/llama-3-8b-node-0-0.log");

  byte[] slice;
  String view;
  int[] starts;
  int[] ends;
  long[] needles;
  StepOps recorded;

  @Setup
  public void setUp() {
    List<String> wanted = new ArrayList<>();
    try {
      for (String l : Files.readAllLines(STEPS, StandardCharsets.UTF_8)) {
        if (StepTimeReader.wanted(l)
            && !l.contains("NCCL")
            && l.indexOf('\r') < 0
            && l.indexOf(0x1b) < 0) {
          wanted.add(l);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e + " (run from the repository root)", e);
    }
    StringBuilder b = new StringBuilder();
    List<int[]> places = new ArrayList<>();
    for (int i = 0; ; i++) {
      String l = wanted.get(i % wanted.size());
      int start = b.toString().getBytes(StandardCharsets.UTF_8).length;
      byte[] bytes = l.getBytes(StandardCharsets.UTF_8);
      if (start + bytes.length + 1 > 256 << 10) {
        break;
      }
      b.append(l).append('\n');
      places.add(new int[] {start, start + bytes.length});
    }
    slice = b.toString().getBytes(StandardCharsets.UTF_8);
    view = new String(slice, StandardCharsets.ISO_8859_1);
    starts = places.stream().mapToInt(p -> p[0]).toArray();
    ends = places.stream().mapToInt(p -> p[1]).toArray();
    needles = new long[starts.length];
    for (int i = 0; i < starts.length; i++) {
      String text = new String(slice, starts[i], ends[i] - starts[i], StandardCharsets.UTF_8);
      needles[i] = StepNeedles.of(text) | StepNeedles.marks(text);
    }
    recorded = matchOnBytes();
  }

  /** Every wanted line matched on the slice's bytes and recorded. */
  @Benchmark
  public StepOps matchOnBytes() {
    StepOps ops = new StepOps(view, slice);
    for (int i = 0; i < starts.length; i++) {
      ops.line(i + 1, starts[i], ends[i], null, needles[i]);
    }
    return ops;
  }

  /** The same lines decoded to Strings first, then matched and recorded. */
  @Benchmark
  public StepOps matchOnTexts() {
    StepOps ops = new StepOps(view, slice);
    for (int i = 0; i < starts.length; i++) {
      String text = new String(slice, starts[i], ends[i] - starts[i], StandardCharsets.UTF_8);
      ops.line(i + 1, starts[i], ends[i], text, needles[i]);
    }
    return ops;
  }

  /** The slice's record applied to a file's steps, in order (its steps kept by place). */
  @Benchmark
  public StepList applySlice() {
    FileSteps file = new FileSteps("bench.log", STEPS, new SampleCounter());
    file.globalBatch(64);
    recorded.applyTo(file, new OtherLines.At("bench.log", STEPS, 0, 0));
    return file.finish();
  }

  public static void main(String[] args) {
    StepLineStages s = new StepLineStages();
    s.setUp();
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    List<java.util.function.Supplier<Object>> stages =
        List.of(s::matchOnBytes, s::matchOnTexts, s::applySlice);
    List<String> names = List.of("matchOnBytes", "matchOnTexts", "applySlice");
    for (int k = 0; k < stages.size(); k++) {
      double[] us = new double[40];
      long sink = 0;
      for (int batch = 0; batch < us.length; batch++) {
        long t0 = mx.getCurrentThreadCpuTime();
        for (int i = 0; i < 30; i++) {
          sink += stages.get(k).get().hashCode();
        }
        us[batch] = (mx.getCurrentThreadCpuTime() - t0) / 1e3 / 30;
      }
      double[] kept = java.util.Arrays.copyOfRange(us, 10, us.length);
      java.util.Arrays.sort(kept);
      System.out.printf(
          java.util.Locale.ROOT,
          "%s: %.1f / %.1f us CPU per slice (min / median, %d lines)%s%n",
          names.get(k),
          kept[0],
          kept[kept.length / 2],
          s.starts.length,
          sink == 42 ? " " : "");
    }
  }
}
