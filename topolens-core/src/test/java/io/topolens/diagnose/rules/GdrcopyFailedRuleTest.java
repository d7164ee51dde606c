package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GDRCopy under NCCL_GDRCOPY_ENABLE=1: misc/gdrwrap.cc's WARN formats of NCCL 2.28.3 (file:line
 * from the disassembly, nccl/messages/README.md) and 2.29's (NVIDIA/nccl src/misc/gdrwrap.cc). The
 * number after "failed:" is what libgdrapi returns, a positive errno (gdrcopy src/gdrapi.c: {@code
 * ret = errno} after the ioctl): 22, EINVAL, where gdrdrv refuses to pin (dmesg prints -22:
 * NVIDIA/gdrcopy#139, #299). Handles are libgdrapi's heap addresses.
 */
class GdrcopyFailedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "pinning a buffer failed at init (gdrwrap.cc:134)",
                """
                node-a:4021:4021 [0] NCCL INFO NCCL_GDRCOPY_ENABLE set by environment to 1
                node-a:4021:4090 [0] misc/gdrwrap.cc:134 NCCL WARN gdr_pin_buffer(addr 7f2a00000000, size 65536) failed: 22
                node-a:4021:4090 [0] NCCL INFO init.cc:1460 -> 2
                """)
            .expect(error("GDRCopy failed", "gdrdrv", "unset NCCL_GDRCOPY_ENABLE").at("a.log:2")),
        given(
                "mapping failed (gdrwrap.cc:176)",
                """
                node-a:4021:4090 [0] misc/gdrwrap.cc:176 NCCL WARN gdr_map(handle 55d0c4a1e2b0, size 65536) failed: 22
                """)
            .expect(error("gdrcopy_sanity").at("a.log:1")),
        given(
                "2.29's v2 pin (gdrwrap.cc's gdr_pin_buffer_v2 format, GDRCopy 2.5+)",
                """
                node-a:4021:4090 [0] misc/gdrwrap.cc:170 NCCL WARN gdr_pin_buffer_v2(addr 7f2a00000000, size 65536, flags 0) failed: 22
                """)
            .expect(error("gdrdrv refused to pin").at("a.log:1")),
        given(
                "2.29's driver version query: NCCL goes on without GDRCopy",
                """
                node-a:4021:4090 [0] misc/gdrwrap.cc:246 NCCL WARN gdr_driver_get_version() failed: 25
                """)
            .expect(warn("goes on without GDRCopy").lacks("gdrdrv refused").at("a.log:1")),
        given(
                "the library did not load: NCCL goes on without it (gdrwrap.cc:61)",
                """
                node-a:4021:4090 [0] misc/gdrwrap.cc:61 NCCL WARN Failed to open libgdrapi.so
                """)
            .expect(
                warn("goes on without GDRCopy", "libgdrapi.so on the library path").at("a.log:1")),
        given(
                "teardown only: a warning",
                """
                node-a:4021:4090 [0] misc/gdrwrap.cc:148 NCCL WARN gdr_unpin_buffer(handle 55d0c4a1e2b0) failed: 22
                node-a:4021:4090 [0] misc/gdrwrap.cc:120 NCCL WARN gdr_close() failed: 9
                """)
            .expect(warn("come at teardown").at("a.log:1", "a.log:2")),
        given(
            "libfabric's own GDRCopy loader is not NCCL's (the EFA nccl-tests log of"
                + " public/nccl-tests/001-scatter-perf-2x-p4d-a100-16r-srun-l-nccl-info-efa.txt)",
            """
             2: libfabric:77186:1690073380::core:core:cuda_gdrcopy_hmem_init():191<warn> gdrcopy_dl_hmem_init failed!
            """),
        given(
            "GDRCopy enabled and working (INFO) is healthy",
            """
            node-a:4021:4090 [0] NCCL INFO GDRCOPY enabled library 2.4 driver 2.4
            """),
        given(
            "NCCL_NET_GDR_LEVEL is GPUDirect RDMA, not GDRCopy",
            """
            node-a:4021:4090 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to PHB
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new GdrcopyFailed(), "gdrcopy-failed", c);
  }
}
