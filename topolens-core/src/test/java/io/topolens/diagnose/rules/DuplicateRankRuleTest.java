package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.excerpt;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DuplicateRankRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given("rank 3 checked in twice", excerpt("duplicate-rank-source-format.log"))
            .expect(error("Two processes claim the same NCCL rank", "--node_rank").at("a.log:1")),
        given(
            "the bootstrap root saw every rank once",
            """
            node-a:4012:4090 [0] NCCL INFO Bootstrap timings total 0.038246 (create 0.000058, send 0.000149, recv 0.037439, ring 0.000114, delay 0.000000)
            """),
        given(
                "ranks that disagree on the size (bootstrap.cc:330, 2.28.3; nccl/messages)",
                """
                node-a:4021:4090 [0] bootstrap.cc:330 NCCL WARN Bootstrap Root : mismatch in info from procs, nranks 8 vs 16, nroots 1 vs 1, iroot 0 vs 0
                """)
            .expect(error("disagree on its size", "WORLD_SIZE").at("a.log:1")),
        given(
                "Lightning 1.0 under srun, each global rank announced twice, ranks 4-7 by nobody"
                    + " (https://github.com/Lightning-AI/pytorch-lightning/issues/4389)",
                """
                GPU available: True, used: True
                TPU available: False, using: 0 TPU cores
                LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1,2,3]
                GPU available: True, used: True
                TPU available: False, using: 0 TPU cores
                LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1,2,3]
                LOCAL_RANK: 1 - CUDA_VISIBLE_DEVICES: [0,1,2,3]
                initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8
                LOCAL_RANK: 1 - CUDA_VISIBLE_DEVICES: [0,1,2,3]
                initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8
                LOCAL_RANK: 2 - CUDA_VISIBLE_DEVICES: [0,1,2,3]
                initializing ddp: GLOBAL_RANK: 2, MEMBER: 3/8
                LOCAL_RANK: 2 - CUDA_VISIBLE_DEVICES: [0,1,2,3]
                initializing ddp: GLOBAL_RANK: 2, MEMBER: 3/8
                LOCAL_RANK: 3 - CUDA_VISIBLE_DEVICES: [0,1,2,3]
                initializing ddp: GLOBAL_RANK: 3, MEMBER: 4/8
                LOCAL_RANK: 3 - CUDA_VISIBLE_DEVICES: [0,1,2,3]
                initializing ddp: GLOBAL_RANK: 3, MEMBER: 4/8
                initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/8
                initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/8
                """)
            .expect(
                error(
                        "The launcher gave one global rank to several processes",
                        "announced global rank(s) 0, 1, 2, 3 more than once in a world of 8",
                        "the ranks announced are 0, 1, 2, 3 (4 of 8)",
                        "#SBATCH --nodes=<num_nodes> and --ntasks-per-node=<devices>",
                        "Trainer(num_nodes=<num_nodes>, devices=<devices>)")
                    .at(
                        "a.log:19",
                        "a.log:20",
                        "a.log:8",
                        "a.log:10",
                        "a.log:12",
                        "a.log:14",
                        "a.log:16",
                        "a.log:18")),
        given(
            "Fabric logging each announcement through two handlers: one process, two prefixes"
                + " (https://github.com/Lightning-AI/pytorch-lightning/issues/17228)",
            """
            I0411 01:28:10.345465 140656298329920 github_fabric.py:15] 3: compute-permanent-node-[583,752,801,869]
            INFO: Initializing distributed: GLOBAL_RANK: 6, MEMBER: 7/32
            I0411 01:28:10.345892 140656298329920 distributed.py:244] Initializing distributed: GLOBAL_RANK: 6, MEMBER: 7/32
            I0411 01:28:10.347674 140492815607616 github_fabric.py:15] 3: compute-permanent-node-[583,752,801,869]
            INFO: Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/32
            I0411 01:28:10.348047 140492815607616 distributed.py:244] Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/32
            """),
        given(
            "one rank of five announced, the others on other nodes' logs"
                + " (https://github.com/Lightning-AI/pytorch-lightning/issues/19606)",
            """
            [rank: 0] Seed set to 42
            Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/5
            """),
        given(
            "a log that holds two whole runs of a two-process job: every rank twice is no"
                + " duplicate (built in Lightning 2.x's words)",
            """
            Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2
            Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/2
            Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/2
            Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2
            """),
        given(
                "a node rank past the nodes: global rank 9 of 8 (built in Lightning 2.x's words)",
                """
                Initializing distributed: GLOBAL_RANK: 9, MEMBER: 10/8
                """)
            .expect(
                error("a rank outside its world", "rank 9 of 8 processes", "NODE_RANK")
                    .at("a.log:1")),
        given(
                "nodes told different world sizes (built in Lightning 2.x's words)",
                """
                Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/4
                Initializing distributed: GLOBAL_RANK: 5, MEMBER: 6/8
                """)
            .expect(
                error("different world sizes", "worlds of 4, 8 processes")
                    .at("a.log:1", "a.log:2")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new DuplicateRank(), "duplicate-rank", c);
  }
}
