package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real outputs with every line wrapped the way launchers and loggers wrap them read to the same
 * runs, rows and devices as the originals.
 */
class LauncherPrefixTest {

  @TempDir Path dir;

  private static final List<String> FILES =
      List.of(
          "fixtures/h200x4/ar-p2p.log",
          "fixtures/h200x4/ag-p2p.log",
          "public/nccl-tests/014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt",
          "public/nccl-tests/008-all-reduce-old-error-col-128r-a100-k8s-elided-ranks.txt",
          "public/nccl-tests/016-all-reduce-gcp-a3mega-16r-2node.txt");

  private static final List<Arguments> WRAPS =
      List.of(
          Arguments.of(
              "kubectl --timestamps",
              (UnaryOperator<String>) l -> "2026-11-21T21:28:36.123456789Z " + l),
          Arguments.of(
              "containerd CRI",
              (UnaryOperator<String>) l -> "2026-11-21T21:28:36.123456789+00:00 stdout F " + l),
          Arguments.of(
              "bracketed timestamp", (UnaryOperator<String>) l -> "[2026-11-21 21:28:36,123] " + l),
          Arguments.of("srun -l", (UnaryOperator<String>) l -> " 0: " + l),
          Arguments.of("mpirun --tag-output", (UnaryOperator<String>) l -> "[1,0]<stdout>:" + l),
          // Open MPI tags every write: lines printed in several writes (nccl-tests' result rows)
          // carry the tag again inside; here every field is a write of its own
          Arguments.of(
              "mpirun --tag-output, a write per field",
              (UnaryOperator<String>)
                  l ->
                      "[1,0]<stdout>:"
                          + (l.contains("NCCL")
                              ? l
                              : l.replaceAll("(?<=\\S)(?=\\s)", "[1,0]<stdout>:"))),
          Arguments.of(
              "timestamp then srun -l",
              (UnaryOperator<String>) l -> "2026-11-21T21:28:36Z 12: " + l),
          Arguments.of("markdown indent", (UnaryOperator<String>) l -> "    " + l),
          Arguments.of("CRLF", (UnaryOperator<String>) l -> l + "\r"),
          Arguments.of(
              "unknown label before #",
              (UnaryOperator<String>) l -> l.startsWith("#") ? "worker-0: " + l : l));

  static Stream<Arguments> cases() {
    return FILES.stream()
        .flatMap(f -> WRAPS.stream().map(w -> Arguments.of(f, w.get()[0], w.get()[1])));
  }

  @ParameterizedTest(name = "{0} / {1}")
  @MethodSource("cases")
  void sameRuns(String resource, String wrap, UnaryOperator<String> prefix) throws Exception {
    List<String> lines = Files.readAllLines(Fixtures.path(resource), StandardCharsets.UTF_8);
    Path p = dir.resolve(Path.of(resource).getFileName());
    Files.writeString(
        p, String.join("\n", lines.stream().map(prefix).toList()) + "\n", StandardCharsets.UTF_8);
    BenchFile original = Bench.read(resource);
    BenchFile wrapped = Bench.read(p);
    assertThat(wrapped.lines()).isEqualTo(original.lines());
    assertThat(wrapped.ncclLines()).isEqualTo(original.ncclLines());
    assertThat(wrapped.unrecognized()).isEqualTo(original.unrecognized());
    assertThat(wrapped.runs()).hasSameSizeAs(original.runs());
    for (int i = 0; i < original.runs().size(); i++) {
      assertThat(digest(wrapped.runs().get(i))).isEqualTo(digest(original.runs().get(i)));
    }
  }

  /**
   * nccl-tests built without MPI and started by {@code srun -l} as two tasks: two single-process
   * runs whose lines interleave, each read from its own rank label.
   */
  @org.junit.jupiter.api.Test
  void interleavedProcessesUnderSrun() throws Exception {
    List<String> a = Files.readAllLines(Fixtures.path("fixtures/h200x4/ar-p2p.log"));
    List<String> b = Files.readAllLines(Fixtures.path("fixtures/h200x4/ag-p2p.log"));
    List<String> mixed = new java.util.ArrayList<>();
    for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
      if (i < a.size()) {
        mixed.add("0: " + a.get(i));
      }
      if (i < b.size()) {
        mixed.add("1: " + b.get(i));
      }
    }
    Path p = dir.resolve("srun.log");
    Files.writeString(p, String.join("\n", mixed) + "\n");
    BenchFile f = Bench.read(p);
    assertThat(f.unrecognized()).isZero();
    assertThat(f.runs())
        .extracting(BenchRun::collective)
        .containsExactly(Collective.ALL_REDUCE, Collective.ALL_GATHER);
    assertThat(f.runs())
        .extracting(r -> r.peak().outOfPlace().busBw())
        .containsExactly(362.84, 339.79);
    assertThat(f.runs()).extracting(BenchRun::completion).containsOnly(Completion.COMPLETE);
    assertThat(f.runs().get(1).rows()).hasSize(30);
  }

  /**
   * Held-out o21 (set 28): nccl-tests on two p5 nodes under {@code mpirun --tag-output}, every
   * result row written in three writes and tagged at each: all 32 rows read, up to 16 GiB (none was
   * read before, and diagnose warned stopped-at: no result row).
   */
  @org.junit.jupiter.api.Test
  void rowsOfSeveralWritesUnderTagOutput() {
    BenchFile f =
        Bench.read(
            "nccl/heldout/set28/o21-healthy-two-p5-nodes-efa-aws-ofi-nccl-1.9.2-nccl-2.22.3"
                + "-all-reduce-488-gbps-p5-nccl-test.log");
    assertThat(f.runs())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.rows()).hasSize(32);
              assertThat(r.rows().getFirst().bytes()).isEqualTo(8);
              assertThat(r.rows().getLast().bytes()).isEqualTo(17_179_869_184L);
              assertThat(r.peak().outOfPlace().busBw()).isEqualTo(487.90);
              assertThat(r.peak().inPlace().busBw()).isEqualTo(488.14);
              assertThat(r.nranks()).isEqualTo(16);
            });
    // ssh's "Warning: Permanently added ..." before the output: not nccl-tests', counted
    assertThat(f.unrecognized()).isEqualTo(1);
  }

  /** A run without the evidence texts, which carry the prefixes. */
  private static List<Object> digest(BenchRun r) {
    return List.of(
        String.valueOf(r.collective()),
        String.valueOf(r.testsVersion()),
        String.valueOf(r.ncclVersion()),
        r.parameters(),
        r.devices().stream()
            .map(
                d ->
                    List.of(
                        d.rank(),
                        String.valueOf(d.group()),
                        d.host(),
                        d.device(),
                        d.busId(),
                        d.name(),
                        d.evidence().line()))
            .toList(),
        r.nranks(),
        r.nranksInferred(),
        r.rows().stream()
            .map(
                x ->
                    List.of(
                        x.bytes(),
                        x.count(),
                        x.type(),
                        String.valueOf(x.redop()),
                        String.valueOf(x.root()),
                        x.outOfPlace(),
                        x.inPlace(),
                        x.evidence().line()))
            .toList(),
        String.valueOf(r.avgBusBw()),
        String.valueOf(r.outOfBounds()),
        r.completion(),
        r.start().line(),
        r.end().line());
  }
}
