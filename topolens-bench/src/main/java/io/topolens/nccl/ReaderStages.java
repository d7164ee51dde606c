package io.topolens.nccl;

import io.topolens.model.Job;
import io.topolens.steps.StepTimeReader;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Each stage of the NCCL log reader on real lines, one parse slice ({@link NcclLogReader#SLICE}
 * bytes) at a time: finding line ends, skipping the lines of other programs (the pre-filter of
 * {@link Needles}), cutting out and parsing NCCL lines, parsing headers, parsing messages, and
 * applying events to a job. Run from the repository root (docs/performance.md): {@code java -jar
 * topolens-bench/target/benchmarks.jar}. Times are per slice (or per line list, see each method).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReaderStages {

  /** The repository root, where the fixtures are read from. */
  static final Path ROOT = Path.of(System.getProperty("topolens.root", "."));

  /**
   * Every line NCCL's: the verbose FSDP log with COLL traces that bench/run.sh's nccl shape
   * repeats.
   */
  static final Path VERBOSE =
      ROOT.resolve("topolens-core/src/test/resources/fixtures/h200x4/verbose/fsdp-coll-subsys.log");

  /** NCCL's init lines of one FSDP job (the mixed shape's NCCL lines). */
  static final Path P2P = ROOT.resolve("examples/h200-p2p/fsdp-p2p.log");

  /** A real pod log of a DeepSpeed job and real step-time lines: the mixed shape's own lines. */
  static final List<Path> APP =
      List.of(
          ROOT.resolve("examples/eks-efa-fallback/llama-3-8b-node-0-0.log"),
          ROOT.resolve(
              "topolens-core/src/test/resources/public/steps/deepspeed-accelerate-1589-timers-and-bar.log"),
          ROOT.resolve(
              "topolens-core/src/test/resources/public/steps/hf-alignment-handbook-63-loss-dicts.log"));

  byte[] ncclSlice;
  byte[] ncclStepSlice;
  byte[] mixedSlice;
  List<String> ncclLines;
  byte[] ncclBytes;
  int[] ncclStarts;
  List<LineHeader> headers;
  List<NcclEvent> events;
  List<LineHeader> verboseHeaders;
  OtherLines stepLines;
  OtherLines stepReader;

  @Setup
  public void setUp() {
    ncclSlice = slice(lines(VERBOSE));
    // the same lines from 800 before the log's JSON step line on: one slice holds it midway, as
    // each of bench/run.sh's nccl shape's slices holds about one
    List<String> verbose = lines(VERBOSE);
    int json = 0;
    while (!verbose.get(json).startsWith("{")) {
      json++;
    }
    int from = Math.max(0, json - 800);
    List<String> rotated = new ArrayList<>(verbose.subList(from, verbose.size()));
    rotated.addAll(verbose.subList(0, from));
    ncclStepSlice = slice(rotated);
    List<String> nccl = lines(P2P).stream().filter(l -> l.contains("NCCL ")).toList();
    List<String> app = new ArrayList<>();
    APP.forEach(p -> lines(p).stream().filter(l -> !l.contains("NCCL")).forEach(app::add));
    // about one NCCL line in twenty, as in bench/run.sh's mixed shape
    List<String> mixed = new ArrayList<>();
    for (int i = 0; mixed.size() < 20_000; i++) {
      mixed.add(app.get(i % app.size()));
      if (i % 20 == 0) {
        mixed.add(nccl.get((i / 20) % nccl.size()));
      }
    }
    mixedSlice = slice(mixed);
    ncclLines = nccl;
    ncclBytes = String.join("\n", nccl).concat("\n").getBytes(StandardCharsets.UTF_8);
    ncclStarts = new int[nccl.size() + 1];
    for (int i = 0, at = 0; i < nccl.size(); i++) {
      at += nccl.get(i).getBytes(StandardCharsets.UTF_8).length + 1;
      ncclStarts[i + 1] = at;
    }
    headers = nccl.stream().map(LineHeader::parse).toList();
    events = headers.stream().map(MessageParser::parse).toList();
    verboseHeaders =
        lines(VERBOSE).stream()
            .filter(
                l ->
                    !TraceLines.at(
                        l.getBytes(StandardCharsets.ISO_8859_1),
                        l.indexOf("NCCL INFO "),
                        l.length()))
            .map(LineHeader::parse)
            .filter(h -> h != null)
            .toList();
    stepLines = new OtherLines(StepTimeReader.NEEDLES, (f, l, t) -> {});
    stepReader = new StepTimeReader().lines();
  }

  private static List<String> lines(Path p) {
    try {
      return Files.readAllLines(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(
          e + " (run from the repository root or set -Dtopolens.root)", e);
    }
  }

  /** Whole lines up to {@link NcclLogReader#SLICE} bytes, repeating {@code lines}. */
  private static byte[] slice(List<String> lines) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; ; i++) {
      String l = lines.get(i % lines.size()) + "\n";
      if (b.length() + l.length() > NcclLogReader.SLICE) {
        break;
      }
      b.append(l);
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The step-time needles and marks of every line of the mixed slice ({@link Needles.Finder}, as
   * {@code BlockParser} asks about the lines without an NCCL needle; branch speedbytes).
   */
  @Benchmark
  public long findStepNeedles() {
    String block = new String(mixedSlice, StandardCharsets.ISO_8859_1);
    Needles.Finder finder = new Needles.Finder(block, stepReader.searched());
    long bits = 0;
    for (int start = 0; start < block.length(); ) {
      int end = block.indexOf('\n', start);
      end = end < 0 ? block.length() : end;
      bits += finder.which(start, end);
      start = end + 1;
    }
    return bits;
  }

  /** Finding lines: the Latin-1 view of a slice and every line end in it, nothing else. */
  @Benchmark
  public int findLines() {
    String block = new String(mixedSlice, StandardCharsets.ISO_8859_1);
    int lines = 0;
    int at = -1;
    while ((at = block.indexOf('\n', at + 1)) >= 0) {
      lines++;
    }
    return lines;
  }

  /** Skipping other programs' lines: a mixed slice through the pre-filter, NCCL's needles only. */
  @Benchmark
  public BlockParser.Result skipNonNccl() {
    return BlockParser.parse(mixedSlice, mixedSlice.length, OtherLines.NONE);
  }

  /** The same with the step-time reader's needles, as diagnose reads. */
  @Benchmark
  public BlockParser.Result skipNonNcclWithStepNeedles() {
    return BlockParser.parse(mixedSlice, mixedSlice.length, stepLines);
  }

  /**
   * The same, each step-time line also matched by the formats (the work diagnose does on the parse
   * threads; applying the matches in order is left out).
   */
  @Benchmark
  public BlockParser.Result skipNonNcclAndMatchSteps() {
    return BlockParser.parse(mixedSlice, mixedSlice.length, stepReader);
  }

  /** A slice of NCCL lines, most of them COLL traces recognised and skipped on the bytes. */
  @Benchmark
  public BlockParser.Result parseNcclSlice() {
    return BlockParser.parse(ncclSlice, ncclSlice.length, OtherLines.NONE);
  }

  /**
   * A slice of NCCL lines with one JSON step line midway, read as diagnose reads it (the step-time
   * reader's needles and formats): the needle scans that line asks for stop at the next NCCL line
   * (eleventh pass).
   */
  @Benchmark
  public BlockParser.Result parseNcclSliceWithStepLine() {
    return BlockParser.parse(ncclStepSlice, ncclStepSlice.length, stepReader);
  }

  /** Parsing headers: {@link LineHeader#parse} on the 257 NCCL lines of one FSDP job. */
  @Benchmark
  public void parseHeaders(Blackhole bh) {
    for (String l : ncclLines) {
      bh.consume(LineHeader.parse(l));
    }
  }

  /**
   * Parsing headers as the parse threads did before the eighth pass: each line's bytes decoded to
   * its text ({@link BlockParser#text}), then {@link LineHeader#parse}, on the same 257 lines.
   */
  @Benchmark
  public void parseHeadersFromText(Blackhole bh) {
    for (int i = 0; i + 1 < ncclStarts.length; i++) {
      bh.consume(
          LineHeader.parse(BlockParser.text(ncclBytes, ncclStarts[i], ncclStarts[i + 1] - 1)));
    }
  }

  /**
   * Parsing headers as the parse threads do: {@link HeaderBytes#onBytes} on the line's bytes (one
   * per pass, as one per slice), the text and {@link LineHeader#parse} only for the lines it
   * leaves.
   */
  @Benchmark
  public void parseHeadersOnBytes(Blackhole bh) {
    HeaderBytes bytes = new HeaderBytes();
    for (int i = 0; i + 1 < ncclStarts.length; i++) {
      int start = ncclStarts[i];
      int end = ncclStarts[i + 1] - 1;
      int nccl = indexOfNccl(ncclBytes, start, end);
      LineHeader h = bytes.onBytes(ncclBytes, start, end, nccl);
      bh.consume(h != null ? h : LineHeader.parse(BlockParser.text(ncclBytes, start, end)));
    }
  }

  /** The first {@code NCCL } of {@code b[from, to)} (found by the block's search in the reader). */
  private static int indexOfNccl(byte[] b, int from, int to) {
    for (int i = from; i + 5 <= to; i++) {
      if (b[i] == 'N' && b[i + 1] == 'C' && b[i + 2] == 'C' && b[i + 3] == 'L' && b[i + 4] == ' ') {
        return i;
      }
    }
    return -1;
  }

  /** Parsing messages: {@link MessageParser#parse} on the same lines' headers. */
  @Benchmark
  public void parseMessages(Blackhole bh) {
    for (LineHeader h : headers) {
      bh.consume(MessageParser.parse(h));
    }
  }

  /** Applying events: the same lines' events to a new job, and the job built. */
  /**
   * {@link MessageParser} on the verbose log's NCCL lines that are no COLL/PROXY trace (its
   * connection, ring, tree, proxy and buffer lines: the nccl shape's messages; branch speedend).
   */
  @Benchmark
  public void parseVerboseMessages(Blackhole bh) {
    for (LineHeader h : verboseHeaders) {
      bh.consume(MessageParser.parse(h));
    }
  }

  @Benchmark
  public Job applyEvents() {
    JobAssembler job = new JobAssembler();
    for (int i = 0; i < headers.size(); i++) {
      LineHeader h = headers.get(i);
      if (h != null) {
        job.accept(h, events.get(i), "fsdp-p2p.log", i + 1, ncclLines.get(i));
      }
    }
    return job.finish();
  }
}
