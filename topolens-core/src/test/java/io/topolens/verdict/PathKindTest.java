package io.topolens.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The network path behind the plugin names NCCL prints after {@code via NET/}. */
class PathKindTest {

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    // NCCL's own transports
    "Socket, TCP",
    "IB, IB",
    // nccl-rdma-sharp-plugins / HPC-X (held-out set 27 l05: NET/IBext_v8/7/GDRDMA)
    "IBext_v8, IB",
    // aws-ofi-nccl before and after 1.7 (AWS Libfabric), Slingshot's cxi through it
    "AWS Libfabric, EFA",
    "Libfabric, EFA",
    // Google's TCP plugins: google/nccl-fastsocket (net_fastsocket.cc, host memory only; nccl
    // issue 651: via NET/FastSocket/0), GPUDirect-TCPX (its ncclNetPlugin_v7 name) and TCPXO
    // (NCCL_NET=FasTrak in GKE's A3 Mega guides)
    "FastSocket, TCP",
    "GPUDirectTCPX_v7, TCP",
    "FasTrak, TCP",
    // Google's gIB (RoCE on A3 Ultra and A4), NCCL_NET=gIB
    "gIB, IB",
  })
  void knownPlugins(String plugin, PathKind kind) {
    assertThat(PathKind.ofKnownNetPlugin(plugin)).contains(kind);
    assertThat(PathKind.ofNetPlugin(plugin)).isEqualTo(kind);
  }

  /** A custom plugin of no known name is taken for RDMA (nccl-tests issue 321's H20 VMs). */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"NCCL RDMA Plugin v6"})
  void unknownPluginsAreRdma(String plugin) {
    assertThat(PathKind.ofKnownNetPlugin(plugin)).isEmpty();
    assertThat(PathKind.ofNetPlugin(plugin)).isEqualTo(PathKind.IB);
  }
}
