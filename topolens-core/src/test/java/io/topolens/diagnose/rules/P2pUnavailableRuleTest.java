package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;
import static io.topolens.diagnose.rules.Logs.warn;
import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.diagnose.Diagnoser;
import io.topolens.diagnose.Diagnosis;
import io.topolens.diagnose.Severity;
import io.topolens.diagnose.rules.Logs.Case;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class P2pUnavailableRuleTest {

  /** One process, two GPUs, P2P disabled: NCCL falls back to SHM (h200x4 ar-shm fixture, cut). */
  static final String P2P_DISABLED_SHM =
      """
      vm:1868:1868 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1
      vm:1868:1903 [0] NCCL INFO ncclCommInitRankConfig comm 0x10 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 60 commId 0xabc - Init START
      vm:1868:1902 [1] NCCL INFO ncclCommInitRankConfig comm 0x11 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 70 commId 0xabc - Init START
      vm:1868:1903 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct
      vm:1868:1902 [1] NCCL INFO Channel 00 : 1[1] -> 0[0] via SHM/direct/direct
      vm:1868:1903 [0] NCCL INFO Channel 01 : 0[0] -> 1[1] via SHM/direct/direct
      """;

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "SHM between two GPUs of one host, nothing in the environment",
                rankOfTwo(0, "vm", 1, "SHM/direct/direct"),
                rankOfTwo(1, "vm", 1, "SHM/direct/direct"))
            .expect(
                warn(
                        "GPUs of one node do not use P2P",
                        "1 pair(s) of GPUs on one node use SHM",
                        "pairs 0-1.",
                        "Nothing in the environment forces it")
                    .at("a.log:5", "b.log:5")),
        given("NCCL_P2P_DISABLE=1 with SHM connections", P2P_DISABLED_SHM)
            .expect(
                warn(
                        "P2P is disabled by the environment",
                        "NCCL_P2P_DISABLE=1 is set by the environment: it turns P2P off on every pair.",
                        "Remove NCCL_P2P_DISABLE from the environment")
                    .lacks("Nothing in the environment forces it")
                    .at("a.log:1", "a.log:4", "a.log:5")),
        given(
                "NCCL_P2P_DISABLE=1 before any connection line",
                """
                node-a:100:100 [0] NCCL INFO NCCL version 2.27.3+cuda12.9
                node-a:100:100 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1.
                """)
            .expect(warn("P2P is disabled by the environment").at("a.log:2")),
        given(
                "NCCL_P2P_LEVEL=NVL on a PCIe host, old 'direct shared memory' lines",
                """
                gpu2-ru7:2143:2143 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to NVL
                gpu2-ru7:2143:2143 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 3d000 - Init COMPLETE
                gpu2-ru7:2143:2143 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 3e000 - Init COMPLETE
                gpu2-ru7:2143:2561 [0] NCCL INFO Ring 00 : 0[3d000] -> 1[3e000] via direct shared memory
                gpu2-ru7:2143:2562 [1] NCCL INFO Ring 00 : 1[3e000] -> 0[3d000] via direct shared memory
                """)
            .expect(
                warn(
                        "GPUs of one node do not use P2P",
                        "it allows P2P only over NVLink",
                        "pairs 0-1.")
                    .at("a.log:1", "a.log:4", "a.log:5")),
        given(
            "P2P/CUMEM/read between two GPUs",
            rankOfTwo(0, "vm", 1, "P2P/CUMEM/read"),
            rankOfTwo(1, "vm", 1, "P2P/CUMEM/read")),
        given(
            "P2P/IPC with NCCL_P2P_DISABLE=0 (the default)",
            """
            vm:1:1 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 0
            vm:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 3d000 - Init COMPLETE
            vm:1:1 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 3e000 - Init COMPLETE
            vm:1:1 [0] NCCL INFO Channel 00 : 0[3d000] -> 1[3e000] via P2P/IPC
            vm:1:1 [1] NCCL INFO Channel 00 : 1[3e000] -> 0[3d000] via P2P/IPC
            """),
        given(
            "sockets between two nodes",
            rankOfTwo(0, "node-a", 2, "NET/Socket/0"),
            rankOfTwo(1, "node-b", 2, "NET/Socket/0")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new P2pUnavailable(), "p2p-unavailable", c);
  }

  /** A clean two-process, one-host job over P2P/CUMEM/read, as NCCL 2.27 prints it. */
  static final String CUMEM_RANK_0 =
      """
      vm:1704:1704 [0] NCCL INFO Bootstrap: Using eth0:192.0.2.2<0>
      vm:1704:1704 [0] NCCL INFO NCCL version 2.27.3+cuda12.9
      vm:1704:1723 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so
      vm:1704:1723 [0] NCCL INFO NET/IB : No device found.
      vm:1704:1723 [0] NCCL INFO Failed to initialize NET plugin IB
      vm:1704:1723 [0] NCCL INFO NET/Socket : Using [0]eth0:192.0.2.2<0>
      vm:1704:1723 [0] NCCL INFO Initialized NET plugin Socket
      vm:1704:1723 [0] NCCL INFO Using network Socket
      vm:1704:1723 [0] NCCL INFO ncclCommInitRankConfig comm 0x5626964ed5a0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 60 commId 0xcac89040c63ed5df - Init START
      vm:1704:1723 [0] NCCL INFO Bootstrap timings total 0.000958 (create 0.000056, send 0.000116, recv 0.000236, ring 0.000113, delay 0.000001)
      vm:1704:1723 [0] NCCL INFO comm 0x5626964ed5a0 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0
      vm:1704:1723 [0] NCCL INFO Channel 00/02 : 0 1
      vm:1704:1723 [0] NCCL INFO Channel 01/02 : 0 1
      vm:1704:1723 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] 1/-1/-1->0->-1
      vm:1704:1723 [0] NCCL INFO ncclCommInitRankConfig comm 0x5626964ed5a0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 60 commId 0xcac89040c63ed5df - Init COMPLETE
      vm:1704:1723 [0] NCCL INFO Init timings - ncclCommInitRankConfig: rank 0 nranks 2 total 0.68 (kernels 0.57, alloc 0.07, bootstrap 0.00, allgathers 0.00, topo 0.03, graphs 0.00, connections 0.00, rest 0.00)
      vm:1704:1740 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read
      vm:1704:1740 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via P2P/CUMEM/read
      vm:1704:1740 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 0
      vm:1704:1740 [0] NCCL INFO Connected all trees
      """;

  static final String CUMEM_RANK_1 =
      """
      vm:1705:1705 [1] NCCL INFO Bootstrap: Using eth0:192.0.2.2<0>
      vm:1705:1705 [1] NCCL INFO NCCL version 2.27.3+cuda12.9
      vm:1705:1724 [1] NCCL INFO NET/Plugin: Could not find: libnccl-net.so
      vm:1705:1724 [1] NCCL INFO NET/IB : No device found.
      vm:1705:1724 [1] NCCL INFO Failed to initialize NET plugin IB
      vm:1705:1724 [1] NCCL INFO NET/Socket : Using [0]eth0:192.0.2.2<0>
      vm:1705:1724 [1] NCCL INFO Initialized NET plugin Socket
      vm:1705:1724 [1] NCCL INFO Using network Socket
      vm:1705:1724 [1] NCCL INFO ncclCommInitRankConfig comm 0x5626965f5c00 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 70 commId 0xcac89040c63ed5df - Init START
      vm:1705:1724 [1] NCCL INFO Bootstrap timings total 0.000929 (create 0.000037, send 0.000114, recv 0.000287, ring 0.000156, delay 0.000000)
      vm:1705:1724 [1] NCCL INFO comm 0x5626965f5c00 rank 1 nRanks 2 nNodes 1 localRanks 2 localRank 1 MNNVL 0
      vm:1705:1724 [1] NCCL INFO Trees [0] -1/-1/-1->1->0 [1] -1/-1/-1->1->0
      vm:1705:1724 [1] NCCL INFO ncclCommInitRankConfig comm 0x5626965f5c00 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 70 commId 0xcac89040c63ed5df - Init COMPLETE
      vm:1705:1724 [1] NCCL INFO Init timings - ncclCommInitRankConfig: rank 1 nranks 2 total 0.68 (kernels 0.57, alloc 0.07, bootstrap 0.00, allgathers 0.00, topo 0.03, graphs 0.00, connections 0.00, rest 0.00)
      vm:1705:1741 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via P2P/CUMEM/read
      vm:1705:1741 [1] NCCL INFO Channel 01/0 : 1[1] -> 0[0] via P2P/CUMEM/read
      vm:1705:1741 [1] NCCL INFO Connected all rings, use ring PXN 0 GDR 0
      vm:1705:1741 [1] NCCL INFO Connected all trees
      """;

  static Stream<Arguments> cleanP2pJobs() {
    return Stream.of(
        Arguments.of("two processes over P2P/CUMEM/read", List.of(CUMEM_RANK_0, CUMEM_RANK_1)),
        Arguments.of(
            "the same from the template",
            List.of(
                rankOfTwo(0, "vm", 1, "P2P/CUMEM/read"), rankOfTwo(1, "vm", 1, "P2P/CUMEM/read"))),
        Arguments.of(
            "P2P/CUMEM without read",
            List.of(rankOfTwo(0, "vm", 1, "P2P/CUMEM"), rankOfTwo(1, "vm", 1, "P2P/CUMEM"))),
        Arguments.of(
            "fixture h200x4/ar-p2p.log (4 GPUs, one process)", List.of(fixture("ar-p2p.log"))),
        Arguments.of("fixture h200x4/ar-p2p-g2.log (2 GPUs)", List.of(fixture("ar-p2p-g2.log"))),
        Arguments.of("fixture h200x4/ag-p2p.log", List.of(fixture("ag-p2p.log"))),
        Arguments.of("fixture h200x4/rs-p2p.log", List.of(fixture("rs-p2p.log"))));
  }

  /** A real log from the h200x4 fixtures (test resources). */
  static String fixture(String name) {
    try (InputStream in =
        P2pUnavailableRuleTest.class.getResourceAsStream("/fixtures/h200x4/" + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** No rule of the standard set may warn about a healthy single-host P2P job. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cleanP2pJobs")
  void cleanP2pJobGetsNoWarningFromAnyRule(String name, List<String> logs) {
    Diagnosis d = Diagnoser.standard().diagnose(Logs.job(logs.toArray(String[]::new)));
    assertThat(d.job().communicators()).as("the job was read").isNotEmpty();
    assertThat(d.findings())
        .as("findings:%n%s", Logs.render(d.findings()))
        .allMatch(f -> f.severity() == Severity.INFO);
    assertThat(d.hasErrors()).isFalse();
  }

  static Stream<Case> levelCases() {
    return Stream.of(
        given(
                "NCCL_P2P_LEVEL=LOC before any connection line",
                """
                vm:1:1 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to LOC
                vm:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 3d000 - Init COMPLETE
                vm:1:1 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 3e000 - Init COMPLETE
                """)
            .expect(
                warn("NCCL_P2P_LEVEL=LOC is set by the environment: it turns P2P off on every pair.")
                    .lacks("text value")
                    .at("a.log:1")),
        given(
                "NCCL_P2P_LEVEL=0 and no version printed: NCCL 2.5.6 printed this line for"
                    + " NCCL_P2P_LEVEL=NVL (https://github.com/NVIDIA/nccl/issues/332)",
                """
                NCCL INFO NCCL_P2P_LEVEL set by environment to 0
                """)
            .expect(
                warn(
                        "NCCL_P2P_LEVEL=0 is set by the environment: it turns P2P off on every pair.",
                        "The log does not print NCCL's version: if it is older than 2.6, the 0 may be"
                            + " a text value read as a number",
                        "NVIDIA/nccl issue 332")
                    .at("a.log:1")),
        given(
                "the same line beside NCCL 2.5.6's version line (that of"
                    + " https://github.com/NVIDIA/nccl/issues/529)",
                """
                NCCL version 2.5.6+cuda10.0
                NCCL INFO NCCL_P2P_LEVEL set by environment to 0
                """)
            .expect(
                warn("This NCCL (2.5.6+cuda10.0) is older than 2.6: the 0 may be a text value")
                    .at("a.log:2")),
        given(
                "the same line beside NCCL 2.21.5's (that of"
                    + " https://github.com/NVIDIA/nccl/issues/1504): text values are read there, 0"
                    + " was meant",
                """
                NCCL version 2.21.5+cuda12.4
                NCCL INFO NCCL_P2P_LEVEL set by environment to 0
                """)
            .expect(
                warn("NCCL_P2P_LEVEL=0 is set by the environment: it turns P2P off on every pair.")
                    .lacks("text value")
                    .at("a.log:2")),
        given(
                "both releases' version lines (issues 529 and 1504) in one input: only the older"
                    + " is named older than 2.6",
                """
                NCCL version 2.5.6+cuda10.0
                NCCL version 2.21.5+cuda12.4
                NCCL INFO NCCL_P2P_LEVEL set by environment to 0
                """)
            .expect(
                warn("This NCCL (2.5.6+cuda10.0) is older than 2.6: the 0 may be a text value")
                    .lacks("2.21.5+cuda12.4) is older")
                    .at("a.log:3")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("levelCases")
  void p2pLevelLocAloneIsReported(Case c) {
    Logs.check(new P2pUnavailable(), "p2p-unavailable", c);
  }
}
