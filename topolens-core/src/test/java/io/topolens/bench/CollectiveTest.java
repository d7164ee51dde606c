package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CollectiveTest {

  /** doc/PERFORMANCE.md and each test's GetBw: 2(n-1)/n, (n-1)/n or 1. */
  @ParameterizedTest(name = "{0} x {1}")
  @CsvSource({
    "ALL_REDUCE,1,0",
    "ALL_REDUCE,2,1",
    "ALL_REDUCE,4,1.5",
    "ALL_REDUCE,16,1.875",
    "ALL_REDUCE,128,1.984375",
    "ALL_GATHER,16,0.9375",
    "REDUCE_SCATTER,80,0.9875",
    "ALLTOALL,80,0.9875",
    "ALLTOALLV,4,0.75",
    "SCATTER,16,0.9375",
    "GATHER,8,0.875",
    "BROADCAST,8,1",
    "REDUCE,8,1",
    "SENDRECV,80,1",
    "HYPERCUBE,8,1",
    "BISECTION,8,1"
  })
  void busBwFactor(Collective c, int n, double factor) {
    assertThat(c.busBwFactor(n)).isEqualTo(factor);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "-",
      value = {
        "all_reduce_perf,ALL_REDUCE",
        "build/all_reduce_perf,ALL_REDUCE",
        "/nccl-tests-2.17.1/build/all_gather_perf,ALL_GATHER",
        "reduce_scatter_perf_mpi,REDUCE_SCATTER",
        "ALLTOALL_PERF,ALLTOALL",
        "alltoallv_perf,ALLTOALLV",
        "sendrecv,SENDRECV",
        "hypercube_perf,HYPERCUBE",
        "scatter_perf,SCATTER",
        "gather_perf,GATHER",
        "broadcast_perf,BROADCAST",
        "reduce_perf,REDUCE",
        "all_reduce_group_perf,-",
        "nccl-tests,-"
      })
  void fromTestName(String name, Collective expected) {
    assertThat(Collective.fromTestName(name)).isEqualTo(expected);
  }

  @Test
  void testNamesRoundTrip() {
    for (Collective c : Collective.values()) {
      assertThat(Collective.fromTestName(c.testName())).isEqualTo(c);
    }
  }

  /**
   * Against real data: every row of every run whose nranks comes from complete rank lines has busbw
   * = algbw x factor within the printed rounding.
   */
  @Test
  void factorHoldsOnEveryRealRow() {
    long checked =
        Stream.of(
                "fixtures/h200x4/ar-p2p.log",
                "fixtures/h200x4/ar-p2p-g2.log",
                "fixtures/h200x4/ag-p2p.log",
                "fixtures/h200x4/rs-p2p.log",
                "fixtures/h200x4/ar-shm.log",
                "public/nccl-tests/001-scatter-perf-2x-p4d-a100-16r-srun-l-nccl-info-efa.txt",
                "public/nccl-tests/014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt",
                "public/nccl-tests/015-multi-collective-v2.17.8-2r-2node-smoke.txt",
                "public/nccl-tests/016-all-reduce-gcp-a3mega-16r-2node.txt")
            .flatMap(f -> Bench.read(f).runs().stream())
            .filter(r -> !r.nranksInferred())
            .flatMap(
                r ->
                    r.rows().stream()
                        .flatMap(x -> Stream.of(x.outOfPlace(), x.inPlace()))
                        .peek(
                            h ->
                                assertThat(h.busBw())
                                    .isCloseTo(
                                        h.algBw() * r.collective().busBwFactor(r.nranks()),
                                        within(0.0051 + 0.0051 * 2 + tolerance(h.busBw())))))
            .count();
    assertThat(checked).isEqualTo(2 * (30 + 30 + 30 + 30 + 29 + 29 + 5 * 10 + 2 * 5 + 31));
  }

  private static double tolerance(double v) {
    return v < 1000 ? 0 : 0.05;
  }
}
