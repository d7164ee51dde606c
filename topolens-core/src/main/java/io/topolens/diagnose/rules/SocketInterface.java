package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Interface;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code socket-interface}: NCCL bootstraps or sends socket traffic over an interface other hosts
 * cannot reach (lo, docker0, a veth, an IPv6 link-local address) in a multi-node job, or found no
 * interface at all (NCCL_SOCKET_IFNAME matches nothing).
 */
public final class SocketInterface implements Rule {

  @Override
  public String id() {
    return "socket-interface";
  }

  @Override
  public List<Finding> check(Job job) {
    List<Finding> out = new ArrayList<>();
    List<NcclWarning> none =
        job.warnings().stream()
            .filter(w -> w.kind() == NcclWarning.Kind.SOCKET)
            .filter(
                w -> {
                  String m = w.message().toLowerCase(Locale.ROOT);
                  return m.contains("no usable listening interface")
                      || m.contains("no socket interface found")
                      || m.contains("no interface found")
                      || m.contains("could not find interface");
                })
            .toList();
    String ifname = job.envValue("NCCL_SOCKET_IFNAME");
    if (!none.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "NCCL found no usable socket interface",
              "NCCL could not find a network interface for bootstrap"
                  + (ifname != null
                      ? ": NCCL_SOCKET_IFNAME="
                          + ifname
                          + " matches none of the container's interfaces."
                      : ".")
                  + " Communicator init fails.",
              none.stream().map(NcclWarning::evidence).toList(),
              "List the interfaces inside the pod (ip -o addr) and set NCCL_SOCKET_IFNAME to the primary one (eth0"
                  + " on EKS), or to an exclusion such as ^lo,docker0; prefixes match, =name matches exactly."));
    }
    if (!job.multiNode()) {
      return out;
    }
    List<Evidence> bad = new ArrayList<>();
    List<String> names = new ArrayList<>();
    boolean loopback = false;
    for (Interface i : job.interfaces()) {
      String kind = unreachable(i);
      if (kind != null) {
        bad.add(i.evidence());
        if (!names.contains(i.name() + " (" + kind + ")")) {
          names.add(i.name() + " (" + kind + ")");
        }
        loopback |= kind.equals("loopback");
      }
    }
    if (!bad.isEmpty()) {
      out.add(
          new Finding(
              id(),
              loopback ? Severity.ERROR : Severity.WARN,
              "NCCL uses an interface other nodes may not reach: " + String.join(", ", names),
              "This job spans nodes, but NCCL chose "
                  + String.join(", ", names)
                  + " for bootstrap or socket traffic. Peers on other nodes cannot connect to a loopback address, and"
                  + " container bridges (docker0, veth, cni) or IPv6 link-local addresses are reachable only on their"
                  + " own host or link, so init hangs or times out, or traffic takes a slow path.",
              bad,
              "Set NCCL_SOCKET_IFNAME to the interface that carries pod-to-pod traffic (eth0 on EKS), e.g."
                  + " NCCL_SOCKET_IFNAME=eth0, or exclude the bad ones: NCCL_SOCKET_IFNAME=^lo,docker0."));
    }
    return out;
  }

  /** Why an interface is unreachable from other nodes, or null. */
  static String unreachable(Interface i) {
    String n = i.name();
    String a = i.address().toLowerCase(Locale.ROOT);
    if (n.equals("lo") || a.startsWith("127.") || a.equals("::1")) {
      return "loopback";
    }
    if (n.startsWith("docker")
        || n.startsWith("veth")
        || n.startsWith("virbr")
        || n.startsWith("cni")
        || n.startsWith("br-")) {
      return "container bridge";
    }
    if (a.startsWith("fe80")) {
      return "IPv6 link-local";
    }
    return null;
  }
}
