package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SlowBootstrapRuleTest {

  /**
   * Rank {@code rank} of an {@code nRanks}-rank communicator on {@code host}, one GPU per process,
   * whose bootstrap took {@code total} seconds. Line 2 is the timing line.
   */
  static String rank(int rank, int nRanks, String host, String total) {
    return """
        {h}:1{r}:2{r} [0] NCCL INFO ncclCommInitRankConfig comm 0x{r}1 rank {r} nranks {n} cudaDev 0 nvmlDev 0 busId 36000 commId 0xbc42 - Init START
        {h}:1{r}:2{r} [0] NCCL INFO Bootstrap timings total {t} (create 0.000078, send 0.000189, recv {t}, ring 0.005660, delay 0.000001)
        {h}:1{r}:2{r} [0] NCCL INFO comm 0x{r}1 rank {r} nRanks {n} nNodes {n} localRanks 1 localRank 0 MNNVL 0
        {h}:1{r}:2{r} [0] NCCL INFO ncclCommInitRankConfig comm 0x{r}1 rank {r} nranks {n} cudaDev 0 nvmlDev 0 busId 36000 commId 0xbc42 - Init COMPLETE
        """
        .replace("{h}", host)
        .replace("{r}", String.valueOf(rank))
        .replace("{n}", String.valueOf(nRanks))
        .replace("{t}", total);
  }

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "rank 0 waited a minute for rank 1",
                rank(0, 2, "node-a", "59.827020"),
                rank(1, 2, "node-b", "0.502000"))
            .expect(
                warn(
                        "Slow NCCL bootstrap: 59.8 s",
                        "Bootstrap of communicator 0xbc42 (2 ranks) took up to 59.8 s (rank 0 on node-a).",
                        "Ranks that arrived late (they waited least): 1 (node-b, 0.50 s).")
                    .lacks("0 (node-a")
                    .at("a.log:2", "b.log:2")),
        given(
                "three ranks, the slowest is not rank 0, the late one is in the middle",
                rank(0, 3, "node-a", "29.900000"),
                rank(1, 3, "node-b", "0.800000"),
                rank(2, 3, "node-c", "30.200000"))
            .expect(
                warn(
                        "took up to 30.2 s (rank 2 on node-c)",
                        "Ranks that arrived late (they waited least): 1 (node-b, 0.80 s).")
                    .lacks("0 (node-a", "2 (node-c,")
                    .at("c.log:2", "b.log:2")),
        given("only rank 0's log of four", rank(0, 4, "node-a", "45.000000"))
            .expect(
                warn(
                        "took up to 45.0 s (rank 0 on node-a)",
                        "The logs hold timings of 1 of 4 ranks; the late ones are among those whose logs are missing.")
                    .at("a.log:2")),
        given(
                "all ranks waited alike",
                rank(0, 2, "node-a", "30.000000"),
                rank(1, 2, "node-b", "25.000000"))
            .expect(
                warn("took up to 30.0 s (rank 0 on node-a)", "All ranks waited alike")
                    .lacks("arrived late")
                    .at("a.log:2")),
        given(
                "exactly the 10 s threshold",
                rank(0, 2, "node-a", "10.000000"),
                rank(1, 2, "node-b", "0.001000"))
            .expect(
                warn("Slow NCCL bootstrap: 10.0 s", "1 (node-b, 0.00 s)").at("a.log:2", "b.log:2")),
        given(
                "only Init timings lines carry the bootstrap time",
                """
                node-a:152:386 [0] NCCL INFO ncclCommInitRankConfig comm 0x562b2c1973d0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 36000 commId 0xbc42 - Init START
                node-a:152:386 [0] NCCL INFO ncclCommInitRankConfig comm 0x562b2c1973d0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 36000 commId 0xbc42 - Init COMPLETE
                node-a:152:386 [0] NCCL INFO Init timings - ncclCommInitRankConfig: rank 0 nranks 2 total 59.98 (kernels 0.13, alloc 0.01, bootstrap 59.83, allgathers 0.01, topo 0.00, graphs 0.00, connections 0.00, rest 0.00)
                """,
                """
                node-b:153:387 [0] NCCL INFO ncclCommInitRankConfig comm 0x55f01c18e490 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 36000 commId 0xbc42 - Init START
                node-b:153:387 [0] NCCL INFO ncclCommInitRankConfig comm 0x55f01c18e490 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 36000 commId 0xbc42 - Init COMPLETE
                node-b:153:387 [0] NCCL INFO Init timings - ncclCommInitRankConfig: rank 1 nranks 2 total 0.70 (kernels 0.13, alloc 0.01, bootstrap 0.55, allgathers 0.01, topo 0.00, graphs 0.00, connections 0.00, rest 0.00)
                """)
            .expect(
                warn("took up to 59.8 s (rank 0 on node-a)", "1 (node-b, 0.55 s)")
                    .at("a.log:3", "b.log:3")),
        given(
            "a healthy bootstrap of a millisecond",
            rank(0, 2, "node-a", "0.000958"),
            rank(1, 2, "node-b", "0.000929")),
        given(
            "just under the threshold",
            rank(0, 2, "node-a", "9.990000"),
            rank(1, 2, "node-b", "0.100000")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new SlowBootstrap(), "slow-bootstrap", c);
  }
}
