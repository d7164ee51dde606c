package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NetPluginFallbackRuleTest {

  /** aws-ofi-nccl loads, finds no EFA provider, and the process ends on sockets (EKS g6e seed). */
  static final String OFI_FAILS_THEN_SOCKET =
      """
      pod-a:152:386 [0] NCCL INFO NET/Plugin: Loaded net plugin Libfabric (v10)
      pod-a:152:386 [0] NCCL INFO Successfully loaded external plugin libnccl-net.so
      pod-a:152:386 [0] NCCL INFO NET/OFI Initializing aws-ofi-nccl 1.16.2
      pod-a:152:386 [0] NCCL INFO NET/OFI No eligible providers were found
      [2025-12-28 16:04:25] pod-a:152:386 [0] int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):352 NCCL WARN NET/OFI aws-ofi-nccl initialization failed
      pod-a:152:386 [0] NCCL INFO NET/IB : No device found.
      pod-a:152:386 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.4.51<0>
      pod-a:152:386 [0] NCCL INFO Using network Socket
      pod-a:152:386 [0] NCCL INFO ncclCommInitRankConfig comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 36000 commId 0xabc - Init START
      """;

  /** The other pod of the same job: EFA works. */
  static final String OFI_WORKS =
      """
      pod-b:153:390 [0] NCCL INFO NET/Plugin: Loaded net plugin Libfabric (v10)
      pod-b:153:390 [0] NCCL INFO Successfully loaded external plugin libnccl-net.so
      pod-b:153:390 [0] NCCL INFO NET/OFI Initializing aws-ofi-nccl 1.16.2
      pod-b:153:390 [0] NCCL INFO NET/OFI Selected Provider is efa (found 1 nics)
      pod-b:153:390 [0] NCCL INFO Using network Libfabric
      pod-b:153:390 [0] NCCL INFO ncclCommInitRankConfig comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 36000 commId 0xabc - Init START
      """;

  /** A host without RDMA: IB finds nothing, nobody asked for it, sockets are the plan. */
  static final String NO_RDMA_HOST =
      """
      vm:1961:1983 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so
      vm:1961:1983 [0] NCCL INFO NET/IB : No device found.
      vm:1961:1983 [0] NCCL INFO NET/IB : Using [RO]; OOB eth0:192.0.2.2<0>
      vm:1961:1983 [0] NCCL INFO Failed to initialize NET plugin IB
      vm:1961:1983 [0] NCCL INFO NET/Socket : Using [0]eth0:192.0.2.2<0>
      vm:1961:1983 [0] NCCL INFO Initialized NET plugin Socket
      vm:1961:1983 [0] NCCL INFO Using network Socket
      """;

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "aws-ofi-nccl finds no EFA provider, NCCL falls back to Socket",
                OFI_FAILS_THEN_SOCKET)
            .expect(
                error(
                        "Network plugin aws-ofi-nccl (EFA/libfabric) failed; NCCL fell back to TCP sockets",
                        "On 1 process(es)",
                        "instead of EFA",
                        "this job's logs show one node")
                    .at("a.log:4", "a.log:5", "a.log:8")),
        given(
                "only the pod whose plugin failed is reported; the job spans two pods",
                OFI_FAILS_THEN_SOCKET,
                OFI_WORKS)
            .expect(
                error("On 1 process(es)", "this job spans nodes")
                    .at("a.log:4", "a.log:5", "a.log:8")),
        given(
                "NCCL_IB_HCA asks for IB, no IB device, Socket used",
                """
                node-a:100:100 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_0
                node-a:100:100 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation
                node-a:100:100 [0] NCCL INFO NET/IB : No device found.
                node-a:100:100 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>
                node-a:100:100 [0] NCCL INFO Using network Socket
                """)
            .expect(error("Network plugin IB failed", "instead of RDMA").at("a.log:3", "a.log:5")),
        given(
                "NCCL_IB_DISABLE=0 set, the only RDMA device cannot be opened in the container,"
                    + " NCCL falls back to sockets (https://github.com/NVIDIA/nccl/issues/451)",
                """
                NCCL INFO NCCL_IB_DISABLE set by environment to 0.
                misc/ibvwrap.cc:212 NCCL WARN Call to ibv_open_device failed
                transport/net_ib.cc:148 NCCL WARN NET/IB : Unable to open device mlx5_bond_0
                NCCL INFO NET/IB : No device found.
                NCCL INFO NET/Socket : Using [0]bond0:200.1.93.2<0>
                NCCL INFO Using network Socket
                """)
            .expect(
                error("Network plugin IB failed", "IB was asked for", "NVIDIA/nccl issue 958")
                    .at("a.log:4", "a.log:6")),
        given(
            "RDMA stopped on the host and nothing asks for IB: sockets are the plan"
                + " (https://github.com/Oneflow-Inc/oneflow/pull/9115)",
            """
            oneflow-15:3907318:3907604 [1] NCCL INFO Bootstrap : Using eno1:192.168.1.15<0>
            oneflow-15:3907318:3907604 [1] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation
            oneflow-15:3907318:3907604 [1] NCCL INFO NET/IB : No device found.
            oneflow-15:3907318:3907604 [1] NCCL INFO Using network Socket
            """),
        given(
                "NCCL_NET_PLUGIN names a library that is not installed",
                """
                node-a:100:100 [0] NCCL INFO NCCL_NET_PLUGIN set by environment to ofi
                node-a:100:100 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net-ofi.so.
                node-a:100:100 [0] NCCL INFO NET/IB : No device found.
                node-a:100:100 [0] NCCL INFO Using network Socket
                """)
            .expect(error("Network plugin libnccl-net-ofi.so failed").at("a.log:2", "a.log:4")),
        given(
                "a plugin library that is installed but does not load (awsome-distributed-ai issue 292)",
                """
                node-a:100:100 [0] NCCL INFO NET/Plugin : dlerror=/opt/amazon/efa/lib/libfabric.so.1: version `FABRIC_1.7' not found (required by /fsx/ubuntu/awsome-distributed-training/3.test_cases/10.FSDP/pt_fsdp/lib/python3.10/site-packages/torch/lib/../../../../libnccl-net.so) No plugin found (libnccl-net.so), using internal implementation
                node-a:100:100 [0] NCCL INFO NET/IB : No device found.
                node-a:100:100 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>
                node-a:100:100 [0] NCCL INFO Using network Socket
                """)
            .expect(
                error("Network plugin libnccl-net.so failed", "instead of EFA")
                    .at("a.log:1", "a.log:4")),
        given(
                "the same line alone: the log ends before NCCL names its network"
                    + " (https://github.com/awslabs/awsome-distributed-ai/issues/292)",
                """
                 [0] NCCL INFO NET/Plugin : dlerror=/opt/amazon/efa/lib/libfabric.so.1: version `FABRIC_1.7' not found (required by /fsx/ubuntu/awsome-distributed-training/3.test_cases/10.FSDP/pt_fsdp/lib/python3.10/site-packages/torch/lib/../../../../libnccl-net.so) No plugin found (libnccl-net.so), using internal implementation
                """)
            .expect(
                warn("libnccl-net.so is installed but did not load", "internal implementation")
                    .at("a.log:1")),
        given(
            "no plugin installed, 2.19 dlerror form, log ends there"
                + " (https://github.com/NVIDIA/nccl/issues/1231): nothing to judge",
            """
            VM-0-14-tencentos:162637:162637 [6] NCCL INFO NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: No such file or directory No plugin found (libnccl-net.so), using internal implementation
            """),
        given(
            "no plugin installed (2.19+ form, nccl issue 1504): sockets are no fallback",
            """
            node-a:100:100 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so
            node-a:100:100 [0] NCCL INFO NET/Plugin: Using internal network plugin.
            node-a:100:100 [0] NCCL INFO NET/IB : No device found.
            node-a:100:100 [0] NCCL INFO Using network Socket
            """),
        given("no RDMA on the host and none asked for: sockets are no fallback", NO_RDMA_HOST),
        given("EFA works", OFI_WORKS),
        given(
            "aws-ofi-nccl fails but NCCL uses IB, not sockets",
            """
            node-a:100:100 [0] NCCL INFO NET/OFI No eligible providers were found
            node-a:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>
            node-a:100:100 [0] NCCL INFO Using network IB
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new NetPluginFallback(), "net-plugin-fallback", c);
  }
}
