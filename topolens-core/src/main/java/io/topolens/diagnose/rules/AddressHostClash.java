package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.model.Communicator;
import io.topolens.model.Direction;
import io.topolens.model.Edge;
import io.topolens.model.Evidence;
import io.topolens.model.Interface;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import io.topolens.model.RankId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link DuplicateGpu}'s form read against the addresses NCCL printed: two processes of one host
 * name chose the same interface with different addresses ({@code node1 ... NET : Using interface
 * eth1:100.102.32.176} and {@code node1 ... eth1:100.102.32.175}), so they run on two machines, yet
 * NCCL joined their ranks over P2P or SHM, transports of one node: two machines with one hostname
 * that NCCL took for one.
 */
final class AddressHostClash {
  private AddressHostClash() {}

  /** A process's address on an interface, with the line that printed it. */
  private record Address(String iface, String address, Evidence line) {}

  /** Two ranks of one host name, on different addresses of one interface, joined on one node. */
  private record Clash(
      String host, int self, Address selfAt, int peer, Address peerAt, Evidence line) {}

  static List<Finding> check(String id, Job job) {
    Map<String, List<Address>> addresses = new HashMap<>();
    for (Interface i : job.interfaces()) {
      if (i.role() != Interface.Role.OOB && i.address() != null && !i.address().isBlank()) {
        addresses
            .computeIfAbsent(i.process(), k -> new ArrayList<>())
            .add(new Address(i.name(), i.address(), i.evidence()));
      }
    }
    Map<String, Clash> clashes = new LinkedHashMap<>();
    // each context's addresses, looked up once per context, not once per connection it printed
    Map<RankId, List<Address>> ofContext = new HashMap<>();
    for (Communicator c : job.communicators()) {
      Map<Integer, RankId> own = new HashMap<>();
      for (Edge e : c.edges()) {
        RankId p = e.printedBy();
        if (p != null) {
          own.putIfAbsent(e.direction() == Direction.RECEIVE ? e.to() : e.from(), p);
        }
      }
      for (Edge e : c.edges()) {
        RankId p = e.printedBy();
        if (p == null || !e.transport().intraNodeOnly() || p.host().equals("?")) {
          continue;
        }
        int self = e.direction() == Direction.RECEIVE ? e.to() : e.from();
        int peer = e.direction() == Direction.RECEIVE ? e.from() : e.to();
        RankId q = own.get(peer);
        if (q == null || !q.host().equals(p.host()) || q.pid() == p.pid()) {
          continue;
        }
        List<Address> selfAddresses =
            ofContext.computeIfAbsent(p, r -> addresses.getOrDefault(process(r), List.of()));
        if (selfAddresses.isEmpty()) {
          continue;
        }
        for (Address a : selfAddresses) {
          for (Address b :
              ofContext.computeIfAbsent(q, r -> addresses.getOrDefault(process(r), List.of()))) {
            if (a.iface().equals(b.iface()) && !a.address().equals(b.address())) {
              clashes.putIfAbsent(
                  Math.min(self, peer) + "|" + Math.max(self, peer),
                  new Clash(p.host(), self, a, peer, b, e.evidence()));
            }
          }
        }
      }
    }
    return clashes.isEmpty() ? List.of() : List.of(finding(id, job, List.copyOf(clashes.values())));
  }

  /** The process key {@link Interface#process()} uses: host and pid. */
  private static String process(RankId r) {
    return r.host() + ":" + r.pid();
  }

  private static Finding finding(String id, Job job, List<Clash> clashes) {
    Clash first = clashes.get(0);
    List<Evidence> evidence = new ArrayList<>();
    for (Clash k : clashes) {
      for (Evidence e : List.of(k.selfAt().line(), k.peerAt().line(), k.line())) {
        if (!evidence.contains(e)) {
          evidence.add(e);
        }
      }
    }
    boolean failed =
        !job.failures().isEmpty()
            || job.warnings().stream()
                .anyMatch(
                    w -> w.kind() == NcclWarning.Kind.P2P || w.kind() == NcclWarning.Kind.SHM);
    return new Finding(
        id,
        failed ? Severity.ERROR : Severity.WARN,
        "Two machines named " + first.host() + " joined over P2P or SHM: NCCL took them for one",
        "Processes printing the host name "
            + first.host()
            + " chose "
            + first.selfAt().iface()
            + " with different addresses ("
            + Facts.list(
                clashes.stream()
                    .map(
                        k ->
                            "rank "
                                + k.self()
                                + " at "
                                + k.selfAt().address()
                                + ", rank "
                                + k.peer()
                                + " at "
                                + k.peerAt().address())
                    .toList(),
                4)
            + "): one interface of one machine has one address, so they run on two machines, yet"
            + " NCCL connected their ranks over P2P or SHM, which it uses only between GPUs it"
            + " believes are on one node. NCCL tells nodes apart by host name (before 2.4 only the"
            + " part before the first dot, nccl issue 187; later versions add the boot id, or take"
            + " NCCL_HOSTID): machines cloned from one image or containers with one --hostname look"
            + " like one node to it, and CUDA IPC or shared memory between them then fails"
            + " (failed to open CUDA IPC handle, unhandled cuda error) or hangs. (Containers of"
            + " one machine that share a hostname but each have an address of their own would look"
            + " the same: then the two ranks are on one machine after all.)",
        evidence,
        "Give every machine a hostname of its own (hostnamectl set-hostname; a distinct --hostname"
            + " per container; for NCCL before 2.4, different before the first dot) and leave"
            + " NCCL_HOSTID unset or different per node; check with mpirun -H ... hostname that each"
            + " host answers with its own name.");
  }
}
