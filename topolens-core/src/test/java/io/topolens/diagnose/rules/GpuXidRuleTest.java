package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.excerpt;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.info;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GPU errors the NVIDIA driver and nvidia-smi reported beside the job (real excerpts in
 * nccl/failures, sources in its README): each GPU by PCI address and NCCL's device, NVIDIA's
 * meaning and action; Xid 45 alone is no error, a healthy log has no finding.
 */
class GpuXidRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given("Xid 79 and nvidia-smi's lost GPU", excerpt("xid79-smi-lost-akash-support-209.log"))
            .expect(
                error(
                        "A GPU fell off the bus: the NVIDIA driver lost it",
                        "the GPU at PCI 0000:a1:00.0: nvidia-smi cannot reach it",
                        "the GPU at PCI 0000:a1:00.0: Xid 79 (GPU has fallen off the bus): the GPU"
                            + " is no longer reachable: its PCI Express connection failed (2"
                            + " line(s))",
                        "ncclUnhandledCudaError",
                        "Xid 79: Drain the node",
                        "drain the node from the scheduler",
                        "xid-errors/index.html#xid-79-gpu-has-fallen-off-the-bus")
                    .lacks("follows from the GPU error")
                    .at("a.log:2", "a.log:7")),
        given(
                "Xid 45 on four GPUs after NVLink errors not pasted",
                excerpt("xid45-after-nvlink-open-gpu-kernel-modules-1150.log"))
            .expect(
                info(
                        "The NVIDIA driver reported GPU errors (Xid)",
                        "the GPU at PCI 0000:dc:00.0: Xid 45 (Preemptive cleanup, due to previous"
                            + " errors)",
                        "not a cause",
                        "(2 line(s))")
                    .lacks("ncclUnhandledCudaError", "drain the node")
                    .at("a.log:1", "a.log:2", "a.log:3", "a.log:4")),
        given("application errors 43 and 31", excerpt("xid43-xid31-pytorch-51382.log"))
            .expect(
                warn(
                        "PCI 0000:3d:00.0: Xid 43 (GPU stopped processing)",
                        "PCI 0000:db:00.0: Xid 31 (GPU memory page fault)",
                        "NVIDIA counts it an application error",
                        "Xid 31: Debug the application")
                    .lacks("drain the node")
                    .at("a.log:2", "a.log:6")),
        given(
                "NVLink Xids the catalog does not explain and a contained ECC error",
                excerpt("xid-forms-gpud-1174.log"))
            .expect(
                error(
                        "PCI 0019:01:00.0: Xid 149, a code topolens's catalog does not explain",
                        "Xid 94 (Contained ECC error)",
                        "Xid 94: Restart the application that met the error")
                    .at("a.log:1", "a.log:2", "a.log:3")),
        given("a code the catalog does not explain, alone", excerpt("xid32-gist-kohsuke.log"))
            .expect(warn("Xid 32, a code topolens's catalog does not explain").at("a.log:2")),
        given(
                "an Xid on the GPU NCCL gave rank 1, with the framework's failure",
                rankOfTwo(0, "node-a", 1, "P2P/IPC"),
                rankOfTwo(1, "node-a", 1, "P2P/IPC"),
                "[Fri Apr  5 21:29:39 2024] NVRM: Xid (PCI:0000:11:00): 79, pid='<unknown>',"
                    + " name=<unknown>, GPU has fallen off the bus.\n"
                    + excerpt("internal-error-no-last-error-aws-ofi-nccl-316.log"))
            .expect(
                error(
                        "the GPU at PCI 0000:11:00.0 (node-a:200 cudaDev 1): Xid 79",
                        "follows from the GPU error")
                    .lacks("node-a:100")
                    .at("c.log:1")),
        given(
            "a healthy job: no driver lines",
            rankOfTwo(0, "node-a", 1, "P2P/IPC"),
            rankOfTwo(1, "node-a", 1, "P2P/IPC")),
        given(
            "the driver naming its GPUs is no error (https://github.com/akash-network/support/issues/209)",
            """
            [Thu Apr  4 18:03:56 2024] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.07  Sat Feb 17 22:55:48 UTC 2024
            [Fri Apr  5 21:29:39 2024] NVRM: GPU at PCI:0000:a1:00: GPU-979426f2-893a-7cbb-c4cf-81472f89a462
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new GpuXidRule(), "gpu-xid", c);
  }
}
