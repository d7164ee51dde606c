package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * {@code net-plugin-rejected}: NCCL refused a network plugin library for its API version ({@code
 * External network plugin X is unsupported}, plugin/net.cc 2.24+), or no network plugin at all
 * could start, its internal IB and Socket included ({@code Failed to initialize any NET plugin}).
 */
public final class NetPluginRejected implements Rule {

  @Override
  public String id() {
    return "net-plugin-rejected";
  }

  @Override
  public List<Finding> check(Job job) {
    List<Finding> out = new ArrayList<>();
    List<NcclWarning> none = plugin(job, m -> m.contains("failed to initialize any net plugin"));
    if (!none.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "No network plugin could start, not even NCCL's own sockets",
              "NCCL tried every network it has (an external plugin, then its internal IB and Socket"
                  + " transports) and none initialised, so the communicator has no network and init fails."
                  + " The internal Socket transport fails only when it finds no usable interface"
                  + " (NCCL_SOCKET_IFNAME matching nothing, a container with only lo); the lines before this"
                  + " one name each plugin's reason.",
              none.stream().map(NcclWarning::evidence).toList(),
              "Read the WARN lines before it (NET/Socket, NET/IB, NET/OFI); list the interfaces where the rank"
                  + " runs (ip -o addr) and set NCCL_SOCKET_IFNAME to one that exists, unset NCCL_NET if it names"
                  + " a network this host lacks."));
    }
    List<NcclWarning> unsupported =
        plugin(
            job,
            m ->
                (m.contains("network plugin") && m.contains("is unsupported"))
                    // plugin/net.cc 2.19+: the plugin's device-side unpack (GPUDirect TCPX)
                    // built for another NCCL
                    || (m.contains("plugin has incompatible version")
                        && m.contains("not using it")));
    if (!unsupported.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.WARN,
              "NCCL refused the network plugin library: API version not supported",
              "NCCL found the plugin library but none of the plugin API versions it exports is one this NCCL"
                  + " can use (a plugin built for a much older or newer NCCL), so NCCL ignores it and runs on its"
                  + " internal IB or TCP sockets: on EFA that means TCP between nodes.",
              unsupported.stream().map(NcclWarning::evidence).toList(),
              "Install a plugin release built for this NCCL version (aws-ofi-nccl's release notes list the NCCL"
                  + " versions each supports), or an NCCL the plugin supports; check which library NCCL_NET_PLUGIN"
                  + " or the library path makes NCCL load."));
    }
    // transport/net.cc and coll_net.cc (2.19+): the plugin's getProperties gave a maximum transfer
    // size outside the range NCCL allows, and NCCL fails the connection (ncclInternalError)
    List<NcclWarning> properties =
        plugin(
            job, m -> m.contains("plugin returned invalid value for max") && m.contains("bytes"));
    if (!properties.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "The network plugin reported properties NCCL cannot use: built for another NCCL",
              "NCCL asked the network (or CollNet) plugin for its device properties while setting up a"
                  + " connection and got a maximum transfer size (maxP2pBytes, maxCollBytes) outside the"
                  + " range it allows, so it fails the connection and the communicator's init"
                  + " (ncclInternalError). NCCL's internal IB and Socket transports fill these fields"
                  + " themselves; a value of 0 or past the range comes from an external plugin"
                  + " (libnccl-net*.so: aws-ofi-nccl, a vendor's IB, SHARP or TCPX plugin) built against"
                  + " another version of NCCL's plugin API than the one this NCCL loaded it through, or"
                  + " from a bug of the plugin.",
              properties.stream().map(NcclWarning::evidence).toList(),
              "Install the plugin release built for this NCCL version (the log's NET/Plugin lines name"
                  + " the library and the API version NCCL loaded, the plugin's release notes the NCCL"
                  + " versions it supports), or run the NCCL the plugin was built for; to confirm, run"
                  + " once without the plugin (NCCL_NET_PLUGIN=none, NCCL_COLLNET_ENABLE=0): the job then"
                  + " uses NCCL's internal transports."));
    }
    return out;
  }

  private static List<NcclWarning> plugin(Job job, Predicate<String> test) {
    return job.warnings().stream()
        .filter(w -> w.evidence() != null)
        .filter(w -> test.test(w.message().toLowerCase(Locale.ROOT)))
        .toList();
  }
}
