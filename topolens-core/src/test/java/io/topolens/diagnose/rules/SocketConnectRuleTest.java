package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.excerpt;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SocketConnectRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "connect timed out and retried (NCCL 2.7 INFO form)",
                excerpt("socket-connect-timeout-veth-oneflow-3586.log"))
            .expect(
                warn(
                        "NCCL had to retry TCP connections to its peers",
                        "got no answer (connection timed out)",
                        "nc -zv ADDR PORT")
                    .lacks("refusal or abort means")
                    .at("a.log:11")),
        given(
                "only refusals, retried, and no communicator formed: nothing listened there"
                    + " (https://github.com/huggingface/transformers/issues/10282)",
                """
                stdout: multi-gpu-ci-runner:18062:18062 [1] NCCL INFO NET/Socket : Using [0]ens6:10.128.0.66<0>
                stdout: multi-gpu-ci-runner:18062:18062 [1] NCCL INFO Using network Socket
                stdout: multi-gpu-ci-runner:18062:18089 [1] NCCL INFO Call to connect returned Connection refused, retrying
                stdout: multi-gpu-ci-runner:18062:18089 [1] NCCL INFO Call to connect returned Connection refused, retrying
                stdout: multi-gpu-ci-runner:18062:18089 [1] NCCL INFO Call to connect returned Connection refused, retrying
                """)
            .expect(
                warn(
                        "Every connection attempt was refused and none succeeded: nothing listened"
                            + " at the peer's address",
                        "retried its TCP connection 3 time(s)",
                        "Which of these this log cannot tell",
                        "the job's total world size and its own rank")
                    .lacks("A timeout means packets are dropped")
                    .at("a.log:3")),
        given(
                "refusals, then NCCL gave up: not the refusals-only reading"
                    + " (https://github.com/pytorch/pytorch/issues/38702)",
                """
                tj1-asr-train-v100-13:941227:943077 [0] NCCL INFO Call to connect returned Connection refused, retrying
                tj1-asr-train-v100-13:941227:943077 [0] NCCL INFO Call to connect returned Connection refused, retrying
                tj1-asr-train-v100-13:941227:943077 [0] NCCL INFO Call to connect returned Connection refused, retrying
                tj1-asr-train-v100-13:941227:943077 [0] include/socket.h:390 NCCL WARN Connect to 10.38.10.112<21724> failed : Connection refused
                """)
            .expect(
                error("NCCL could not open a TCP connection to a peer", "nothing listens there")
                    .lacks("none succeeded")
                    .at("a.log:4", "a.log:1")),
        given(
                "connect failed, then the peer closed its connection (nccl-tests#166)",
                """
                ubuntu:39964:40075 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused connection abort
                ubuntu:39964:40075 [0] NCCL INFO misc/socket.cc:564 -> 2
                ubuntu:39964:40075 [0] NCCL INFO misc/socket.cc:586 -> 2
                ubuntu:39964:40075 [0] NCCL INFO transport/net_socket.cc:336 -> 2

                ubuntu:39964:40044 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer node1<57557>
                ubuntu:39964:40044 [0] NCCL INFO misc/socket.cc:749 -> 6
                """)
            .expect(
                error("NCCL could not open a TCP connection to a peer", "NCCL gave up")
                    .at("a.log:1"),
                warn("A peer closed its NCCL connection", "This rank is a victim").at("a.log:6")),
        given(
                "a connection of the wrong type: one rank on IB, its peers on sockets",
                excerpt("socket-wrong-type-nccl-tests-373.log"))
            .expect(
                error(
                        "A connection NCCL did not expect reached its socket (wrong type)",
                        "one rank uses an RDMA network plugin while its peers fell back to sockets")
                    .at("a.log:19")),
        given(
            "a healthy job",
            rankOfTwo(0, "node-a", 2, "NET/Socket/0"),
            rankOfTwo(1, "node-b", 2, "NET/Socket/0")),
        given(
                "2.28's retry with the address (misc/socket.cc, INFO; nccl/messages)",
                """
                node-a:4021:4090 [0] NCCL INFO socketPollConnect: connect to 10.0.0.12<43567> returned Connection refused, retrying (1/34) after sleep for 100 msec
                """)
            .expect(warn("had to retry").at("a.log:1")),
        given(
                "2.28's accept that kept failing (misc/socket.cc; nccl/messages)",
                """
                node-a:4021:4090 [0] misc/socket.cc:520 NCCL WARN socketTryAccept: exceeded error retry count after 35 attempts, Connection aborted
                """)
            .expect(error("could not open a TCP connection").at("a.log:1")),
        given(
                "RAS giving up on a peer, and its passing warning (ras/rasnet.cc, 2.28.3 INFO; nccl/messages)",
                """
                node-a:4021:4099 [0] NCCL INFO RAS keep-alive timeout warning (5s) on socket connection with 10.0.0.12<28028>
                node-a:4021:4099 [0] NCCL INFO RAS keep-alive timeout error (20s) on socket connection with 10.0.0.12<28028>
                """)
            .expect(warn("RAS lost contact", "ncclras").at("a.log:2")),
        given(
                "NCCL 2.3's connect that gave up after its retries, in a quoted title with 2.4's"
                    + " closed socket (https://github.com/horovod/horovod/issues/666)",
                """
                "WARN Connection closed by remote peer " or "NCCL WARN Call to connect timeout : Connection refused" and freeze
                """)
            .expect(error("could not open a TCP connection", "was refused").at("a.log:1")),
        given(
                "NCCL 2.4's connect that timed out, with its header"
                    + " (https://github.com/horovod/horovod/issues/110)",
                """
                lf-solar-gpu9-pm:285594:285607 [0] include/socket.h:361 NCCL WARN Call to connect failed : Connection timed out
                """)
            .expect(error("could not open a TCP connection", "no answer").at("a.log:1")),
        given(
                "NCCL 2.1's recv reset by the peer, the title without its header"
                    + " (https://github.com/horovod/horovod/issues/147)",
                """
                recv failed : Connection reset by peer？
                """)
            .expect(warn("A peer closed its NCCL connection").at("a.log:1")),
        given(
                "the same with NCCL 2.1's header, no word NCCL"
                    + " (https://github.com/horovod/horovod/issues/210)",
                """
                ml-gpu-ser015:2123:2230 [3] include/socket.h:194 WARN Call to recv failed : Connection reset by peer
                ml-gpu-ser015:2123:2230 [3] INFO transport/net_ib.cu:555 -> 2
                """)
            .expect(warn("A peer closed its NCCL connection").at("a.log:1")),
        given(
            "other programs' resets are not NCCL's (https://github.com/wazuh/wazuh/issues/19532)",
            """
            2023/10/06 07:25:04 wazuh-db: ERROR: at run_worker(): at recv(): Connection reset by peer (104)
            """),
        given(
            "a store connection PyTorch lost is not NCCL's socket"
                + " (https://github.com/pytorch/pytorch/issues/74146)",
            """
            RuntimeError: Connection reset by peer
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new SocketConnect(), "socket-connect", c);
  }
}
