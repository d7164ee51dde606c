package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MissingRanksRuleTest {

  /**
   * Rank {@code rank} of {@code nRanks} on {@code host}: Init START (line 1), then COMPLETE or not.
   */
  static String rank(int rank, int nRanks, String host, boolean completes) {
    String start =
        "{h}:1{r}:1{r} [0] NCCL INFO ncclCommInitRankConfig comm 0x{r}1 rank {r} nranks {n} cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init START\n"
            + "{h}:1{r}:1{r} [0] NCCL INFO comm 0x{r}1 rank {r} nRanks {n} nNodes {n} localRanks 1 localRank 0 MNNVL 0\n";
    String complete =
        "{h}:1{r}:1{r} [0] NCCL INFO ncclCommInitRankConfig comm 0x{r}1 rank {r} nranks {n} cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init COMPLETE\n";
    return (completes ? start + complete : start)
        .replace("{h}", host)
        .replace("{r}", String.valueOf(rank))
        .replace("{n}", String.valueOf(nRanks));
  }

  static Stream<Case> cases() {
    return Stream.of(
        given("logs of 2 of 4 ranks", rank(0, 4, "node-a", true), rank(1, 4, "node-b", true))
            .expect(
                warn(
                        "Logs cover 2 of 4 ranks of communicator 0xabc",
                        "No line in the input comes from rank(s) 2, 3 of this communicator.")
                    .at("a.log:1")),
        given(
                "rank 1 started init and never completed it",
                rank(0, 2, "node-a", true),
                rank(1, 2, "node-b", false))
            .expect(
                error(
                        "Ranks never completed init of communicator 0xabc",
                        "Rank(s) 1 (node-b) printed Init START but no Init COMPLETE",
                        "while other ranks of the communicator completed it")
                    .lacks("0 (node-a)")
                    .at("b.log:1")),
        given(
                "both: two ranks missing and one of the others stuck",
                rank(0, 4, "node-a", true),
                rank(1, 4, "node-b", false))
            .expect(
                warn("Logs cover 2 of 4 ranks of communicator 0xabc", "rank(s) 2, 3").at("a.log:1"),
                error("Rank(s) 1 (node-b) printed Init START").at("b.log:1")),
        given(
                "NCCL 2.28 [Rank N] tagged Init START with no COMPLETE",
                rankOfTwo(0, "node-a", 2, "NET/IB/0/GDRDMA"),
                """
                node-b:200:210 [0] NCCL INFO [Rank 1] ncclCommInitRankConfig comm 0x10 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init START
                node-b:200:210 [0] NCCL INFO Bootstrap timings total 0.001 (create 0.000, send 0.000, recv 0.001, ring 0.000, delay 0.000)
                """)
            .expect(
                error("Rank(s) 1 (node-b) printed Init START but no Init COMPLETE").at("b.log:1")),
        given(
                "lines that end after Init START, no rank complete, nothing failed: cut or hung",
                rank(0, 2, "node-a", false),
                rank(1, 2, "node-b", false))
            .expect(
                warn(
                        "Ranks did not reach Init COMPLETE of communicator 0xabc in these lines",
                        "Rank(s) 0 (node-a), 1 (node-b) printed Init START but no Init COMPLETE",
                        "the lines alone cannot tell which")
                    .at("a.log:1", "b.log:1")),
        given(
                "the same with a WARN line: init failed",
                rank(0, 2, "node-a", false),
                rank(1, 2, "node-b", false)
                    + "node-b:11:11 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to"
                    + " 10.0.0.1<43215> failed : Software caused connection abort\n")
            .expect(
                error(
                        "Ranks never completed init of communicator 0xabc",
                        "and the input shows a failure")
                    .at("a.log:1", "b.log:1")),
        given(
            "every rank present and complete",
            rankOfTwo(0, "node-a", 2, "NET/Socket/0"),
            rankOfTwo(1, "node-b", 2, "NET/Socket/0")),
        given(
            "old logs print only Init COMPLETE",
            """
            node-a:1:1 [0] NCCL INFO comm 0x55e0 rank 0 nranks 2 cudaDev 0 busId 89000 - Init COMPLETE
            node-a:1:1 [1] NCCL INFO comm 0x55e1 rank 1 nranks 2 cudaDev 1 busId 8a000 - Init COMPLETE
            """),
        given(
                "Lightning under Slurm, one member of four announced (Lightning 1.5's"
                    + " rank_zero_info and announcement as hydra's logger prints them, the Slurm line"
                    + " of https://github.com/ashleve/lightning-hydra-template/issues/231, the"
                    + " announcement with values filled in)",
                """
                [2021-12-19 17:50:03,095][pytorch_lightning.utilities.distributed][INFO] - Multi-processing is handled by Slurm.
                [2021-12-19 17:50:03,120][pytorch_lightning.utilities.distributed][INFO] - initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/4
                """)
            .expect(
                warn(
                        "Lightning under Slurm announced 1 of 4 ranks",
                        "Only the ranks whose logs are at hand are seen",
                        "srun python train.py")
                    .at("a.log:1", "a.log:2")),
        given(
            "Lightning without the Slurm line: 2 of 4 members announced, no Slurm reading"
                + " (https://github.com/Lightning-AI/pytorch-lightning/issues/6206)",
            """
            initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4
            initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/4
            """),
        given(
            "no communicator lines at all",
            "node-a:1:1 [0] NCCL INFO NCCL version 2.27.3+cuda12.9\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new MissingRanks(), "missing-ranks", c);
  }
}
