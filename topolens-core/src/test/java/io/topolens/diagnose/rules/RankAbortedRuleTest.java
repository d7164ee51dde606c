package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A rank ended by SIGABRT: the watchdog's abort where the log shows the timeout, a C++ exception
 * where terminate names it, else a rank aborted whose own log holds the cause; other signals and
 * exit codes are not this.
 */
class RankAbortedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "torch.multiprocessing's spawn"
                    + " (https://github.com/rshaojimmy/MultiModal-DeepFake/issues/24)",
                """
                torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGABRT
                """)
            .expect(error("A rank aborted (SIGABRT)").at("a.log:1")),
        given(
                "torchrun's agent line alone (https://github.com/hpcaitech/ColossalAI/issues/3556)",
                """
                ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 0 (pid: 514946) of binary: /usr/bin/python
                """)
            .expect(
                error("A rank aborted (SIGABRT)", "the rank's own lines before it say which")
                    .lacks("Here it was")
                    .at("a.log:1")),
        given(
                "ChildFailedError's summary of two ranks"
                    + " (https://github.com/huggingface/picotron_tutorial/issues/6)",
                """
                  exitcode  : -6 (pid: 3437)
                  error_file: <N/A>
                  traceback : Signal 6 (SIGABRT) received by PID 3437
                [7]:
                  time      : 2025-05-01_11:12:35
                  host      : 472a4389fceb
                  rank      : 7 (local_rank: 7)
                  exitcode  : -6 (pid: 3438)
                  error_file: <N/A>
                  traceback : Signal 6 (SIGABRT) received by PID 3438
                """)
            .expect(
                error("A rank aborted (SIGABRT)", "4 line(s) of 2 distinct form(s)")
                    .at("a.log:1", "a.log:3")),
        given(
                "the watchdog's timeout in the terminate line's what(), then the summary"
                    + " (https://github.com/arrival-ltd/catalyst-rl-tutorial/issues/15;"
                    + " the summary lines of https://github.com/open-mmlab/mmpretrain/issues/1837)",
                """
                terminate called after throwing an instance of 'c10::DistBackendError'
                  what():  [Rank 6] NCCL watchdog thread terminated with exception: [Rank 6] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=880, OpType=BROADCAST, NumelIn=131137536, NumelOut=131137536, Timeout(ms)=1800000) ran for 1800902 milliseconds before timing out.
                  exitcode  : -6 (pid: 104478)
                  error_file: <N/A>
                  traceback : Signal 6 (SIGABRT) received by PID 104478
                """)
            .expect(
                warn("A rank aborted (SIGABRT)", "Here it was PyTorch's watchdog")
                    .at("a.log:1", "a.log:3", "a.log:5", "a.log:2")),
        given(
                "a C++ exception nothing caught (https://github.com/hku-mars/GS-SDF/issues/1)",
                """
                terminate called after throwing an instance of 'c10::Error'
                Aborted (core dumped)
                """)
            .expect(
                error(
                        "A rank aborted (SIGABRT) on a C++ exception nothing caught (c10::Error)",
                        "`what():`")
                    .at("a.log:1")),
        given(
                "an exception thrown on an NCCL error is that error's consequence: a warning"
                    + " (https://github.com/pytorch/pytorch/issues/62316's error line; the terminate"
                    + " line of https://github.com/bubbliiiing/yolov4-pytorch/issues/187)",
                """
                RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:784, unhandled cuda error, NCCL version 2.7.8
                terminate called after throwing an instance of 'std::runtime_error'
                """)
            .expect(
                warn(
                        "A rank aborted (SIGABRT) on a C++ exception nothing caught"
                            + " (std::runtime_error)",
                        "The log shows a failure before it")
                    .at("a.log:2")),
        given(
            "SIGSEGV (-11) is a crash of its own, not an abort"
                + " (https://github.com/tusen-ai/Anchor3DLane/issues/8)",
            """
            ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -11) local_rank: 0 (pid: 1416) of binary: /workspace/miniconda3/envs/lane3d/bin/python
            """),
        given(
            "exit code -60 is no signal 6 (number read whole; invented pid)",
            """
            ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -60) local_rank: 0 (pid: 1416) of binary: /usr/bin/python
            """),
        given(
            "terminate named without the exception's quote is prose, not the runtime's line",
            """
            It says terminate called after throwing and then exits.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new RankAborted(), "rank-aborted", c);
  }
}
