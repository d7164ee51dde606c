package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A rank ended by SIGSEGV as launchers report it; SIGKILL and other exit codes are not this. */
class RankSegfaultRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "torch.multiprocessing's spawn (https://github.com/jishengpeng/ControlSpeech/issues/4)",
                """
                torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGSEGV
                """)
            .expect(error("A rank crashed with a segmentation fault (SIGSEGV)").at("a.log:1")),
        given(
                "torchrun's agent line (https://github.com/tusen-ai/Anchor3DLane/issues/8)",
                """
                2023-06-07 13:25:33,779 - mmseg - INFO - Checkpoints will be saved to projects/bev/Anchor3DLane/output/openlane/anchor3dlane by HardDiskBackend.
                ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -11) local_rank: 0 (pid: 1416) of binary: /workspace/miniconda3/envs/lane3d/bin/python
                """)
            .expect(
                error("A rank crashed with a segmentation fault (SIGSEGV)", "PYTHONFAULTHANDLER")
                    .at("a.log:2")),
        given(
                "torch 2.5's agent line and ChildFailedError's summary"
                    + " (https://github.com/FlagOpen/FlagEmbedding/issues/1549,"
                    + " https://github.com/NVIDIA/Megatron-LM/issues/1880)",
                """
                E1119 08:26:02.715000 28705 site-packages/torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: -11) local_rank: 0 (pid: 28773) of binary: /app/anaconda3/envs/py312/bin/python3.12
                  exitcode  : -11 (pid: 6421)
                  traceback : Signal 11 (SIGSEGV) received by PID 6421
                """)
            .expect(error("3 line(s) of 3 distinct form(s)").at("a.log:1", "a.log:2", "a.log:3")),
        given(
                "Python's subprocess under torch.distributed.launch"
                    + " (https://github.com/pytorch/pytorch/issues/61839)",
                """
                subprocess.CalledProcessError: Command '['/opt/tiger/conda/bin/python3', '-u', 'train_imagenet.py', '--local_rank=7']' died with <Signals.SIGSEGV: 11>.
                """)
            .expect(error("A rank crashed with a segmentation fault").at("a.log:1")),
        given(
                "DeepSpeed's launcher (https://github.com/deepspeedai/DeepSpeedExamples/issues/626)",
                """
                [2023-07-10 04:26:35,999] [ERROR] [launch.py:324:sigkill_handler] ['/global/D1/homes/sushant/sushanta/venv/bin/python3.10', '-u', 'trainCLM.py', '--local_rank=1', '--deepspeed', '/home/sushant/D1/sushanta/try/nepaligpt/clm/config/deepspeed_config.json'] exits with return code = -11
                """)
            .expect(error("A rank crashed with a segmentation fault").at("a.log:1")),
        given(
                "Open MPI's errmgr under nccl-tests"
                    + " (https://github.com/NVIDIA/nccl-tests/issues/218)",
                """
                --------------------------------------------------------------------------
                mpirun noticed that process rank 3 with PID 1167 on node 10.10.21.2 exited on signal 11 (Segmentation fault).
                --------------------------------------------------------------------------
                3 total processes killed (some possibly by mpirun during cleanup)
                """)
            .expect(error("A rank crashed with a segmentation fault").at("a.log:2")),
        given(
                "Open MPI 5's prterun (https://github.com/NVIDIA/nccl/issues/1419)",
                """
                prterun noticed that process rank 48 with PID 613162 on node gpu-node07 exited on signal 11 (Segmentation fault).
                """)
            .expect(error("A rank crashed with a segmentation fault").at("a.log:1")),
        given(
            "SIGKILL (-9) is a kill, not a crash"
                + " (https://github.com/meta-llama/llama/issues/856)",
            """
            [2023-10-13 17:40:02,544] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -9) local_rank: 0 (pid: 62498) of binary: /home/znr/miniconda3/envs/llama/bin/python
            """),
        given(
            "exit code -110 is no signal 11 (number after the sign read whole; invented pid)",
            """
            ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -110) local_rank: 0 (pid: 1416) of binary: /usr/bin/python
            """),
        given(
            "Open MPI's signal 9 is a kill (https://github.com/NVIDIA/nccl-tests/issues/218's form)",
            """
            mpirun noticed that process rank 3 with PID 1167 on node 10.10.21.2 exited on signal 9 (Killed).
            """),
        given(
            "an IDE's exit code 139 names no launcher's rank"
                + " (https://github.com/1adrianb/face-alignment/issues/70)",
            """
            Getting  Process finished with exit code 139 (interrupted by signal 11: SIGSEGV)
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new RankSegfault(), "rank-segfault", c);
  }
}
