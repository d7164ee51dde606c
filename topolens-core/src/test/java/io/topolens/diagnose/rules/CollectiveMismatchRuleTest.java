package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The transports' size checks that fire when ranks do not exchange the same thing. */
class CollectiveMismatchRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "Gloo's TCP pair under a PyTorch gloo group"
                    + " (https://github.com/PrimeIntellect-ai/prime-diloco/issues/68)",
                """
                terminate called after throwing an instance of 'gloo::EnforceNotMet'
                  what():  [enforce fail at ../third_party/gloo/gloo/transport/tcp/pair.cc:446] op.preamble.length <= op.nbytes. 1046204 vs 1040256
                """)
            .expect(error("Gloo's TCP transport").at("a.log:2")),
        given(
                "NET/IB of NCCL 2.8, no header (https://github.com/NVIDIA/FasterTransformer/issues/204)",
                """
                NCCL WARN NET/IB : collective mismatch error local size 131072 remote 0 addr 7f083e630000 rkey 83000 seq 2/2
                """)
            .expect(
                error("Ranks disagree on what they exchange", "NCCL_PROTO", "not the cause")
                    .at("a.log:1")),
        given(
                "NET/Socket of NCCL 2.4 in markdown bold (https://github.com/NVIDIA/nccl/issues/268)",
                """
                **NCCL version 2.4.7+cudaCUDA_MAJOR.CUDA_MINOR**
                **hvd1:2918:3333 [0] external/nccl_archive/src/transport/net_socket.cc:200 NCCL WARN NET/Socket : message truncated : receiving 696320 bytes instead of 32768**
                """)
            .expect(
                error("1 line(s) of 1 distinct form(s)", "Ranks disagree on what they exchange")
                    .lacks("NCCL's bootstrap received", "2.19.3")
                    .at("a.log:2")),
        given(
                "bootstrap's truncation at init, NCCL's version not in the lines: not a collective"
                    + " (https://github.com/NVIDIA/nccl/issues/1176)",
                """
                1: compute-st-p4de24xlarge-2:4827:6900 [4] bootstrap.cc:77 NCCL WARN Message truncated : received 256 bytes instead of 4
                1: compute-st-p4de24xlarge-2:4827:6900 [4] NCCL INFO bootstrap.cc:554 -> 3
                """)
            .expect(
                error(
                        "NCCL's bootstrap received a larger message than expected while setting up"
                            + " a communicator",
                        "collective calls, sizes and order are not the cause",
                        "NCCL 2.19.3 itself failed intermittently at init",
                        "https://github.com/NVIDIA/nccl/issues/1176",
                        "does not print NCCL's version",
                        "NCCL_DEBUG=VERSION")
                    .lacks("Ranks disagree on what they exchange", "NCCL_PROTO")
                    .at("a.log:1")),
        given(
                "the same line after the version the thread names (nccl 2.19.3 + cuda12.3, the"
                    + " description of https://github.com/NVIDIA/nccl/issues/1176)",
                """
                NCCL version 2.19.3+cuda12.3
                1: compute-st-p4de24xlarge-2:4827:6900 [4] bootstrap.cc:77 NCCL WARN Message truncated : received 256 bytes instead of 4
                """)
            .expect(
                error("This log prints NCCL 2.19.3: the release of that report.")
                    .at("a.log:2", "a.log:1")),
        given(
                "PyTorch's DETAIL check, shapes differ (a comment of"
                    + " https://github.com/modelscope/ms-swift/pull/9443)",
                """
                [rank1]: RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: CollectiveFingerPrint(SequenceNumber=3104, OpType=ALLREDUCE, TensorShape=[195812480], TensorDtypes=BFloat16, TensorDeviceTypes=TensorOptions(dtype=float (default), device=cuda, layout=Strided (default), requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))), but Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=3104, OpType=ALLREDUCE, TensorShape=[51123456], TensorDtypes=BFloat16, TensorDeviceTypes=TensorOptions(dtype=float (default), device=cuda, layout=Strided (default), requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))).Collectives differ in the following aspects:   Tensor Tensor shapes: 195812480vs 51123456
                """)
            .expect(
                error(
                        "Ranks disagree on what they exchange",
                        "compared the collective each rank was about to run",
                        "network is not the cause")
                    .lacks("NET/IB", "bootstrap")
                    .at("a.log:1")),
        given(
                "the same check, ops differ, wrapped (the description of"
                    + " https://github.com/pytorch/pytorch/pull/79901)",
                """
                Detected mismatch between collectives on ranks. Rank 0 is running collective:
                CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[20, 10], TensorDtypes=Float,
                """)
            .expect(error("compared the collective each rank was about to run").at("a.log:1")),
        given(
            "the check's words quoted in a question are not the check: no finding without"
                + " 'Detected'",
            """
            how do I find the mismatch between collectives of my two ranks?
            """),
        given(
            "an IB completion error is the fabric, not a mismatch"
                + " (https://github.com/NVIDIA/nccl-tests/issues/252)",
            """
            kolyoz2:25146:25854 [0] ib_plugin.c:1105 NCCL WARN NET/IB : Got completion from peer 10.0.35.1<49189> with error 4, opcode 5327, len 5327, vendor err 81 (Send)
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new CollectiveMismatch(), "collective-mismatch", c);
  }
}
