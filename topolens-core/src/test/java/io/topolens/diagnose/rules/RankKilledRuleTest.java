package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A rank ended by SIGKILL as torchrun reports it; other exit codes are not this. */
class RankKilledRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "torchrun's failure line after SIGTERM to the others"
                    + " (https://github.com/hpcaitech/ColossalAI/issues/3514)",
                """
                WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 812916 closing signal SIGTERM
                ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 3 (pid: 812917) of binary: /data/chenhao/anaconda3/envs/ColossalAI-Chat/bin/python
                """)
            .expect(
                error("A rank was killed (SIGKILL, usually out of host memory)", "dmesg")
                    .at("a.log:2")),
        given(
                "ChildFailedError's summary, flattened by the reporter"
                    + " (https://github.com/ZhehengJiangLancaster/AMVUR/issues/2)",
                """
                rank2 (local rank: 2)exitcode: -9 (pid: 36071)error file: <N/A>
                traceback : signal 9 (SIGKILL) received by PID 36071
                """)
            .expect(error("2 line(s) of 2 distinct form(s)").at("a.log:1", "a.log:2")),
        given(
                "a container's memory limit, the kernel's two lines (format of Linux's"
                    + " mm/oom_kill.c, https://github.com/torvalds/linux/blob/master/mm/oom_kill.c;"
                    + " pid and name invented)",
                """
                [337533.314408] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),oom_memcg=/kubepods/pod1,task_memcg=/kubepods/pod1,task=python,pid=23793,uid=0
                [337533.314412] Memory cgroup out of memory: Killed process 23793 (python) total-vm:2623712kB, anon-rss:506500kB, file-rss:1268kB, shmem-rss:0kB
                """)
            .expect(
                error("2 line(s) of 2 distinct form(s)", "the container's or job's limit")
                    .at("a.log:1", "a.log:2")),
        given(
                "before Linux 5.0: Kill process ... or sacrifice child (same source)",
                """
                [ 8123.441] Out of memory: Kill process 4242 (python) score 951 or sacrifice child
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
            "PyTorch's CUDA out of memory is the GPU's, not the kernel's kill",
            """
            RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity; 14.56 GiB already allocated)
            """),
        given(
            "exit code 1 is the program's own error (https://github.com/aws/aws-ofi-nccl/issues/715)",
            """
              | 2024-11-28T07:42:16.534Z | E1128 07:42:15.588000 17676 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 17774) of binary: /opt/conda/bin/python3.11
            """),
        given(
            "SIGABRT (-6) is not a kill (https://github.com/mlcommons/training/issues/770)",
            """
            [2024-11-14 06:04:09,095] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -6) local_rank: 5 (pid: 21617) of binary: /opt/conda/bin/python
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new RankKilled(), "rank-killed", c);
  }
}
