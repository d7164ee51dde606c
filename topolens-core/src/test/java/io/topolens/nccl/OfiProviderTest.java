package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.NetPluginEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The libfabric provider aws-ofi-nccl's {@code Selected Provider is X} line names, in the forms of
 * its releases, kept with the plugin's event (ofi-plugin-error tells EFA from other fabrics by it).
 */
class OfiProviderTest {

  static Stream<Arguments> lines() {
    return Stream.of(
        // libfabric 1.1x's layered name (OfiPluginErrorRuleTest's healthy row)
        Arguments.of(
            "ip-192-168-16-255:25655:25655 [0] NCCL INFO NET/OFI Selected Provider is efa;ofi_rxr",
            "efa"),
        // https://github.com/aws/aws-ofi-nccl/issues/801 (1.6, HPE Slingshot)
        Arguments.of(
            "nid001:507357:507357 [0] NCCL INFO NET/OFI Selected Provider is cxi (found 8 nics)",
            "cxi"),
        // 1.1x+: the fabric after a comma
        Arguments.of(
            "node-a:4021:4021 [0] NCCL INFO NET/OFI Selected provider is cxi, fabric is cxi (found 4"
                + " nics)",
            "cxi"),
        // https://github.com/aws/aws-ofi-nccl/issues/161 (1.3.0: the end of the line)
        Arguments.of("algo-1:462:462 [0] NCCL INFO NET/OFI Selected Provider is efa", "efa"),
        // https://github.com/aws/aws-ofi-nccl/issues/803 (no EFA device in the container)
        Arguments.of(
            "node-a:4021:4021 [0] NCCL INFO NET/OFI Selected Provider is tcp (found 1 nics)",
            "tcp"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lines")
  void keepsTheProvider(String line, String provider, @TempDir Path dir) throws Exception {
    Path log = dir.resolve("a.log");
    Files.writeString(log, line + "\n");
    List<NetPluginEvent> events =
        new NcclLogReader(1).read(LogInput.expand(List.of(log.toString()))).netPlugins();
    assertThat(events)
        .extracting(NetPluginEvent::plugin, NetPluginEvent::outcome, NetPluginEvent::provider)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "OFI", NetPluginEvent.Outcome.INITIALIZED, provider));
  }
}
