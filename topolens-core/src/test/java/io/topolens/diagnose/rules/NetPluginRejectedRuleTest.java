package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * plugin/net.cc refusing a plugin library, or left with no network at all. Sources of the texts:
 * nccl/messages/README.md.
 */
class NetPluginRejectedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "a plugin's maxP2pBytes out of range (transport/net.cc:775, 2.28.3's format)",
                """
                node-a:4021:4021 [0] NCCL INFO NET/Plugin: Loaded net plugin NCCL RDMA Plugin v6 (v6)
                node-a:4021:4095 [0] transport/net.cc:775 NCCL WARN recvProxySetup: net plugin returned invalid value for maxP2pBytes 0       [allowed range: 0 - 1099511627776]
                """)
            .expect(
                error("reported properties NCCL cannot use", "maxP2pBytes", "NCCL_NET_PLUGIN=none")
                    .at("a.log:2")),
        given(
                "a CollNet plugin's maxCollBytes (transport/coll_net.cc, 2.28.3's format)",
                """
                node-a:4021:4095 [0] transport/coll_net.cc:0 NCCL WARN sendProxySetup: collnet plugin returned invalid value for maxCollBytes 0       [allowed range: 0 - 1099511627776]
                """)
            .expect(error("another version of NCCL's plugin API").at("a.log:1")),
        given(
            "NCCL's own check of its proxy's request size is not the plugin's"
                + " (nccl-internal-error's)",
            """
            node-a:4021:4095 [0] transport/coll_net.cc:469 NCCL WARN sendProxyConnect: reqSize is 24 != 32
            """),
        given(
                "the net plugin's device-side unpack built for another NCCL (NCCL 2.28.3"
                    + " plugin/net.cc:144's format, nccl/messages)",
                """
                node-a:4021:4090 [0] plugin/net.cc:144 NCCL WARN NCCL_DEVICE_UNPACK plugin has incompatible version 2, this NCCL build is compatible with 1, not using it
                """)
            .expect(
                warn("NCCL refused the network plugin library: API version not supported")
                    .at("a.log:1")),
        given(
            "no plugin at all is NCCL's normal internal network (NCCL 2.27 INFO;"
                + " https://github.com/NVIDIA/nccl/issues/1866)",
            """
            cl4-gpu04-vm:67905:67916 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so.
            """),
        given(
                "no plugin could start after aws-ofi-nccl failed (plugin/net.cc, 2.27)",
                """
                node-a:4021:4090 [0] nccl_net_ofi_init:79 NCCL WARN NET/OFI Initializing plugin failed
                node-a:4021:4090 [0] plugin/net.cc:306 NCCL WARN Failed to initialize any NET plugin
                """)
            .expect(error("none initialised", "NCCL_SOCKET_IFNAME").at("a.log:2")),
        given(
                "a plugin library of an API version this NCCL does not support (2.28.3)",
                """
                node-a:4021:4090 [0] plugin/net.cc:164 NCCL WARN External network plugin libnccl-net-ofi.so is unsupported
                node-a:4021:4090 [0] NCCL INFO Using network IB
                """)
            .expect(warn("API version", "release notes").at("a.log:1")),
        given(
            "a plugin that is simply not installed",
            """
            node-a:4021:4090 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Loading internal plugin
            node-a:4021:4090 [0] NCCL INFO Using network Socket
            """),
        given(
            "one plugin that failed while another started is not this finding",
            """
            node-a:4021:4090 [0] plugin/net.cc:290 NCCL WARN Failed to initialize NET plugin IB
            node-a:4021:4090 [0] NCCL INFO Using network Socket
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new NetPluginRejected(), "net-plugin-rejected", c);
  }
}
