package io.topolens.nccl;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the parse threads' work on NCCL lines costs, in CPU time of the measuring thread (steadier
 * than JMH's wall time on a loaded machine): the first 64 MiB of a log cut into slices as the
 * reader cuts them, then six rounds of {@code slices} (each slice through {@link
 * BlockParser#parse}; {@code steps}, the same with the step-time reader's needles and formats, as
 * diagnose reads) or of {@code headers} (the header of each NCCL line that is no trace: {@code
 * text}, its text and {@link LineHeader#parse}, as before the eighth pass; {@code bytes}, {@link
 * HeaderBytes#onBytes} and the text only for the lines it leaves). Run from the repository root
 * (docs/performance.md): {@code java -cp topolens-bench/target/benchmarks.jar
 * io.topolens.nccl.SliceCost slices|steps|text|bytes bench-data/nccl-256.log}; {@code text,bytes}
 * alternates the two rounds by round.
 */
public final class SliceCost {
  private SliceCost() {}

  private static final int READ = 64 << 20;

  public static void main(String[] args) throws IOException {
    byte[] all;
    try (InputStream in = Files.newInputStream(Path.of(args[1]))) {
      all = in.readNBytes(READ);
    }
    List<byte[]> slices = new ArrayList<>();
    int from = 0;
    while (from < all.length) {
      int to = Math.min(all.length, from + NcclLogReader.SLICE);
      while (to > from && all[to - 1] != '\n') {
        to--;
      }
      if (to == from) {
        break;
      }
      slices.add(Arrays.copyOfRange(all, from, to));
      from = to;
    }
    // where each slice's NCCL lines that are no trace are: start, end, first NCCL
    List<int[]> lines = new ArrayList<>();
    for (byte[] s : slices) {
      lines.add(ncclLines(s));
    }
    if (args[0].contains("bytes")) {
      int left = 0;
      int ncclLines = 0;
      for (int i = 0; i < slices.size(); i++) {
        HeaderBytes bytes = new HeaderBytes();
        int[] l = lines.get(i);
        for (int k = 0; k < l.length; k += 3) {
          ncclLines++;
          left += bytes.onBytes(slices.get(i), l[k], l[k + 1], l[k + 2]) == null ? 1 : 0;
        }
      }
      System.out.printf("%d NCCL lines that are no trace, %d left to the text%n", ncclLines, left);
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    String[] modes = args[0].split(",");
    for (int round = 1; round <= 6 * modes.length; round++) {
      String mode = modes[round % modes.length];
      long t0 = mx.getCurrentThreadCpuTime();
      long n = 0;
      for (int pass = 0; pass < PASSES; pass++) {
        for (int i = 0; i < slices.size(); i++) {
          byte[] s = slices.get(i);
          n +=
              switch (mode) {
                case "slices" -> BlockParser.parse(s, s.length).ncclLines();
                case "steps" -> BlockParser.parse(s, s.length, STEPS).ncclLines();
                case "text" -> headers(s, lines.get(i), false);
                case "bytes" -> headers(s, lines.get(i), true);
                default ->
                    throw new IllegalArgumentException("slices, steps, text or bytes: " + args[0]);
              };
        }
      }
      System.out.printf(
          "%s round %d: %d slices %d times, %d lines: %.3f s CPU%n",
          mode, round, slices.size(), PASSES, n, (mx.getCurrentThreadCpuTime() - t0) / 1e9);
    }
  }

  /** The step-time reader's needles and formats, as diagnose asks the parse threads for them. */
  private static final OtherLines STEPS = new io.topolens.steps.StepTimeReader().lines();

  /** Each slice read this many times a round, so that a round takes a good part of a second. */
  private static final int PASSES = 5;

  /** The NCCL lines of a slice that are no trace: start, end and first {@code NCCL } of each. */
  private static int[] ncclLines(byte[] s) {
    String block = new String(s, StandardCharsets.ISO_8859_1);
    List<Integer> at = new ArrayList<>();
    int start = 0;
    while (start < s.length) {
      int end = block.indexOf('\n', start);
      int nccl = block.indexOf("NCCL ", start);
      if (nccl >= 0 && nccl < end && !TraceLines.at(s, nccl, end)) {
        at.addAll(List.of(start, end, nccl));
      }
      start = end + 1;
    }
    return at.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The headers of a slice's NCCL lines that are no trace; how many were read. */
  private static int headers(byte[] s, int[] lines, boolean onBytes) {
    HeaderBytes bytes = onBytes ? new HeaderBytes() : null;
    int n = 0;
    for (int i = 0; i < lines.length; i += 3) {
      int start = lines[i];
      int end = lines[i + 1];
      LineHeader h = onBytes ? bytes.onBytes(s, start, end, lines[i + 2]) : null;
      if (h == null) {
        h = LineHeader.parse(BlockParser.text(s, start, end));
      }
      n += h != null ? h.message().length() : 0;
    }
    return n;
  }
}
