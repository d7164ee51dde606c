package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.model.Communicator;
import io.topolens.model.Edge;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.LaunchCommand;
import io.topolens.model.RankId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link DuplicateGpu}'s form read against the launcher: mpirun placed two ranks on different hosts
 * ({@code -H 192.168.2.249:1,192.168.2.243:1}), yet NCCL joined them over P2P or SHM, transports it
 * uses only between GPUs it believes are on one node: two machines NCCL took for one.
 */
final class LauncherHostClash {
  private LauncherHostClash() {}

  /** Where mpirun put the two ends of an intra-node connection, and the host name NCCL printed. */
  private record Clash(
      int from, String fromHost, int to, String toHost, String printedOn, Evidence line) {}

  static List<Finding> check(String id, Job job) {
    for (LaunchCommand l : job.launches()) {
      if (l.slots().stream().distinct().count() < 2 || l.slots().stream().anyMatch(h -> local(h))) {
        continue;
      }
      Map<String, Clash> clashes = new LinkedHashMap<>();
      for (Communicator c : job.communicators()) {
        for (Edge e : c.edges()) {
          String a = l.hostOf(e.from());
          String b = l.hostOf(e.to());
          if (!e.transport().intraNodeOnly() || a == null || b == null || a.equals(b)) {
            continue;
          }
          RankId p = e.printedBy();
          String on = p == null || p.host().equals("?") ? null : p.host();
          clashes.putIfAbsent(
              Math.min(e.from(), e.to()) + "|" + Math.max(e.from(), e.to()),
              new Clash(e.from(), a, e.to(), b, on, e.evidence()));
        }
      }
      if (!clashes.isEmpty()) {
        return List.of(finding(id, job, l, List.copyOf(clashes.values())));
      }
    }
    return List.of();
  }

  private static Finding finding(String id, Job job, LaunchCommand l, List<Clash> clashes) {
    Clash first = clashes.get(0);
    Set<String> names = new LinkedHashSet<>();
    clashes.stream().map(Clash::printedOn).filter(n -> n != null).forEach(names::add);
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(l.evidence());
    clashes.stream().map(Clash::line).distinct().forEach(evidence::add);
    return new Finding(
        id,
        job.failures().isEmpty() ? Severity.WARN : Severity.ERROR,
        "Ranks mpirun placed on two hosts joined over "
            + first.line().text().substring(first.line().text().lastIndexOf(" via ") + 5).strip()
            + ": two machines taken for one?",
        "mpirun placed "
            + Facts.list(
                clashes.stream()
                    .map(
                        k ->
                            "rank "
                                + k.from()
                                + " on "
                                + k.fromHost()
                                + " and rank "
                                + k.to()
                                + " on "
                                + k.toHost())
                    .toList(),
                4)
            + " (its host list, line "
            + l.evidence().line()
            + "), yet NCCL connected them over P2P or SHM, which it uses only between GPUs it"
            + " believes are on one node"
            + (names.isEmpty()
                ? ""
                : ", with every line printed under the host name " + String.join(", ", names))
            + ". NCCL tells nodes apart by host name (NCCL of early 2019 and before cut it at the"
            + " first dot, nccl issue 187; later versions add the boot id, or take NCCL_HOSTID):"
            + " two machines with one"
            + " hostname, as cloned machines or containers with one --hostname have, look like one"
            + " node to it, and it then tries CUDA IPC or shared memory between them, which fails"
            + " or hangs. Unless the two addresses are one machine, this is that.",
        evidence,
        "Give every machine a hostname of its own (hostnamectl set-hostname; a distinct --hostname"
            + " per container) and leave NCCL_HOSTID unset or different per node; check with mpirun"
            + " -H ... hostname that each host answers with its own name.");
  }

  /** A loopback name: every rank on it is on the launching machine. */
  private static boolean local(String host) {
    return host.equals("localhost") || host.startsWith("127.") || host.equals("::1");
  }
}
