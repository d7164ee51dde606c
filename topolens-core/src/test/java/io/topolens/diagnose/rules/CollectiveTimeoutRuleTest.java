package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.excerpt;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CollectiveTimeoutRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "PyTorch 1.8-1.9's watchdog line, which numbers no calls (ProcessGroupNCCL.cpp's"
                    + " format, values filled in)",
                """
                RuntimeError: [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800386 milliseconds before timing out.
                """)
            .expect(
                error(
                        "A collective timed out on rank(s) 0 (PyTorch 1.8-1.9, which numbers no"
                            + " calls)",
                        "SeqNum came in 1.10")
                    .at("a.log:1")),
        given(
                "PyTorch 1.8-1.9's line with a timeout below every PyTorch default: the job set it"
                    + " (ProcessGroupNCCL.cpp's format, a 60 s timeout filled in)",
                """
                RuntimeError: [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(OpType=ALLREDUCE, Timeout(ms)=60000) ran for 61352 milliseconds before timing out.
                """)
            .expect(
                error(
                        "A collective timed out on rank(s) 1 at the job's own short timeout of"
                            + " 60.0 s",
                        "below every default PyTorch gives NCCL process groups",
                        "init_process_group(..., timeout=timedelta(...))")
                    .at("a.log:1")),
        given(
                "a timeout of 1 ms the job set to prove its knob, shown in ms, not as 0.00 s"
                    + " (https://github.com/instructlab/training/pull/520; heldout set19 b08)",
                """
                  what():  [PG ID 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception: [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1) ran for 90 milliseconds before timing out.
                """)
            .expect(
                error(
                        "Collective call #1 (ALLREDUCE, the first) hit the job's own short timeout"
                            + " of 1 ms",
                        "The timeout is 1 ms, below every default",
                        "Find where the job sets the timeout of 1 ms")
                    .at("a.log:1")),
        given(
                "the first collective with a 120 s timeout the job set, on a communicator of 8"
                    + " ranks of which rank 1 reports (two nodes, aws-ofi-nccl with"
                    + " NCCL_NET_GDR_LEVEL=PHB: the data path hung;"
                    + " https://github.com/argonne-lcf/alcf-nccl-tests, pytests/README.md)",
                """
                x3200c0s19b1n0:191643:191866 [2] NCCL INFO comm 0x5590ec4762b0 rank 2 nranks 8 cudaDev 2 nvmlDev 2 busId 85000 commId 0xfa38415269cf0cf7 - Init COMPLETE
                terminate called after throwing an instance of 'c10::DistBackendError'
                  what():  [PG 0 Rank 1] Process group watchdog thread terminated with exception: [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=120000) ran for 120092 milliseconds before timing out.
                """)
            .expect(
                error(
                        "Collective call #1 (ALLREDUCE, the first) hit the job's own short timeout"
                            + " of 120.0 s",
                        "Call #1 is this process group's first collective",
                        "besides a rank that never arrived",
                        "NCCL_P2P_DISABLE=1, then with NCCL_IB_DISABLE=1")
                    .at("a.log:3")),
        given(
                "PyTorch 1.8's blocking wait (WorkNCCL::timedOut's format, values filled in)",
                """
                RuntimeError: Caught collective operation timeout: WorkNCCL(OpType=BROADCAST, TensorShape=[1], Timeout(ms)=1800000) ran for 1800190 milliseconds before timing out.
                """)
            .expect(
                error("A collective timed out (PyTorch 1.8-1.9, which numbers no calls)")
                    .at("a.log:1")),
        given(
                "ranks 0 and 4 time out in call 1580 (PyTorch 2.x)",
                excerpt("watchdog-same-call-llamafactory-7396.log"))
            .expect(
                error(
                        "Collective call #1580 (ALLREDUCE) timed out waiting for ranks that never reached it",
                        "466119168 elements in",
                        "timeout 600.0 s",
                        "Rank(s) 0, 4 reached it and waited",
                        "TORCH_NCCL_DUMP_ON_TIMEOUT=1")
                    .lacks("out of step", "reported no timeout")
                    .at("a.log:1", "a.log:2")),
        given(
                "rank 7 in BROADCAST, rank 3 in ALLREDUCE at the same call: out of step",
                excerpt("watchdog-different-ops-nccl-1409.log"))
            .expect(
                error(
                        "Ranks ran different collectives at call #80078 (BROADCAST / ALLREDUCE) and timed out",
                        "BROADCAST on rank(s) 7; ALLREDUCE on rank(s) 3",
                        "out of step")
                    .at("a.log:1", "a.log:3")),
        given(
                "rank 4 in ALLREDUCE, rank 1 in GATHER far apart: the ranks diverged (vLLM under"
                    + " Ray, https://github.com/vllm-project/vllm/issues/2770)",
                """
                (RayWorkerVllm pid=5085) [E ProcessGroupNCCL.cpp:475] [Rank 4] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=20518, OpType=ALLREDUCE, NumelIn=106496, NumelOut=106496, Timeout(ms)=1800000) ran for 1800270 milliseconds before timing out.
                (RayWorkerVllm pid=4775) [E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=369526, OpType=GATHER, NumelIn=4000, NumelOut=0, Timeout(ms)=1800000) ran for 1800252 milliseconds before timing out.
                """)
            .expect(
                error(
                        "Ranks timed out in different collectives: rank 1 in #369526 GATHER, rank 4"
                            + " in #20518 ALLREDUCE",
                        "They diverged",
                        "CUDA graphs",
                        "TORCH_NCCL_DESYNC_DEBUG=1",
                        "enforce_eager=True")
                    .lacks("reported no timeout")
                    .at("a.log:1", "a.log:2")),
        given(
                "the same operation at far numbers on two ranks may be two process groups' counts"
                    + " (https://github.com/pytorch/pytorch/issues/118369)",
                """
                [E ProcessGroupNCCL.cpp:458] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=96120, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 25624887 milliseconds before timing out.
                [E ProcessGroupNCCL.cpp:458] [Rank 7] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=64088, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 25625251 milliseconds before timing out.
                """)
            .expect(
                error("Collective call #64088 (ALLREDUCE) timed out", "timed out at other calls")
                    .lacks("diverged", "enforce_eager")
                    .at("a.log:2", "a.log:1")),
        given("PyTorch 1.x form without element counts", excerpt("watchdog-old-format-ofa-271.log"))
            .expect(
                error(
                        "Collective call #469508 (ALLREDUCE)",
                        "timeout 1800.0 s",
                        "Rank(s) 1, 2, 3, 6, 7 reached it")
                    .lacks("elements in")
                    .at("a.log:1", "a.log:2", "a.log:3", "a.log:4", "a.log:5")),
        given(
                "TORCH_NCCL_BLOCKING_WAIT's form alone: the caller timed out in blocking wait"
                    + " (https://github.com/huggingface/diffusers/issues/12422)",
                """
                [rank7]:[E1002 18:16:40.663182067 ProcessGroupNCCL.cpp:756] [Rank 7] Work WorkNCCL(SeqNum=2521, OpType=ALLREDUCE, NumelIn=160672064, NumelOut=160672064, Timeout(ms)=600000) timed out in blocking wait.
                """)
            .expect(
                error("Collective call #2521 (ALLREDUCE) timed out", "Rank(s) 7").at("a.log:1")),
        given(
            "the watchdog's summary lines alone name no call",
            """
                [80748] [rank0]:[E321 02:07:08.465150152 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 0] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579.
                """),
        given(
                "dump signals alone: rank 1 timed out, rank 0 was told (torch 2.6,"
                    + " https://github.com/vllm-project/vllm-omni/issues/2928)",
                """
                [rank1]:[E418 01:32:50.907313453 ProcessGroupNCCL.cpp:1890] [PG ID 0 PG GUID 0(default_pg) Rank 1] Received a dump signal due to a collective timeout from this local rank and we will try our best to dump the debug info. Last enqueued NCCL work: 233659, last completed NCCL work: 233659.This is most likely caused by incorrect usages of collectives, e.g., wrong sizes used across ranks, the order of collectives is not same for all ranks or the scheduled collective, for some reason, didn't run. Additionally, this can be caused by GIL deadlock or other reasons such as network errors or bugs in the communications library (e.g. NCCL), etc.
                [rank0]:[E418 01:32:50.907342463 ProcessGroupNCCL.cpp:1890] [PG ID 0 PG GUID 0(default_pg) Rank 0] Received a dump signal due to a collective timeout from  rank 1 and we will try our best to dump the debug info. Last enqueued NCCL work: 233659, last completed NCCL work: 233659.This is most likely caused by incorrect usages of collectives, e.g., wrong sizes used across ranks, the order of collectives is not same for all ranks or the scheduled collective, for some reason, didn't run. Additionally, this can be caused by GIL deadlock or other reasons such as network errors or bugs in the communications library (e.g. NCCL), etc.
                """)
            .expect(
                error(
                        "A collective timed out on rank(s) 1",
                        "Rank(s) 1 timed out first and sent the dump signal that rank(s) 0 received",
                        "rank 1 last enqueued #233659, last completed #233659; rank 0 last")
                    .at("a.log:1", "a.log:2")),
        given(
                "a dump signal from rank 6 beside rank 7's own timeout (torch 2.6,"
                    + " https://github.com/OpenRLHF/OpenRLHF/issues/1126)",
                """
                [rank2]:[E901 05:20:03.118859045 ProcessGroupNCCL.cpp:1746] [PG ID 0 PG GUID 0(default_pg) Rank 2] Received a dump signal due to a collective timeout from  rank 6 and we will try our best to dump the debug info. Last enqueued NCCL work: 460631, last completed NCCL work: 460630.This is most likely caused by incorrect usages of collectives, e.g., wrong sizes used across ranks, the order of collectives is not same for all ranks or the scheduled collective, for some reason, didn't run. Additionally, this can be caused by GIL deadlock or other reasons such as network errors or bugs in the communications library (e.g. NCCL), etc.
                [rank2]:[E901 05:20:03.118963441 ProcessGroupNCCL.cpp:1536] [PG ID 0 PG GUID 0(default_pg) Rank 2] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1
                [rank7]:[E901 05:20:03.123992144 ProcessGroupNCCL.cpp:632] [Rank 7] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=460631, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600020 milliseconds before timing out.
                """)
            .expect(
                error(
                        "Collective call #460631 (ALLREDUCE) timed out",
                        "Rank(s) 7 reached it and waited",
                        "Rank(s) 6 timed out first and sent the dump signal that rank(s) 2 received",
                        "rank 2 last enqueued #460631, last completed #460630")
                    .lacks("reported no timeout")
                    .at("a.log:3", "a.log:1")),
        given(
                "Timeout at NCCL work and the consequence line (torch 2.5,"
                    + " https://github.com/hiyouga/LlamaFactory/issues/6269)",
                """
                [rank0]:[E1206 18:44:16.994932383 ProcessGroupNCCL.cpp:1709] [PG 1 Rank 0] Timeout at NCCL work: 7753, last enqueued NCCL work: 7755, last completed NCCL work: 7752.
                [rank0]:[E1206 18:44:16.994957078 ProcessGroupNCCL.cpp:621] [Rank 0] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.
                [rank0]:[E1206 18:44:16.994964417 ProcessGroupNCCL.cpp:627] [Rank 0] To avoid data inconsistency, we are taking the entire process down.
                """)
            .expect(
                error(
                        "Collective call #7753 timed out waiting for ranks that never reached it",
                        "rank 0 timed out at call #7753, last enqueued #7755, last completed #7752",
                        "a consequence of this timeout, not another failure")
                    .at("a.log:1", "a.log:2")),
        given(
            "the consequence line alone says neither that a call timed out nor which"
                + " (https://github.com/hiyouga/LlamaFactory/issues/6269)",
            """
                [rank2]:[E1206 18:44:16.994981286 ProcessGroupNCCL.cpp:621] [Rank 2] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.
                """),
        given(
                "the watchdog's timeout seen only through checkTimeout's stack frames (torch 2.4,"
                    + " https://github.com/jpata/particleflow/issues/390)",
                """
                frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x1554e8b12f86 in /mnt/home/ewulff/miniforge3/envs/mlpf/lib/python3.11/site-packages/torch/lib/libc10.so)
                frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x1d2 (0x1554e9e0f8f2 in /mnt/home/ewulff/miniforge3/envs/mlpf/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so)
                frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0x233 (0x1554e9e16333 in /mnt/home/ewulff/miniforge3/envs/mlpf/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so)
                frame #3: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x10c (0x1554e9e1871c in /mnt/home/ewulff/miniforge3/envs/mlpf/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so)
                Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1521 (most recent call first):
                """)
            .expect(
                error(
                        "A collective timed out (PyTorch's watchdog stack trace; which call is not"
                            + " shown)",
                        "ProcessGroupNCCL::WorkNCCL::checkTimeout",
                        "which collective and which ranks are not known")
                    .lacks("call #")
                    .at("a.log:2")),
        given(
                "the timeout line wrapped mid-word, its trace raised from checkTimeout (torch 2.6,"
                    + " https://github.com/huggingface/open-r1/issues/620)",
                """
                  what():  [PG ID 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception: [Rank 3] Watchdog caught colle
                ctive operation timeout: WorkNCCL(SeqNum=4, OpType=BROADCAST, NumelIn=112, NumelOut=112, Timeout(ms)=1800000) ran for 1800011 millisecond
                s before timing out.
                Exception raised from checkTimeout at /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:632 (most recent call first):
                """)
            .expect(
                error(
                        "A collective timed out (PyTorch's watchdog stack trace; which call is not"
                            + " shown)")
                    .at("a.log:4")),
        given(
                "the timeout line cut before its WorkNCCL fields, which the reporter put on the"
                    + " next lines (https://github.com/lightseekorg/TorchSpec/issues/126)",
                """
                [Rank N] Watchdog caught collective operation timeout:
                  WorkNCCL(SeqNum=…, OpType=_ALLGATHER_BASE, NumelIn=176556032, NumelOut=706224128,
                           Timeout(ms)=600000) ran for 600000+ ms before timing out.
                """)
            .expect(
                error(
                        "A collective timed out (PyTorch's watchdog line, cut before its WorkNCCL"
                            + " fields)",
                        "which call, operation and ranks timed out are not read")
                    .lacks("call #", "stack trace")
                    .at("a.log:1")),
        given(
            "the watchdog's frames without checkTimeout: a CUDA error it caught in isCompleted,"
                + " not a timeout (https://github.com/pytorch/pytorch/issues/126544)",
            """
            frame #3: c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x56 (0x7fc91a84ae36 in /tmp/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)
            frame #4: c10d::ProcessGroupNCCL::WorkNCCL::isCompleted() + 0x58 (0x7fc91a84ef38 in /tmp/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)
            frame #5: c10d::ProcessGroupNCCL::watchdogHandler() + 0x77c (0x7fc91a8545ac in /tmp/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)
            frame #6: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x10c (0x7fc91a85531c in /tmp/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)
            """),
        given(
            "a healthy job",
            rankOfTwo(0, "node-a", 1, "P2P/CUMEM/read"),
            rankOfTwo(1, "node-a", 1, "P2P/CUMEM/read")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new CollectiveTimeoutRule(), "collective-timeout", c);
  }

  /** With NCCL's lines at hand the size of the group is known: the silent ranks are named. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("silentCases")
  void namesSilentRanks(Case c) {
    Logs.check(new CollectiveTimeoutRule(), "collective-timeout", c);
  }

  static Stream<Case> silentCases() {
    return Stream.of(
        given(
                "rank 1 of 2 never reached call 5",
                rankOfTwo(0, "node-a", 1, "P2P/CUMEM/read")
                    + "[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught"
                    + " collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1,"
                    + " NumelOut=1, Timeout(ms)=600000) ran for 600013 milliseconds before timing out.\n")
            .expect(
                error("Rank(s) 1 of 2 reported no timeout: they did not reach call #5")
                    .at("a.log:8")));
  }
}
