package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * torchrun's agent finding its elastic rendezvous closed; its raise statement and prose are not.
 */
class RendezvousClosedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "an agent under Slurm, its traceback's last lines"
                    + " (https://github.com/pytorch/pytorch/issues/116974)",
                """
                  File "/home/mitch/ENV/lib/python3.10/site-packages/torch/distributed/elastic/rendezvous/dynamic_rendezvous.py", line 635, in run
                    raise RendezvousClosedError()
                torch.distributed.elastic.rendezvous.api.RendezvousClosedError
                srun: error: cdr2596: task 1: Exited with exit code 1
                """)
            .expect(
                error("torchrun's elastic rendezvous was closed by another node's agent", "rdzv-id")
                    .at("a.log:3")),
        given(
                "the error handler's JSON under a Kubeflow PyTorchJob"
                    + " (https://github.com/kubeflow/trainer/issues/1638)",
                """
                INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group
                ERROR:torch.distributed.elastic.multiprocessing.errors.error_handler:{
                  "message": {
                    "message": "RendezvousClosedError: ",
                """)
            .expect(
                error("torchrun's elastic rendezvous was closed by another node's agent")
                    .at("a.log:4")),
        given(
            "the raise statement alone (https://github.com/pytorch/pytorch/issues/91943)",
            """
                raise RendezvousClosedError()
            """),
        given(
            "the name in prose (https://github.com/pytorch/pytorch/issues/147064)",
            """
            I was able to repro Case 1 (RendezvousClosedError) by running two agents on a single node.
            """),
        given(
            "the agent's own rendezvous line is healthy (same issue as the second row)",
            """
            INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new RendezvousClosed(), "rendezvous-closed", c);
  }
}
