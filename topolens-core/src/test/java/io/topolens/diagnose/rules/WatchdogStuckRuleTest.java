package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PyTorch's heartbeat monitor on a watchdog thread blocked in a CUDA/NCCL call; a collective
 * timeout and the dump that follows it are not this.
 */
class WatchdogStuckRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "SGLang's scheduler watchdog (srt/managers/scheduler.py's format, as SGLang's"
                    + " test_watchdog_timeout.py expects it)",
                """
                [2025-02-21 10:12:03 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)
                """)
            .expect(
                error("SGLang's scheduler made no progress", "--watchdog-timeout").at("a.log:1")),
        given(
                "earlier SGLang's scheduler.py watchdog, which then kills the parent process"
                    + " (logger.error(f\"Watchdog timeout ({self.watchdog_timeout=})\"))",
                """
                [2024-11-02 08:41:17 TP3] Watchdog timeout (self.watchdog_timeout=300)
                """)
            .expect(error("SGLang's scheduler made no progress").at("a.log:1")),
        given(
            "the soft watchdog only dumps and goes on",
            """
            [2025-02-21 10:12:03 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=True)
            """),
        given(
                "torch 2.4's monitor terminating the process, no stuck line pasted"
                    + " (https://github.com/NVIDIA/Fuser/issues/3055)",
                """
                [F930 15:23:07.686401350 ProcessGroupNCCL.cpp:1309] [PG ID 6 PG GUID  Rank 0] [PG ID 6 PG GUID  Rank 0] Terminating the process after attempting to dump debug info, due to ProcessGroupNCCL watchdog hang.
                """)
            .expect(error("PyTorch's NCCL watchdog thread hung").at("a.log:1")),
        given(
                "the monitor's line, its dump and its fatal line (torch 2.3,"
                    + " https://github.com/hiyouga/LlamaFactory/issues/6953)",
                """
                [rank144]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 144] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=1
                [rank144]:[E ProcessGroupNCCL.cpp:1153] [PG 0 Rank 144] ProcessGroupNCCL preparing to dump debug info.
                [rank144]:[F ProcessGroupNCCL.cpp:1169] [PG 0 Rank 144] [PG 0 Rank 144] ProcessGroupNCCL's watchdog got stuck for 600 seconds without making progress in monitoring enqueued collectives. This typically indicates a NCCL/CUDA API hang blocking the watchdog, and could be triggered by another thread holding the GIL inside a CUDA api, or other deadlock-prone behaviors.If you suspect the watchdog is not actually stuck and a longer timeout would help, you can either increase the timeout (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC) to a larger value or disable the heartbeat monitor (TORCH_NCCL_ENABLE_MONITORING=0).If either of aforementioned helps, feel free to file an issue to PyTorch about the short timeout or false positive abort; otherwise, please attempt to debug the hang. workMetaList_.size() = 1
                """)
            .expect(
                error(
                        "PyTorch's NCCL watchdog thread hung in a CUDA/NCCL call",
                        "2 line(s) of 2 distinct form(s)",
                        "blocked inside a CUDA or NCCL call",
                        "py-spy dump --native")
                    .at("a.log:1", "a.log:3")),
        given(
                "the stuck line of torch 2.5 and later, beside another rank's timeout"
                    + " (https://github.com/snowflakedb/ArcticTraining/issues/219)",
                """
                [rank7]:[E626 05:14:36.393067540 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 7] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives. This typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog, and could be triggered by another thread holding the GIL inside a CUDA api (for example, CudaEventDestroy), or other deadlock-prone behaviors.If you suspect the watchdog is not actually stuck and a longer timeout would help, you can either increase the timeout (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC) to a larger value or disable the heartbeat monitor (TORCH_NCCL_ENABLE_MONITORING=0).If either of aforementioned helps, feel free to file an issue to PyTorch about the short timeout or false positive abort; otherwise, please attempt to debug the hang.
                [rank2]:[E626 05:06:30.929096625 ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=120049, OpType=_ALLGATHER_BASE, NumelIn=16384000, NumelOut=131072000, Timeout(ms)=1800000) ran for 1800065 milliseconds before timing out.
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
            "a collective timeout and its dump are not a stuck watchdog"
                + " (https://github.com/OpenRLHF/OpenRLHF/issues/1126)",
            """
                [rank2]:[E901 05:20:03.118963441 ProcessGroupNCCL.cpp:1536] [PG ID 0 PG GUID 0(default_pg) Rank 2] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1
                [rank7]:[E901 05:20:03.123992144 ProcessGroupNCCL.cpp:632] [Rank 7] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=460631, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600020 milliseconds before timing out.
                """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new WatchdogStuck(), "watchdog-stuck", c);
  }
}
