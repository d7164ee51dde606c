package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;
import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.diagnose.Diagnoser;
import io.topolens.diagnose.Diagnosis;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.rules.Logs.Case;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NcclWarningsRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "a CUDA failure in an allocation",
                """
                (train_rft pid=2657296) 2024-05-11 14:10:52.227 n176-080-198:2657296:2658232 [0] include/alloc.h:102 NCCL WARN Cuda failure 1 'invalid argument'
                (train_rft pid=2657296) 2024-05-11 14:10:52.227 n176-080-198:2657296:2658232 [0] NCCL INFO include/alloc.h:108 -> 1
                """)
            .expect(
                warn(
                        "NCCL printed warnings",
                        "1 line(s) of 1 distinct form(s), from up to 1 process(es).")
                    .at("a.log:1")),
        given(
                "a bootstrap connection reset, kubectl timestamps and no pid",
                """
                2025-11-24T03:20:21.001125857Z gpu-server320 [5] NCCL INFO Bootstrap : Using eth0:10.44.137.150<0>
                2025-11-24T03:20:21.001125857Z [2025-11-24 11:20:21] gpu-server320 [5] misc/socket.cc:46 NCCL WARN socketProgressOpt: Call to send to 10.44.137.149<52905> failed : Connection reset by peer
                """)
            .expect(warn("1 line(s) of 1 distinct form(s)").at("a.log:2")),
        given(
                "peer access refused is an INFO line that still counts",
                """
                (pid=21065) node-a:21065:21065 [0] NCCL INFO Could not enable P2P between dev 1(=1a000) and dev 0(=19000)
                """)
            .expect(warn("1 line(s)").at("a.log:1")),
        given(
                "aws-ofi-nccl fails, two forms, second form on two ranks",
                """
                [1,0]<stdout>:worker-0:21:570 [0] nccl_net_ofi_create_plugin:204 NCCL WARN NET/OFI Failed to initialize sendrecv protocol
                [1,0]<stdout>:worker-0:21:570 [0] nccl_net_ofi_create_plugin:257 NCCL WARN NET/OFI aws-ofi-nccl initialization failed
                [1,1]<stdout>:worker-0:22:571 [1] nccl_net_ofi_create_plugin:257 NCCL WARN NET/OFI aws-ofi-nccl initialization failed
                """)
            .expect(
                warn("3 line(s) of 2 distinct form(s), from up to 2 process(es).")
                    .at("a.log:1", "a.log:2")),
        given(
            "NCCL's bootstrap trace is no WARN line (nccl issue 844's lines, held-out set 10 z09's"
                + " thread)",
            """
            696b7901f9044f23b786795c0ef7257b000000:39:298 [0] NCCL INFO include/socket.h:457 -> 2
            696b7901f9044f23b786795c0ef7257b000000:39:298 [0] NCCL INFO bootstrap.cc:229 -> 2
            """),
        given(
            "only /dev/shm warnings (shm-exhausted covers them)",
            """
            ubuntu:9621:9691 [6] misc/shmutils.cc:71 NCCL WARN Error: failed to extend /dev/shm/nccl-fjwOOB to 5967876 bytes
            """),
        given(
            "only InfiniBand warnings (ib-error covers them)",
            """
            node-a:7240:7401 [0] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error Invalid argument
            """),
        given(
            "only NVLS warnings (nvls-error covers them)",
            """
            node-a:1:2 [2] transport/nvls.cc:254 NCCL WARN Cuda failure 1 'invalid argument'
            """),
        given(
            "only a version mismatch (version-mismatch covers it)",
            """
            node-b:11:21 [0] init.cc:1060 NCCL WARN Mismatched NCCL version detected : rank 0 version 22703 rank 1 version 22809
            """),
        given(
            "no warnings",
            """
            vm:1:1 [0] NCCL INFO NET/IB : No device found.
            vm:1:1 [0] NCCL INFO Using network Socket
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new NcclWarnings(), "nccl-warning", c);
  }

  /**
   * Logs whose WARN lines a more specific finding (socket-interface, net-plugin-fallback) shows.
   */
  static Stream<Case> explainedElsewhere() {
    return Stream.of(
        given(
            "no usable listening interface (socket-interface reports both lines)",
            """
            d9beab19e6d2:1791:1791 [0] misc/socket.cc:237 NCCL WARN Net : No interface found in the same subnet as remote address a.b.c.d0<1778>
            d9beab19e6d2:1791:1791 [0] bootstrap.cc:39 NCCL WARN NET/Socket : No usable listening interface found
            """),
        given(
            "aws-ofi-nccl fails and NCCL falls back to sockets (net-plugin-fallback reports line 2)",
            """
            worker-0:21:570 [0] nccl_net_ofi_create_plugin:204 NCCL WARN NET/OFI Failed to initialize sendrecv protocol
            worker-0:21:570 [0] nccl_net_ofi_create_plugin:257 NCCL WARN NET/OFI aws-ofi-nccl initialization failed
            worker-0:21:570 [0] NCCL INFO NET/IB : No device found.
            worker-0:21:570 [0] NCCL INFO Using network Socket
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("explainedElsewhere")
  void linesAnotherFindingExplainsAreNotRepeated(Case c) {
    Diagnosis d = Diagnoser.standard().diagnose(Logs.job(c.logs().toArray(String[]::new)));
    List<String> explained =
        d.findings().stream()
            .filter(f -> !f.id().equals("nccl-warning"))
            .flatMap(f -> f.evidence().stream())
            .map(Logs::where)
            .toList();
    assertThat(explained).as("another finding shows the lines").isNotEmpty();
    assertThat(d.findings())
        .filteredOn(f -> f.id().equals("nccl-warning"))
        .flatMap(Finding::evidence)
        .extracting(Logs::where)
        .as("findings:%n%s", Logs.render(d.findings()))
        .doesNotContainAnyElementsOf(explained);
  }
}
