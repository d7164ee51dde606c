package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Slurm ended the job or step: the reason it printed, or scancel where it printed none. */
class JobCancelledRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "a step cancelled without a reason while a DDP job prepared data (scancel)"
                    + " (https://github.com/IGNF/myria3d/issues/123)",
                """
                Preparing test set...:  46%|████▋     | 31/67 [29:02<35:12, 58.67s/it]slurmstepd: error: *** STEP 6053.0 ON DEL2212S020 CANCELLED AT 2024-04-23T12:18:08 ***
                srun: error: DEL2212S020: task 0: Terminated
                srun: Force Terminated StepId=6053.0
                """)
            .expect(error("Slurm cancelled the job", "sacct -j JOB").at("a.log:1")),
        given(
                "the time limit, in slurmstepd's words (slurmstepd/req.c, Slurm 17.11-24.x)",
                """
                [rank2]:[E ProcessGroupNCCL.cpp:563] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7487, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800096 milliseconds before timing out.
                slurmstepd: error: *** JOB 31580279 ON anode150 CANCELLED AT 2020-07-29T18:45:16 DUE TO TIME LIMIT ***
                """)
            .expect(
                error("Slurm cancelled the job due to time limit", "#SBATCH --time")
                    .lacks("scancel")
                    .at("a.log:2")),
        given(
                "a node failure, quoted in a parser of job outputs"
                    + " (slurmstepd/req.c: SEE SLURMCTLD LOG FOR DETAILS)",
                """
                slurmstepd: error: *** JOB 31580279 ON anode150 CANCELLED AT 2020-07-29T18:45:16 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***
                """)
            .expect(error("Slurm cancelled the job due to node failure", "sinfo -R").at("a.log:1")),
        given(
                "srun's own time limit line (launch/slurm)",
                """
                srun: error: *** STEP 1234.0 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT ***
                """)
            .expect(error("due to time limit").at("a.log:1")),
        given(
                "srun's node failure line (srun; the same event slurmctld cancels the job for)",
                """
                srun: error: Node failure on node12
                srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
                """)
            .expect(error("Slurm cancelled the job due to node failure").at("a.log:1")),
        given(
                "torchrun's agent got SIGTERM, the traceback's raise statement beside it"
                    + " (https://github.com/NVIDIA/nvidia-resiliency-ext/issues/18)",
                """
                  File "/u/bmbelgod/.conda/envs/nvidia-resiliency-ext/lib/python3.11/site-packages/torch/distributed/elastic/multiprocessing/api.py", line 84, in _terminate_process_handler
                    raise SignalException(f"Process {os.getpid()} got signal: {sigval}", sigval=sigval)
                torch.distributed.elastic.multiprocessing.api.SignalException: Process 293812 got signal: 15
                """)
            .expect(
                error(
                        "torchrun's agent was stopped by SIGTERM from outside the job",
                        "OOM killer send SIGKILL",
                        "kubectl describe pod")
                    .lacks("Slurm cancelled")
                    .at("a.log:3")),
        given(
                "the agent's warning in torch 2.x's format (https://github.com/pytorch/pytorch/issues/150916)",
                """
                W0409 07:28:49.530000 1359 torch/distributed/elastic/agent/server/api.py:719] Received 15 death signal, shutting down workers
                W0409 07:28:49.531000 1359 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 1365 closing signal SIGTERM
                """)
            .expect(error("stopped by SIGTERM from outside the job").at("a.log:1")),
        given(
                "SIGHUP: the terminal closed (https://github.com/GanjinZero/RRHF/issues/35)",
                """
                WARNING:torch.distributed.elastic.agent.server.api:Received 1 death signal, shutting down workers
                WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 2920926 closing signal SIGHUP
                torch.distributed.elastic.multiprocessing.api.SignalException: Process 2920830 got signal: 1
                """)
            .expect(
                error(
                        "torchrun's agent got SIGHUP: the terminal that started the job closed",
                        "nohup")
                    .at("a.log:1", "a.log:3")),
        given(
                "Slurm's reason beside the agent's SIGTERM names the cancel"
                    + " (the time-limit line of slurmstepd/req.c; the agent line of"
                    + " https://github.com/NVIDIA/nvidia-resiliency-ext/issues/18)",
                """
                slurmstepd: error: *** JOB 31580279 ON anode150 CANCELLED AT 2020-07-29T18:45:16 DUE TO TIME LIMIT ***
                torch.distributed.elastic.multiprocessing.api.SignalException: Process 293812 got signal: 15
                """)
            .expect(error("Slurm cancelled the job due to time limit").at("a.log:1", "a.log:2")),
        given(
                "the agent's warning under Python before 3.11, the signal by its enum's name"
                    + " (NeMo's resiliency guide,"
                    + " https://docs.nvidia.com/nemo-framework/user-guide/latest/resiliency.html)",
                """
                Received Signals.SIGTERM death signal, shutting down workers
                Sending process 404288 closing signal SIGTERM
                """)
            .expect(
                error("torchrun's agent was stopped by SIGTERM from outside the job")
                    .lacks("Slurm cancelled", "slurmstepd")
                    .at("a.log:1")),
        given(
                "a signal number past what an int holds is read as written, not a failure"
                    + " (the line of https://github.com/NVIDIA/nvidia-resiliency-ext/issues/18,"
                    + " its number made too long)",
                """
                torch.distributed.elastic.multiprocessing.api.SignalException: Process 293812 got signal: 99999999999999999999
                """)
            .expect(
                error("torchrun's agent was stopped by signal 99999999999999999999 from outside")
                    .at("a.log:1")),
        given(
            "an issue title in prose, without slurmstepd's stars"
                + " (https://github.com/Nextomics/NextPolish/issues/122)",
            """
            slurmstepd: error: JOB CANCELLED DUE TO TIME LIMIT
            """),
        given(
            "srun's exit line alone is a consequence",
            """
            srun: error: node12: task 3: Exited with exit code 1
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new JobCancelled(), "job-cancelled", c);
  }
}
