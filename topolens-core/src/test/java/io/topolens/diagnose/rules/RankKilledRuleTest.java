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
                "Ray's memory monitor's summary (Ray's docs, ray-oom-prevention)",
                """
                (raylet) [2023-04-09 07:23:59,445 E 395 395] (raylet) node_manager.cc:3049: 10 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: e5d953ef03e55e26f13973ea1b5a0fd0ecc729cd820bc89e4aa50451, IP: 10.0.62.231) over the last time period. To see more information about the Workers killed on this node, use `ray logs raylet.out -ip 10.0.62.231`
                """)
            .expect(error("RAY_memory_usage_threshold").at("a.log:1")),
        given(
                "vLLM's worker monitor on a SIGKILL (multiproc_worker_utils.py's format)",
                """
                ERROR 03-31 15:45:01 multiproc_worker_utils.py:123] Worker VllmWorkerProcess pid 1867860 died, exit code: -9
                """)
            .expect(error("A rank was killed").at("a.log:1")),
        given(
            "vLLM's workers ended by the engine itself (SIGTERM) are not this"
                + " (https://github.com/vllm-project/vllm/issues/6145)",
            """
            ERROR 07-04 10:00:00 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 3283517 died, exit code: -15
            """),
        given(
                "torch.multiprocessing's spawn, the traceback's raise quoted above it"
                    + " (https://github.com/lyu-yx/ACUMEN/issues/4)",
                """
                    raise ProcessExitedException(
                torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGKILL
                """)
            .expect(error("A rank was killed (SIGKILL").at("a.log:2")),
        given(
                "Kubernetes: the container's status after the kernel's OOM killer (kubectl describe"
                    + " pod)",
                """
                    Last State:     Terminated
                      Reason:       OOMKilled
                      Exit Code:    137
                """)
            .expect(error("A rank was killed (SIGKILL", "OOMKilled").at("a.log:2")),
        given(
                "the kubelet's eviction under node memory pressure (eviction_manager.go's message"
                    + " as kubectl get events prints it)",
                """
                3m26s       Warning   Evicted   pod/trainer-worker-0   The node was low on resource: memory. Container pytorch was using 61290852Ki, which exceeds its request of 0.
                """)
            .expect(error("Guaranteed QoS").at("a.log:1")),
        given(
                "MPICH's / Intel MPI's hydra (ui/mpich/mpiexec.c), after a CUDA error in another"
                    + " process's output",
                """
                ===================================================================================
                =   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
                =   RANK 0 PID 5490 RUNNING AT gn59
                =   KILLED BY SIGNAL: 9 (Killed)
                ===================================================================================
                """)
            .expect(error("A rank was killed (SIGKILL").at("a.log:4")),
        given(
            "OOMKilled inside a word is not the status",
            """
            kube_pod_container_status_last_terminated_reason{reason="NotOOMKilledYet"} 0
            """),
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
            """),
        given(
                "DeepSpeed's launcher on a rank ended by SIGKILL"
                    + " (https://github.com/deepspeedai/DeepSpeed/issues/3232)",
                """
                [2023-04-14 13:11:27,879] [INFO] [launch.py:428:sigkill_handler] Killing subprocess 13266
                [2023-04-14 13:11:27,885] [ERROR] [launch.py:434:sigkill_handler] ['/usr/bin/python3', '-u', 'main.py', '--local_rank=0', '--data_path', 'Dahoas/rm-static', '--zero_stage', '2', '--deepspeed', '--output_dir', '/content/DeepSpeedExamples/applications/DeepSpeed-Chat/output/actor-models/125m'] exits with return code = -9
                """)
            .expect(error("A rank was killed").at("a.log:2")),
        given(
            "DeepSpeed's launcher on SIGSEGV (-11) is not a kill"
                + " (https://github.com/deepspeedai/DeepSpeedExamples/issues/626)",
            """
            [2023-07-10 04:26:35,999] [ERROR] [launch.py:324:sigkill_handler] ['/global/D1/homes/sushant/sushanta/venv/bin/python3.10', '-u', 'trainCLM.py', '--local_rank=1', '--deepspeed', '/home/sushant/D1/sushanta/try/nepaligpt/clm/config/deepspeed_config.json'] exits with return code = -11
            """),
        given(
                "Python's subprocess under a launcher (accelerate, kohya's scripts)"
                    + " (https://github.com/bmaltais/kohya_ss/issues/1065)",
                """
                subprocess.CalledProcessError: Command '['/usr/bin/python3', 'train_network.py', '--config_file=config.toml']' died with <Signals.SIGKILL: 9>.
                """)
            .expect(error("A rank was killed").at("a.log:1")),
        given(
            "a non-zero exit status is the program's own error",
            """
            subprocess.CalledProcessError: Command '['/usr/bin/python3', 'train.py']' returned non-zero exit status 1.
            """),
        given(
                "Ray's memory monitor killed a worker"
                    + " (https://github.com/ray-project/ray/issues/28776)",
                """
                ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.

                Memory on the node (IP: 172.31.69.247, ID: 5bf8d24f68a4b2f966b34cb94a41d1a312f406dc9081063ea7dd661b) where the task was running was 54.86GB / 57.60GB (0.952354), which exceeds the memory usage threshold of 0.95.
                """)
            .expect(error("A rank was killed").at("a.log:1")),
        given(
                "srun's task line for Slurm's out-of-memory state"
                    + " (https://github.com/FoNDUE-HTR/Documentation/issues/5)",
                """
                srun: error: gpu001: task 0: Out Of Memory
                """)
            .expect(error("A rank was killed").at("a.log:1")),
        given(
            "srun's exit code and SIGTERM lines are consequences"
                + " (https://github.com/IGNF/myria3d/issues/123)",
            """
            srun: error: DEL2212S020: task 0: Terminated
            srun: error: node12: task 3: Exited with exit code 1
            """),
        given(
            "prose about memory is not a kill (https://github.com/OpenRLHF/OpenRLHF/issues/936)",
            """
            If your system is running low on memory, models might fail to load or run
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new RankKilled(), "rank-killed", c);
  }
}
