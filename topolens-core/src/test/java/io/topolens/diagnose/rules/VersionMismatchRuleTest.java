package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class VersionMismatchRuleTest {

  /** A process on {@code host} that prints {@code version} and holds rank {@code rank}. */
  static String process(String host, int rank, String version) {
    return """
        {h}:1{r}:1{r} [0] NCCL INFO NCCL version {v}
        {h}:1{r}:2{r} [0] NCCL INFO ncclCommInitRankConfig comm 0x{r}1 rank {r} nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init START
        """
        .replace("{h}", host)
        .replace("{r}", String.valueOf(rank))
        .replace("{v}", version);
  }

  static final String A_2_27 = process("node-a", 0, "2.27.3+cuda12.9");
  static final String B_2_28 = process("node-b", 1, "2.28.9+cuda13.0");

  static Stream<Case> cases() {
    return Stream.of(
        given("two processes print different NCCL versions", A_2_27, B_2_28)
            .expect(
                error(
                        "Ranks run different NCCL versions",
                        "The ranks print 2 NCCL versions: 2.27.3+cuda12.9 on 1 GPU context(s), e.g. node-a:10 [0];"
                            + " 2.28.9+cuda13.0 on 1 GPU context(s), e.g. node-b:11 [0].")
                    .at("a.log:1", "b.log:1")),
        given(
                "a process driving two GPUs counts two contexts",
                """
                node-a:10:10 [0] NCCL INFO NCCL version 2.27.3+cuda12.9
                node-a:10:20 [0] NCCL INFO ncclCommInitRankConfig comm 0x01 rank 0 nranks 3 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init START
                node-a:10:21 [1] NCCL INFO ncclCommInitRankConfig comm 0x02 rank 1 nranks 3 cudaDev 1 nvmlDev 1 busId 2000 commId 0xabc - Init START
                """,
                process("node-b", 2, "2.28.9+cuda13.0"))
            .expect(
                error(
                        "2.27.3+cuda12.9 on 2 GPU context(s), e.g. node-a:10 [0]",
                        "2.28.9+cuda13.0 on 1 GPU context(s)")
                    .at("a.log:1", "b.log:1")),
        given(
                "NCCL itself reports the mismatch",
                """
                node-b:11:21 [0] NCCL INFO ncclCommInitRankConfig comm 0x11 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init START
                node-b:11:21 [0] init.cc:1060 NCCL WARN Mismatched NCCL version detected : rank 0 version 22703 rank 1 version 22809
                node-b:11:21 [0] NCCL INFO init.cc:1534 -> 5
                """)
            .expect(
                error("Ranks run different NCCL versions", "Mismatched NCCL version detected")
                    .lacks("The ranks print")
                    .at("a.log:2")),
        given(
                "PyTorch 2.2's libtorch_cuda.so beside an older libnccl, import fails"
                    + " (https://github.com/THU-MIG/yolov10/issues/306)",
                """
                ImportError: /root/.local/conda/envs/yolov10/lib/python3.9/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: ncclCommRegister
                """)
            .expect(
                error(
                        "The NCCL library is older than the program was built for",
                        "The loader found no ncclCommRegister, an NCCL function since 2.19",
                        "pip list | grep -i nccl")
                    .lacks("The ranks print", "reports NCCL")
                    .at("a.log:1")),
        given(
                "the title form, without ImportError (https://github.com/NVIDIA/nccl/issues/1180)",
                """
                torch/lib/libtorch_cuda.so: undefined symbol: ncclCommRegister
                """)
            .expect(
                error("The NCCL library is older than the program was built for").at("a.log:1")),
        given(
                "nccl-tests built against a newer NCCL than the one it runs with"
                    + " (https://github.com/microsoft/msccl/issues/16)",
                """
                nccl-tests/build/all_reduce_perf: undefined symbol: ncclRedOpCreatePreMulSum
                """)
            .expect(error("ncclRedOpCreatePreMulSum, an NCCL function since 2.11").at("a.log:1")),
        given(
                "NCCL 2.14.3 refuses the config of torch 2.1's newer headers, after Last error:"
                    + " (https://github.com/vllm-project/vllm/issues/1726, held-out set 14's s11,"
                    + " after it was measured)",
                """
                DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, invalid argument, NCCL version 2.14.3
                ncclInvalidArgument: Invalid value for an argument.
                Last error:
                Invalid config blocking attribute value -2147483648
                """)
            .expect(
                error(
                        "The NCCL library is older than the program was built for",
                        "NCCL_CONFIG_UNDEF_INT",
                        "The library the process loaded reports NCCL 2.14.3.")
                    .at("a.log:4", "a.log:1")),
        given(
                "the same refusal pasted alone, without Last error: (NCCL 2.14's"
                    + " WARN(\"Invalid config blocking attribute value %d\", ...) in init.cc)",
                """
                Invalid config blocking attribute value -2147483648
                """)
            .expect(error("NCCL_CONFIG_UNDEF_INT").lacks("reports NCCL").at("a.log:1")),
        given(
            "a network plugin without the plugin symbol is not the library's age (NCCL 2.18.5's"
                + " plugin/net.cc, nccl/messages)",
            """
            NET/Plugin : dlerror=/opt/amazon/ofi-nccl/lib/libnccl-net.so: undefined symbol: ncclNetPlugin_v5 No plugin found (libnccl-net.so), using internal implementation
            """),
        given(
            "a PyTorch C++ symbol of a broken source build is not NCCL's"
                + " (https://github.com/pytorch/pytorch/issues/32638)",
            """
            ImportError: /usr/lib/python3.8/site-packages/torch/lib/libtorch_python.so: undefined symbol: _ZN5torch4cuda4nccl6detail16throw_nccl_errorE12ncclResult_t
            """),
        given(
            "a config value the caller set is invalid-argument's (NCCL 2.28.3's init.cc, nccl/messages)",
            """
            node-a:10:10 [0] init.cc:1783 NCCL WARN Invalid config blocking attribute value 2
            """),
        given(
            "an unset maxCTAs beside a set minCTAs is a bug of a current NCCL, not an old library"
                + " (https://github.com/NVIDIA/nccl/pull/2256)",
            """
            init.cc NCCL WARN Invalid config min/max channels attribute value 4/-2147483648
            """),
        given("the same version everywhere", A_2_27, process("node-b", 1, "2.27.3+cuda12.9")),
        given(
            "the template's ranks agree",
            rankOfTwo(0, "node-a", 2, "NET/Socket/0"),
            rankOfTwo(1, "node-b", 2, "NET/Socket/0")),
        given(
            "only one process prints its version",
            A_2_27,
            """
            node-b:11:21 [0] NCCL INFO ncclCommInitRankConfig comm 0x11 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init START
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new VersionMismatch(), "version-mismatch", c);
  }
}
