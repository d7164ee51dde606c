package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** PyTorch's desync report and Horovod's stall inspector name the ranks that are behind. */
class LaggingRanksRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "Gloo's recv that timed out in a barrier (gloo transport/tcp/unbound_buffer.cc's"
                    + " format; torch 2.x's rank prefix)",
                """
                [rank3]:     work.wait()
                [rank3]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 1800000ms for recv operation to complete
                """)
            .expect(
                error(
                        "did not reach the collective the others waited in",
                        "peer's message that never came",
                        "timeout=")
                    .at("a.log:2")),
        given(
                "vLLM's engine waiting for a worker to read its broadcast"
                    + " (https://github.com/vllm-project/vllm/issues/27313): a warning",
                """
                (EngineCore_DP0 pid=77352) INFO 10-22 09:43:49 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation).
                """)
            .expect(warn("torch.compile or CUDA graph capture", "--enforce-eager").at("a.log:1")),
        given(
            "Gloo's connect timeout is the rendezvous', not a peer that missed a collective",
            """
            RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.0.0.12]:23456: Connection timed out
            """),
        given(
                "JAX's coordination service on a program's barrier"
                    + " (https://github.com/marin-community/levanter/issues/432)",
                """
                jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: multihost_broadcast_sync0. Timed out task names:
                /job:jax_worker/replica:0/task:3
                /job:jax_worker/replica:0/task:0
                """)
            .expect(error("sync_global_devices").at("a.log:1")),
        given(
                "XLA's clique rendezvous (https://github.com/jax-ml/jax/issues/22740)",
                """
                2024-07-29 17:14:59.920189: E external/xla/xla/service/rendezvous.cc:38] This thread has been waiting for `initialize clique for rank 6; clique=devices=[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]; stream=0; run_id=724296073` for 10 seconds and may be stuck. Expected 8 threads to join the rendezvous, but not all of them arrived on time.
                """)
            .expect(error("NCCL clique").at("a.log:1")),
        given(
                "SGLang's check after loading (https://github.com/sgl-project/sglang/issues/4503)",
                """
                ValueError: TP rank 1 could finish the model loading, but there are other ranks that didn't finish loading. It is likely due to unexpected failures (e.g., OOM) or a slow node.
                """)
            .expect(error("fast local disk").at("a.log:1")),
        given(
                "PyTorch's desync report, a rank inside the collective and ranks past it"
                    + " (TraceUtils.h analyzeLaggingRanks, torch 1.13-2.11)",
                """
                [rank0]:[E1125 10:00:00.000000000 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=41208, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.
                 - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:
                   - [47] joined but didn't finish collective #41207 (count from 1)
                     [0, 1, 2, 3] finished collective #41207, but didn't join collective #41208 (count from 1)
                """)
            .expect(
                error(
                        "Ranks 0, 1, 2, 3, 47 did not reach the collective the others waited in",
                        "py-spy dump")
                    .at("a.log:3", "a.log:4")),
        given(
                "ranks that never joined any collective (TraceUtils.h analyzeMissingRanks)",
                """
                 - To our best knowledge, ranks [5, 7] are the lagging ranks that caused this timeout. They never joined any collectives
                """)
            .expect(error("Ranks 5, 7 did not reach").at("a.log:1")),
        given(
                "Horovod's stall inspector with the ranks on its line"
                    + " (https://github.com/horovod/horovod/issues/534)",
                """
                WARNING: One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting for remainder of ranks for more than 60 seconds. This may indicate that different ranks are trying to submit different tensors or that only subset of ranks is submitting tensors, which will cause deadlock. Stalled ops: HorovodBroadcast_fully_connected_weights_0 [missing ranks: 0]
                """)
            .expect(error("Rank 0 did not reach").at("a.log:1")),
        given(
                "Horovod 0.20's stall inspector, ranks on the next lines"
                    + " (https://github.com/DEKHTIARJonathan/HVD_TF_Worker_Desync_BugReport)",
                """
                [2021-02-02 21:19:07.345988: W /tmp/pip-install-dxtho7yu/horovod_0bde588442554cf4b80c76441efc4e03/horovod/common/stall_inspector.cc:105] One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting for remainder of ranks for more than 10 seconds. This may indicate that different ranks are trying to submit different tensors or that only subset of ranks is submitting tensors, which will cause deadlock.\s
                Missing ranks:
                0: [cond_1/then/_10/cond_1/SGD/PartitionedCall/DistributedSGD_Allreduce/cond/then/_79/DistributedSGD_Allreduce/cond/HorovodAllreduce_grads_0]
                """)
            .expect(
                error("Some ranks did not reach the collective the others waited in")
                    .at("a.log:1")),
        given(
                "Horovod 0.16's stall list on a line of its own, under mpirun's prefix"
                    + " (https://github.com/horovod/horovod/issues/1012)",
                """
                [1,0]<stderr>:[2019-04-13 13:55:31.858119: W horovod/common/operations.cc:588] HorovodBroadcast_dense_kernel_Momentum_0 [missing ranks: 1]
                """)
            .expect(
                error("Rank 1 did not reach the collective the others waited in").at("a.log:1")),
        given(
                "monitored_barrier with wait_all_ranks on rank 0 (the title of"
                    + " https://github.com/NVIDIA/nccl/issues/849)",
                """
                RuntimeError: [Rank 0]: Ranks 4, 5, 6, 7 failed to pass monitoredBarrier in 2000000 ms
                """)
            .expect(
                error(
                        "Ranks 4, 5, 6, 7 did not reach the collective the others waited in",
                        "monitored_barrier")
                    .lacks("Rank 0,")
                    .at("a.log:1")),
        given(
            "rank 0's own barrier timeout names no other rank (PyTorch's test of it,"
                + " https://github.com/pytorch/pytorch/pull/55009)",
            """
            RuntimeError: Rank 0 timed out in monitoredBarrier
            """),
        given(
            "missing ranks in prose, not at the end of a stalled tensor's line (invented)",
            """
            The log said [missing ranks: 1] and then it hung again.
            """),
        given(
            "the report's header alone names no rank",
            """
             - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:
            """),
        given(
            "a watchdog timeout alone is collective-timeout's, not this",
            """
            [rank3]:[E1125 10:00:00.000000000 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1843, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new LaggingRanks(), "lagging-ranks", c);
  }
}
