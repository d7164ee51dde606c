package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** argcheck.cc's refusals, read from NCCL's WARN line or from PyTorch's last error. */
class InvalidArgumentRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "a capture that allocated on another GPU (the title of"
                    + " https://github.com/pytorch/pytorch/issues/87794, PyTorch's CUDA error)",
                """
                RuntimeError: CUDA error: operation not permitted when stream is capturing
                """)
            .expect(
                error(
                        "graph capture does not allow",
                        "cudaErrorStreamCaptureUnsupported",
                        "Warm up")
                    .lacks("argument checks refused")
                    .at("a.log:1")),
        given(
                "NCCL's CUDACHECK on the same error: 2.28.3's dev_runtime.cc:591, the stream"
                    + " synchronisation of symmetric-memory registration that vLLM's capture reached"
                    + " (https://github.com/vllm-project/vllm/issues/28901, located in"
                    + " https://github.com/vllm-project/vllm/pull/29207); 2.28.3's CUDACHECK format",
                """
                node-a:4021:4021 [0] dev_runtime.cc:591 NCCL WARN Cuda failure 'operation not permitted when stream is capturing'
                """)
            .expect(error("--enforce-eager").at("a.log:1")),
        given(
            "CUDA 901, a capture already invalidated by an earlier error, is that error's"
                + " (vLLM's capture_end, https://github.com/SystemPanic/vllm-windows/issues/5)",
            """
            ERROR 03-25 12:23:00 [engine.py:448] RuntimeError: CUDA error: operation failed due to a previous error during capture
            """),
        given(
                "symmetric memory asked of a communicator without it (NCCL 2.28.3"
                    + " dev_runtime.cc:877's format, nccl/messages)",
                """
                node-a:4021:4090 [0] dev_runtime.cc:877 NCCL WARN Communicator does not support symmetric memory!
                """)
            .expect(error("The program passed NCCL an invalid argument").at("a.log:1")),
        given(
                "a rank outside the communicator: rank 4 of 4 (init.cc since 2.4)",
                """
                worker-1:25:25 [0] init.cc:981 NCCL WARN Invalid rank requested : 4/4
                """)
            .expect(
                error(
                        "The program passed NCCL an invalid argument",
                        "asked to be rank R of a communicator of N ranks",
                        "WORLD_SIZE")
                    .at("a.log:1")),
        given(
                "PyTorch's last error, a NULL receive buffer"
                    + " (https://github.com/NVIDIA/nccl/issues/1558, its title)",
                """
                ncclInvalidArgument: Invalid value for an argument.
                Last error:
                Broadcast : recvbuff (nil) is not a valid pointer
                """)
            .expect(
                error("The program passed NCCL an invalid argument", "NCCL_CHECK_POINTERS=1")
                    .lacks("had not initialised", "pytorch/pytorch#29014")
                    .at("a.log:3")),
        given(
                "a root check that prints a communicator of 0 ranks: send and receive from 16 threads"
                    + " on 16 communicators, NCCL 2.14.3 (https://github.com/NVIDIA/nccl/issues/963)",
                """
                NCCL version 2.14.3+cuda11.7
                Finish initialization.

                9306dc444753:248281:248306 [1] misc/argcheck.cc:39 NCCL WARN Recv : invalid root 0 (root should be in the 0..0 range)
                9306dc444753:248281:248306 [1] NCCL INFO enqueue.cc:1450 -> 4
                9306dc444753:248281:248306 [1] NCCL INFO group.cc:106 -> 4

                9306dc444753:248281:248319 [2] misc/argcheck.cc:39 NCCL WARN Send : invalid root 3 (root should be in the 0..0 range)
                """)
            .expect(
                error(
                        "A collective reached a communicator NCCL had not initialised",
                        "init had not run yet",
                        "only after its init returned")
                    .at("a.log:4", "a.log:8")),
        given(
                "a root check that prints a rank count of -1: collectives on communicators NCCL had"
                    + " already freed, after ncclCommInitRank failed"
                    + " (https://github.com/horovod/horovod/issues/3625)",
                """
                [1,0]<stdout>:biomind:6502:6588 [0] misc/argcheck.cc:39 NCCL WARN AllReduce : invalid root 0 (root should be in the 0..-1 range)
                [1,0]<stdout>:biomind:6502:6588 [0] NCCL INFO enqueue.cc:1452 -> 4
                [1,0]<stdout>:biomind:6502:6588 [0] NCCL INFO enqueue.cc:1465 -> 4
                """)
            .expect(
                error(
                        "A collective reached a communicator NCCL had already torn down",
                        "commPoison",
                        "The root is not the fault",
                        "Find the first error of this rank")
                    .lacks("a root outside 0..nranks-1", "NCCL_CHECK_POINTERS=1")
                    .at("a.log:1")),
        given(
                "calls without a communicator: argcheck.cc's PtrCheck(comm, opname, \"comm\") format"
                    + " (`%s : %s argument is NULL`, NCCL 2.x misc/argcheck.cc)",
                """
                node-a:4021:4021 [0] misc/argcheck.cc:30 NCCL WARN AllReduce : comm argument is NULL
                node-a:4021:4021 [0] NCCL INFO enqueue.cc:1442 -> 4
                """)
            .expect(
                error(
                        "NCCL was called without a communicator (comm argument is NULL)",
                        "no communicator existed in this process",
                        "init_process_group")
                    .lacks("a root outside 0..nranks-1", "NCCL_CHECK_POINTERS=1")
                    .at("a.log:1")),
        given(
            "CUDA's own invalid argument is not NCCL's check (nccl issue 1283)",
            """
            (train_rft pid=2657296) 2024-05-11 14:10:52.227 n176-080-198:2657296:2658232 [0] include/alloc.h:102 NCCL WARN Cuda failure 1 'invalid argument'
            """),
        given(
                "a usage check: ncclGroupEnd without ncclGroupStart (group.cc, 2.28.3; nccl/messages)",
                """
                node-a:4021:4090 [0] group.cc:622 NCCL WARN ncclGroupEnd: not in a group call.
                """)
            .expect(error("ncclGroupEnd without ncclGroupStart").at("a.log:1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new InvalidArgument(), "invalid-argument", c);
  }
}
