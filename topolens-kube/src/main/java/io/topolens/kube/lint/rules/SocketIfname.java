package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.EnvVar;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code NCCL_SOCKET_IFNAME} that selects the loopback, docker or veth interfaces, which do not
 * reach other nodes (warn).
 */
public final class SocketIfname implements LintRule {
  private static final List<String> LOCAL = List.of("lo", "docker", "veth", "virbr", "cni");

  @Override
  public String id() {
    return "socket-ifname";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.rankGroups()) {
      for (String name : List.of("NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME")) {
        for (EnvVar v : Facts.env(g, name)) {
          String val = v.value() == null ? "" : v.value().strip();
          if (val.isEmpty() || val.startsWith("^")) {
            continue;
          }
          for (String prefix : val.split(",")) {
            String p = prefix.replace("=", "").toLowerCase(Locale.ROOT);
            if (LOCAL.stream().anyMatch(p::startsWith)) {
              out.add(
                  new Finding(
                      id(),
                      Severity.WARN,
                      Facts.who(w, g) + ": " + name + "=" + val + " selects " + p,
                      "The value lists interfaces to use; "
                          + p
                          + " is a local interface that does not reach other nodes, so the bootstrap and any TCP traffic between nodes fail or hang.",
                      Facts.lines(v.evidence()),
                      "Use the pod's interface ("
                          + name
                          + "=eth0), exclude the local ones (^lo,docker), or leave it unset."));
              break;
            }
          }
        }
      }
    }
    return out;
  }
}
