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
