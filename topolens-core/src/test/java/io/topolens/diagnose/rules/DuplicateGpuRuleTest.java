package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.excerpt;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** NCCL's init check that every rank of a communicator has a GPU of its own. */
class DuplicateGpuRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "mpirun prefix, two ranks (https://github.com/horovod/horovod/issues/3929)",
                """
                [1,2]<stdout>:smc-gpu-03:29880:30398 [0] init.cc:497 NCCL WARN Duplicate GPU detected : rank 2 and rank 0 both on CUDA device 1000
                [1,2]<stdout>:smc-gpu-03:29880:30398 [0] NCCL INFO init.cc:867 -> 5
                [1,4]<stdout>:
                [1,4]<stdout>:smc-gpu-03:29882:30400 [0] init.cc:497 NCCL WARN Duplicate GPU detected : rank 4 and rank 0 both on CUDA device 1000
                [1,4]<stdout>:smc-gpu-03:29882:30400 [0] NCCL INFO init.cc:867 -> 5
                """)
            .expect(
                error(
                        "Two ranks on one GPU: ranks 2 and 0 on CUDA device 1000",
                        "2 line(s) of 2 distinct form(s), from up to 1 process(es).",
                        "set_device")
                    .at("a.log:1", "a.log:4")),
        given(
                "only PyTorch's exception, NCCL's text after Last error:"
                    + " (https://github.com/NVIDIA/Megatron-LM/issues/661)",
                """
                .DistBackendError: NCCL error in: /opt/pytorch/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1727, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3
                ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
                Last error:
                Duplicate GPU detected : rank 3 and rank 0 both on CUDA device f000
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:4")),
        given(
                "NCCL's line pasted alone, no header, no Last error: above it"
                    + " (https://github.com/Intellindust-AI-Lab/DEIM/issues/113)",
                """
                Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000
                """)
            .expect(error("Two ranks on one GPU", "1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "the same after the reporter's prose (https://github.com/rulixiang/afa/issues/26)",
                """
                this problem:
                Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 4f000
                how to solves？
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:2")),
        given(
            "a title that only names the GPU twice is not NCCL's check"
                + " (https://github.com/facebookresearch/msn/issues/24)",
            """
            # Duplicate GPU error
            nvidia-smi shows 4 different GPUs, and the issue persists after reboot.
            """),
        given(
                "NCCL before 2.4 (INFO without the word NCCL): rank 6 reaches rank 10 on device 2"
                    + " over P2P/IPC, device 2 of learngpu060 is rank 2's: two hosts taken for one,"
                    + " then a failure (https://github.com/NVIDIA/nccl/issues/187)",
                """
                    dist._dist_broadcast_coalesced(self.process_group, tensors, buffer_size, False)
                RuntimeError: NCCL error in: caffe2/torch/lib/c10d/ProcessGroupNCCL.cpp:260, unhandled cuda error
                learngpu060:3728579:3730441 [0] INFO Ring 00 :    0   1   2   3   7   4   5   6  10   8   9  11  15  12  13  14  18  16  19  17
                learngpu060:3728589:3730445 [2] INFO Ring 00 : 2[2] -> 3[3] via P2P/IPC
                learngpu060:3728591:3730447 [4] INFO Ring 00 : 4[4] -> 5[5] via P2P/IPC
                learngpu060:3728580:3730448 [1] INFO Ring 00 : 1[1] -> 2[2] via P2P/IPC
                learngpu060:3728590:3730442 [3] INFO Ring 00 : 3[3] -> 7[7] via P2P/IPC
                learngpu060:3728594:3730443 [7] INFO Ring 00 : 7[7] -> 4[4] via P2P/IPC
                learngpu060:3728593:3730444 [6] INFO Ring 00 : 6[6] -> 10[2] via P2P/IPC
                """)
            .expect(
                error(
                        "Two ranks on one GPU of host learngpu060: two machines taken for one?",
                        "rank 10 on device 2 of learngpu060 (device 2 there is rank 2's)",
                        "first dot",
                        "hostname of its own")
                    .at("a.log:4", "a.log:9")),
        given(
                "the same ring lines without the failure: a warning"
                    + " (https://github.com/NVIDIA/nccl/issues/187)",
                """
                learngpu060:3728589:3730445 [2] INFO Ring 00 : 2[2] -> 3[3] via P2P/IPC
                learngpu060:3728580:3730448 [1] INFO Ring 00 : 1[1] -> 2[2] via P2P/IPC
                learngpu060:3728592:3730446 [5] INFO Ring 00 : 5[5] -> 6[6] via P2P/IPC
                learngpu060:3728593:3730444 [6] INFO Ring 00 : 6[6] -> 10[2] via P2P/IPC
                """)
            .expect(warn("rank 10 on device 2 of learngpu060").at("a.log:1", "a.log:4")),
        given(
            "two machines both named user that NCCL told apart: busId 57000 is rank 3's on one and"
                + " rank 11's on the other, each in its own P2P group, NET between them"
                + " (https://github.com/NVIDIA/nccl-tests/issues/188)",
            """
            user:852751:852807 [1] NCCL INFO Channel 01/0 : 1[2a000] -> 8[27000] [send] via NET/Socket/0
            user:169127:169179 [2] NCCL INFO Channel 00/0 : 10[51000] -> 11[57000] via P2P/IPC/read
            user:169132:169177 [7] NCCL INFO Channel 00/0 : 15[ca000] -> 0[27000] [send] via NET/Socket/3
            user:169132:169177 [7] NCCL INFO Channel 01/0 : 15[ca000] -> 0[27000] [send] via NET/Socket/3
            user:852750:852802 [0] NCCL INFO Channel 00/0 : 0[27000] -> 7[ca000] via P2P/IPC/read
            user:852753:852808 [3] NCCL INFO Connected all rings
            user:852750:852802 [0] NCCL INFO Channel 01/0 : 0[27000] -> 7[ca000] via P2P/IPC/read
            user:169127:169179 [2] NCCL INFO Channel 01/0 : 10[51000] -> 11[57000] via P2P/IPC/read
            user:852753:852808 [3] NCCL INFO Channel 00/0 : 3[57000] -> 4[9e000] via P2P/IPC/read
            user:852757:852804 [7] NCCL INFO Channel 00/0 : 7[ca000] -> 6[c7000] via P2P/IPC/read
            user:852755:852803 [5] NCCL INFO Channel 00/0 : 5[a4000] -> 6[c7000] via P2P/IPC/read
            user:852753:852808 [3] NCCL INFO Channel 01/0 : 3[57000] -> 4[9e000] via P2P/IPC/read
            user:852754:852809 [4] NCCL INFO Channel 00/0 : 4[9e000] -> 5[a4000] via P2P/IPC/read
            """),
        given(
            "host names redacted to one, every rank's own lines present: each peer is where NCCL"
                + " said (https://github.com/NVIDIA/nccl/issues/952)",
            """
            <cluster_name>:919:1150 [0] NCCL INFO Channel 01/0 : 8[0] -> 15[7] via P2P/IPC/read
            <cluster_name>:926:1151 [7] NCCL INFO Channel 03/0 : 15[7] -> 6[6] [send] via NET/Socket/3
            <cluster_name>:921:1146 [2] NCCL INFO Channel 00/0 : 10[2] -> 9[1] via P2P/IPC/read
            <cluster_name>:923:1147 [4] NCCL INFO Channel 00/0 : 12[4] -> 11[3] via P2P/IPC/read
            <cluster_name>:926:1151 [7] NCCL INFO Channel 00/0 : 15[7] -> 14[6] via P2P/IPC/read
            <cluster_name>:924:1152 [5] NCCL INFO Channel 00/0 : 13[5] -> 12[4] via P2P/IPC/read
            """),
        given(
                "mpirun put ranks 0 and 1 on two hosts, NCCL 2.0 joined them over P2P/IPC on one"
                    + " host name (https://github.com/horovod/horovod/issues/110)",
                """
                mpirun -np 2 \\
                    -H 192.168.2.249:1,192.168.2.243:1 \\
                    -bind-to none -map-by slot \\
                    -x NCCL_DEBUG=INFO -x LD_LIBRARY_PATH \\
                    /home/dl2017/Desktop/dp/bin/python3 keras_mnist_advanced.py
                mtk:2521:2528 [0] INFO 0 -> 1 via P2P/IPC
                mtk:2521:2528 [0] INFO 0 -> 1 via P2P/IPC
                """)
            .expect(
                warn(
                        "Ranks mpirun placed on two hosts joined over P2P/IPC: two machines taken"
                            + " for one?",
                        "rank 0 on 192.168.2.249 and rank 1 on 192.168.2.243",
                        "host name mtk",
                        "hostname of its own")
                    .at("a.log:1", "a.log:6")),
        given(
            "the same with both slots on one host: P2P is right there",
            """
            mpirun -np 2 -H 192.168.2.249:2 -bind-to none -map-by slot python3 train.py
            mtk:2521:2528 [0] INFO 0 -> 1 via P2P/IPC
            """),
        given(
            "the hosts by node, ranks 0 and 2 on one host joined over P2P",
            """
            mpirun -np 4 -H a:2,b:2 --map-by node python3 train.py
            a:2521:2528 [0] INFO 0 -> 2 via P2P/IPC
            """),
        given(
                "NCCL 2.1 on two servers both named node1: eth1 at .176 and .175, ranks 2 and 1"
                    + " joined over P2P/IPC (https://github.com/horovod/horovod/issues/148)",
                """
                node1:22671:22795 [1] transport/p2p.cu:431 WARN failed to open CUDA IPC handle : 30 unknown error
                node1:18225:18239 [0] INFO NET : Using interface eth1:100.102.32.176<0>
                node1:22671:22795 [1] INFO NET : Using interface eth1:100.102.32.175<0>
                node1:22671:22795 [1] INFO 1 -> 0 via P2P/IPC
                node1:18225:18239 [0] INFO 2 -> 1 via P2P/IPC
                """)
            .expect(
                error(
                        "Two machines named node1 joined over P2P or SHM: NCCL took them for one",
                        "rank 2 at 100.102.32.176, rank 1 at 100.102.32.175",
                        "hostname of its own")
                    .at("a.log:2", "a.log:3", "a.log:5")),
        given(
            "the same lines without the peer's address: nothing tells the machines apart"
                + " (https://github.com/horovod/horovod/issues/148)",
            """
            node1:18226:18240 [1] INFO NET : Using interface eth1:100.102.32.176<0>
            node1:18225:18239 [0] INFO NET : Using interface eth1:100.102.32.176<0>
            node1:22671:22795 [1] INFO 1 -> 0 via P2P/IPC
            node1:18225:18239 [0] INFO 2 -> 1 via P2P/IPC
            """),
        given(
            "two processes claiming one rank is duplicate-rank's (NCCL's bootstrap.cc format)",
            excerpt("duplicate-rank-source-format.log")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new DuplicateGpu(), "duplicate-gpu", c);
  }
}
