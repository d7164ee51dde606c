package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Ray's GCS and JAX's coordination service lost a worker that stopped answering. */
class WorkerLostRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "an actor of a preempted node (gcs_actor_manager.cc's format, a sample reason)",
                """
                The actor died because its node has died. Node Id: 8d3e1a2b
                	the actor's node was preempted: the instance was preempted by the cloud provider
                """)
            .expect(error("on-demand nodes").at("a.log:1", "a.log:2")),
        given(
                "Ray 2.x's GCS warning as the driver prints it, its second line on a line of its"
                    + " own (https://github.com/ray-project/ray/issues/29412)",
                """
                2022-10-27 17:53:40,197 WARNING worker.py:1839 -- The node with node id: b1d7d50a82a27c9cdb73c6c5a27cf355243895e54636ae698b31d1bf and address: 172.29.58.101 and node name: 172.29.58.101 has been marked dead because the detector has missed too many heartbeats from it. This can happen when a    (1) raylet crashes unexpectedly (OOM, preempted node, etc.)
                        (2) raylet has lagging heartbeats due to slow network or busy workload.
                """)
            .expect(
                error(
                        "The job's coordinator lost a worker: its node or process stopped"
                            + " answering",
                        "Ray's GCS marked the node dead",
                        "raylet.out")
                    .at("a.log:1")),
        given(
                "Ray 1.x's form, several nodes at once in a tqdm line's wake"
                    + " (https://github.com/ray-project/ray/issues/18449)",
                """
                Reduce Progress.:  69%|██████▉   | 691/1000 [28:51<28:26,  5.52s/it]2021-09-05 05:42:38,294     WARNING worker.py:1228 -- The node with node id: 0fc14938add3345146c57e92449e77a584cace230879f50fd0813cc0 and ip: 172.31.57.35 has been marked dead because the detector has missed too many heartbeats from it. This can happen when a raylet crashes unexpectedly or has lagging heartbeats.
                2021-09-05 05:42:39,292 WARNING worker.py:1228 -- The node with node id: 9d2c254a88cf3dfc896b1b1cfa4b62cf2b95aff0ab4e066aceda60d4 and ip: 172.31.12.38 has been marked dead because the detector has missed too many heartbeats from it. This can happen when a raylet crashes unexpectedly or has lagging heartbeats.
                """)
            .expect(error("2 line(s) of 2 distinct form(s)").at("a.log:1", "a.log:2")),
        given(
                "an actor of the lost node, with Ray 2.24's reason (gcs_actor_manager.cc's format,"
                    + " the reason as ray-project/ray PR 45497's test gives it)",
                """
                ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.
                The actor died because its node has died. Node Id: 8d3e1a2b
                	the actor's node was terminated unexpectedly: health check failed due to missing too many heartbeats
                """)
            .expect(error("every actor on that node").at("a.log:2", "a.log:3")),
        given(
                "the task's own raylet (exceptions.py's LocalRayletDiedError)",
                """
                ray.exceptions.LocalRayletDiedError: The task's local raylet died. Check raylet.out for more information.
                """)
            .expect(error("Ray's per-node daemon").at("a.log:1")),
        given(
                "JAX's coordination service, a single process stalled while allocating pinned"
                    + " memory (https://github.com/jax-ml/jax/issues/23599)",
                """
                2024-10-09 15:47:38.568412: E external/xla/xla/tsl/distributed_runtime/coordination/coordination_service.cc:1170] /job:jax_worker/replica:0/task:0 has been set to ERROR in coordination service: UNAVAILABLE: Task /job:jax_worker/replica:0/task:0 heartbeat timeout. This indicates that the remote task has failed, got preempted, or crashed unexpectedly. Check the task logs for an earlier error to debug further. [type.googleapis.com/tensorflow.CoordinationServiceError='']
                """)
            .expect(error("heartbeat_timeout_seconds").at("a.log:1")),
        given(
            "an actor whose owner died names no lost worker of its own: a consequence"
                + " (https://github.com/hiyouga/EasyR1/issues/324)",
            """
            ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.
                    class_name: Runner
                    actor_id: 28507c63735529c3265367b501000000
            The actor is dead because its owner has died. Owner Id: 01000000ffffffffffffffffffffffffffffffffffffffffffffffff Owner Ip address: 172.21.160.9 Owner worker exit type: SYSTEM_ERROR Worker exit detail: Owner's node has crashed.
            """),
        given(
            "the raylet's report of a worker that exited, its causes only guessed: a consequence"
                + " (https://github.com/OpenRLHF/OpenRLHF/issues/621)",
            """
            (raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. RayTask ID: fffffffffffffffff274c61d686e9942cf058dcc11000000 Worker ID: d893621a96e2f86610a449412008b6be271a3f20fb114a86dc99951c Node ID: 8440b94a47cd6aec9329c5f1a1ac0cc7ea3b7fe6586ac18245731034 Worker IP address: 172.19.24.110 Worker port: 10185 Worker PID: 90738 Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called. (3) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new WorkerLost(), "worker-lost", c);
  }
}
