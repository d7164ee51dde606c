package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A scheduler that could not place the job's processes: Kubernetes, the kubelet, Slurm, mpirun. */
class JobUnschedulableRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "Ray's autoscaler on a bundle no node holds (its scheduler event's format, as Ray's"
                    + " docs quote it with {'CPU': 1.0})",
                """
                (autoscaler +2s) Warning: The following resource request cannot be scheduled right now: {'GPU': 8.0, 'CPU': 1.0}. This is likely due to all cluster resources being claimed by actors. Consider creating fewer actors or adding more nodes to this Ray cluster.
                """)
            .expect(error("ray.util.remove_placement_group").at("a.log:1")),
        given(
                "vLLM's Ray executor (the title of https://github.com/vllm-project/vllm/issues/26028)",
                """
                [Bug]: The number of required GPUs exceeds the total number of available GPUs in the placement group. For multi-node multi-GPU inference.
                """)
            .expect(error("RAY_ADDRESS").at("a.log:1")),
        given(
                "kube-scheduler's FailedScheduling event in kubectl describe pod"
                    + " (https://github.com/NVIDIA/k8s-device-plugin/issues/119)",
                """
                Events:
                 Warning FailedScheduling  40s (x2 over 40s)  default-scheduler  0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) were unschedulable.
                """)
            .expect(
                error(
                        "The scheduler could not place the job: it asks for more than the nodes"
                            + " offer",
                        "kubectl describe node")
                    .at("a.log:2")),
        given(
                "the scheduler's message as a CI log quotes it"
                    + " (https://github.com/kubeflow/kubeflow/issues/1262)",
                """
                pod cannot be scheduled: 0/5 nodes are available: 5 Insufficient nvidia.com/gpu.
                """)
            .expect(error("device plugin").at("a.log:1")),
        given(
                "the kubelet's device manager at admission (UnexpectedAdmissionError's message)",
                """
                Warning  UnexpectedAdmissionError  12s  kubelet  Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected
                """)
            .expect(error("unhealthy").at("a.log:1")),
        given(
                "Slurm refusing a GPU request (https://github.com/rcgsheffield/sheffield_hpc/issues/1042)",
                """
                srun: error: Unable to allocate resources: Requested node configuration is not available
                """)
            .expect(error("sinfo -p PARTITION").at("a.log:1")),
        given(
                "Open MPI's rmaps help text (https://github.com/h5py/h5py/issues/2627)",
                """
                --------------------------------------------------------------------------
                There are not enough slots available in the system to satisfy the 2
                slots that were requested by the application:
                """)
            .expect(error("slots=8").at("a.log:2")),
        given(
            "a scheduler's line that names no resource it lacks is not this",
            """
              Warning  FailedScheduling  2m  default-scheduler  0/3 nodes are available: 3 node(s) had untolerated taint {node.kubernetes.io/not-ready: }.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new JobUnschedulable(), "job-unschedulable", c);
  }
}
