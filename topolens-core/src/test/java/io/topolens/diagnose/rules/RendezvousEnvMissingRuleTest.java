package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** init_process_group's env:// rendezvous found a variable unset: no launcher set it. */
class RendezvousEnvMissingRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "accelerate launch --num_machines 2 with neither the main process's address nor"
                    + " its port (utils/launch.py, https://github.com/huggingface/accelerate/pull/3575)",
                """
                AssertionError: When using multiple machines, you need to specify the main process IP.
                AssertionError: When using multiple machines, you need to specify the main process port.
                """)
            .expect(
                error(
                        "The multi-node launch was given no rendezvous address (main process IP, main process port)",
                        "--main_process_ip HOST --main_process_port PORT")
                    .at("a.log:1", "a.log:2")),
        given(
                "torchrun's endpoint parser under accelerate, no address reaching it"
                    + " (https://github.com/huggingface/accelerate/issues/2240)",
                """
                ValueError: The port number of the rendezvous endpoint 'None:None' must be an integer between 0 and 65536.
                """)
            .expect(
                error("given no rendezvous address (None:None)", "--rdzv-endpoint HOST:PORT")
                    .at("a.log:1")),
        given(
                "MASTER_ADDR unset, the traceback's last lines (rendezvous.py"
                    + " _env_rendezvous_handler, torch 1.x-2.x)",
                """
                  File "/home/ubuntu/kevin/kevin_env/lib/python3.8/site-packages/torch/distributed/rendezvous.py", line 166, in _env_rendezvous_handler
                    raise _env_error("MASTER_ADDR")
                ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR expected, but not set
                """)
            .expect(
                error(
                        "The process was started without the rendezvous variables (MASTER_ADDR not set)",
                        "torchrun --nproc_per_node")
                    .at("a.log:3")),
        given(
                "RANK unset, from a notebook cell and vLLM's tests run without torchrun",
                """
                ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable RANK expected, but not set
                ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable WORLD_SIZE expected, but not set
                """)
            .expect(error("(RANK, WORLD_SIZE not set)").at("a.log:1", "a.log:2")),
        given(
                "torch.distributed.elastic's own check (elastic/utils, get_env_variable_or_raise)",
                """
                ValueError: Environment variable LOCAL_RANK expected, but not set
                """)
            .expect(error("(LOCAL_RANK not set)").at("a.log:1")),
        given(
            "another library's words for an unset variable (a Haskell env parser)",
            """
            Expected parse to succeed, but there were errors: PORT :expected, but not set
            """),
        given(
                "tcp:// without rank=: the traceback's raise statement and the error"
                    + " (https://github.com/CoinCheung/BiSeNet/issues/233)",
                """
                  File "/root/miniconda3/lib/python3.8/site-packages/torch/distributed/rendezvous.py", line 130, in _tcp_rendezvous_handler
                    raise _error("rank parameter missing")
                ValueError: Error initializing torch.distributed using tcp:// rendezvous: rank parameter missing
                """)
            .expect(
                error(
                        "init_process_group was called without its rank or world size (tcp://"
                            + " without rank=)",
                        "take the process's rank and the world size from the call itself",
                        "Pass rank= and world_size=")
                    .lacks("MASTER_ADDR, MASTER_PORT")
                    .at("a.log:3")),
        given(
                "file:// without rank= (https://github.com/salesforce/densecap/issues/40)",
                """
                ValueError: Error initializing torch.distributed using file:// rendezvous: rank parameter missing
                """)
            .expect(error("(file:// without rank=)").at("a.log:1")),
        given(
            "the raise statement a traceback quotes is not the error",
            """
                raise _error("rank parameter missing")
            """),
        given(
            "another library's missing parameter (invented)",
            """
            TypeError: rendezvous: batch parameter missing
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new RendezvousEnvMissing(), "rendezvous-env-missing", c);
  }
}
