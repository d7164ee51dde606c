package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.model.Communicator;
import io.topolens.model.Direction;
import io.topolens.model.Edge;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import io.topolens.model.RankId;
import io.topolens.model.Transport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code duplicate-gpu}: two ranks of one communicator on the same CUDA device ({@code Duplicate
 * GPU detected : rank A and rank B both on CUDA device X}); or, where NCCL did not check (before
 * 2.4), its connection lines put two ranks on one device of one host: a peer it reached over P2P or
 * SHM (transports of one node) on the device another rank of that host printed as its own, while no
 * process of that host printed lines as the peer — two machines NCCL took for one; or the launcher
 * placed the two ends of such a connection on different hosts ({@link LauncherHostClash}), or the
 * two ends printed one host name but different addresses of one interface ({@link
 * AddressHostClash}).
 */
public final class DuplicateGpu extends WarningRule {

  public DuplicateGpu() {
    super(Severity.ERROR, NcclWarning.Kind.DUPLICATE_GPU);
  }

  @Override
  public String id() {
    return "duplicate-gpu";
  }

  @Override
  String title() {
    return "Two ranks on one GPU";
  }

  @Override
  String explanation() {
    return "NCCL found two ranks of one communicator on the same CUDA device and refused to build it (ncclInvalidUsage): every rank needs a GPU of its own. Usual causes: more processes per node than GPUs, a script that picks one fixed device (cuda:0, a default GPU) instead of the rank's own, torch.cuda.set_device never called before the first collective, or CUDA_VISIBLE_DEVICES showing each process the same single GPU.";
  }

  /** The ranks and devices the lines name, where the reader read them. */
  @Override
  String title(List<NcclWarning> hits) {
    List<String> pairs =
        hits.stream()
            .filter(w -> w.detail() instanceof NcclWarning.Detail.SameDevice)
            .map(w -> (NcclWarning.Detail.SameDevice) w.detail())
            .map(d -> "ranks " + d.rank() + " and " + d.other() + " on CUDA device " + d.device())
            .distinct()
            .toList();
    return pairs.isEmpty() ? title() : title() + ": " + Facts.list(pairs, 4);
  }

  @Override
  String fix() {
    return "Start at most one process per GPU (torchrun --nproc_per_node equal to the node's GPU count) and pin each to its local rank before init: torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) (or device_id= in init_process_group); drop hard-coded device indices; check with nvidia-smi that each process holds a different GPU.";
  }

  @Override
  public List<Finding> check(Job job) {
    List<Finding> said = super.check(job);
    if (!said.isEmpty()) {
      return said;
    }
    List<Finding> shared = sharedDevice(job);
    if (!shared.isEmpty()) {
      return shared;
    }
    List<Finding> launcher = LauncherHostClash.check(id(), job);
    return launcher.isEmpty() ? AddressHostClash.check(id(), job) : launcher;
  }

  /** One device of one host that NCCL's connections give to two ranks. */
  private record Clash(String host, String device, int holder, int peer, List<Evidence> lines) {}

  private List<Finding> sharedDevice(Job job) {
    List<Finding> out = new ArrayList<>();
    for (Communicator c : job.communicators()) {
      List<Clash> clashes = clashes(c);
      if (clashes.isEmpty()) {
        continue;
      }
      Clash first = clashes.get(0);
      Set<Evidence> lines = new LinkedHashSet<>();
      clashes.forEach(k -> lines.addAll(k.lines()));
      out.add(
          new Finding(
              id(),
              job.failures().isEmpty() ? Severity.WARN : Severity.ERROR,
              "Two ranks on one GPU of host " + first.host() + ": two machines taken for one?",
              "NCCL connected "
                  + Facts.list(
                      clashes.stream()
                          .map(
                              k ->
                                  "rank "
                                      + k.peer()
                                      + " on device "
                                      + k.device()
                                      + " of "
                                      + k.host()
                                      + " (device "
                                      + k.device()
                                      + " there is rank "
                                      + k.holder()
                                      + "'s)")
                          .toList(),
                      4)
                  + " over P2P or SHM, which NCCL uses only between GPUs it believes are on one"
                  + " node, while no process of that host printed a line as that rank. Two ranks"
                  + " cannot share a GPU, so either two processes run on one GPU, or the rank runs"
                  + " on another machine that NCCL took for this one: NCCL of early 2019 and before"
                  + " cut host names at the first dot (hosts sharing that prefix were one node to it:"
                  + " nccl issue 187, its reporter's PR 198 used the full name), nccl-tests' host hash"
                  + " once gave two names one value (nccl-tests issue 60), and containers or machines"
                  + " with one hostname (in later versions, one boot id or NCCL_HOSTID as well) look"
                  + " alike. NCCL then tries CUDA"
                  + " IPC or shared memory between the machines, which fails (unhandled cuda error)"
                  + " or hangs.",
              List.copyOf(lines),
              "Give every machine a hostname of its own (for NCCL before 2.4, different before the"
                  + " first dot; better, a newer NCCL), a distinct --hostname per container, no"
                  + " NCCL_HOSTID shared by nodes; check with hostname on each node through the"
                  + " launcher. If both ranks do run on one machine, start one process per GPU."));
    }
    return out;
  }

  private static List<Clash> clashes(Communicator c) {
    // the contexts that printed lines as each rank, the devices each host's headers show, and the
    // rank each host printed with each device tag as its own
    Map<Integer, Set<RankId>> own = new HashMap<>();
    Map<String, Set<Integer>> devices = new HashMap<>();
    Map<String, Integer> holder = new HashMap<>();
    Map<String, Evidence> holderLine = new HashMap<>();
    for (Edge e : c.edges()) {
      RankId p = e.printedBy();
      if (p == null) {
        continue;
      }
      boolean receive = e.direction() == Direction.RECEIVE;
      int self = receive ? e.to() : e.from();
      String tag = receive ? e.toDevice() : e.fromDevice();
      own.computeIfAbsent(self, k -> new HashSet<>()).add(p);
      devices.computeIfAbsent(p.host(), k -> new HashSet<>()).add(p.cudaDev());
      if (tag != null) {
        String key = p.host() + "|" + tag;
        if (holder.putIfAbsent(key, self) == null) {
          holderLine.put(key, e.evidence());
        }
      }
    }
    List<Edge> suspects = new ArrayList<>();
    for (Edge e : c.edges()) {
      if (suspect(e, own, devices, holder)) {
        suspects.add(e);
      }
    }
    if (suspects.isEmpty()) {
      return List.of(); // a healthy job: no node to rebuild
    }
    // NCCL's view of its nodes: ranks joined by P2P or SHM connections (which work only within
    // one), and the ranks whose own lines come from one host name, unless NCCL connected two of
    // them over the network (then that name covers machines NCCL told apart)
    Set<String> split = new HashSet<>();
    for (Edge e : c.edges()) {
      if (e.transport() == Transport.NET) {
        for (RankId a : own.getOrDefault(e.from(), Set.of())) {
          for (RankId b : own.getOrDefault(e.to(), Set.of())) {
            if (a.host().equals(b.host())) {
              split.add(a.host());
            }
          }
        }
      }
    }
    Map<Integer, Integer> node = new HashMap<>();
    Map<String, Integer> firstOnHost = new HashMap<>();
    for (Map.Entry<Integer, Set<RankId>> o : own.entrySet()) {
      for (RankId q : o.getValue()) {
        if (!split.contains(q.host())) {
          Integer first = firstOnHost.putIfAbsent(q.host(), o.getKey());
          if (first != null) {
            union(node, first, o.getKey());
          }
        }
      }
    }
    for (Edge e : c.edges()) {
      if (e.transport().intraNodeOnly()) {
        union(node, e.from(), e.to());
      }
    }
    Map<String, Clash> out = new LinkedHashMap<>();
    for (Edge e : suspects) {
      RankId p = e.printedBy();
      boolean receive = e.direction() == Direction.RECEIVE;
      int peer = receive ? e.from() : e.to();
      String tag = receive ? e.fromDevice() : e.toDevice();
      String key = p.host() + "|" + tag;
      int h = holder.get(key);
      // the holder on the node NCCL put the peer on: machines sharing a name that NCCL told apart
      // (each with its own P2P group) are not this
      if (root(node, h) == root(node, peer)) {
        out.putIfAbsent(
            key + "|" + peer,
            new Clash(p.host(), tag, h, peer, List.of(holderLine.get(key), e.evidence())));
      }
    }
    return List.copyOf(out.values());
  }

  /**
   * An intra-node connection whose peer's device another rank of the printing host holds, while no
   * line of that host was printed as the peer: the connections the rest of {@link #clashes} looks
   * at, found before it builds NCCL's view of the nodes.
   */
  private static boolean suspect(
      Edge e,
      Map<Integer, Set<RankId>> own,
      Map<String, Set<Integer>> devices,
      Map<String, Integer> holder) {
    RankId p = e.printedBy();
    // lines that lost their header (host "?") say nothing of where they ran
    if (p == null || !e.transport().intraNodeOnly() || p.host().equals("?")) {
      return false;
    }
    boolean receive = e.direction() == Direction.RECEIVE;
    int peer = receive ? e.from() : e.to();
    String tag = receive ? e.fromDevice() : e.toDevice();
    // a host whose processes all call their GPU device 0 (one visible GPU each): indices say
    // nothing; a peer whose own lines are on this host is where NCCL said
    if (tag == null || devices.get(p.host()).size() < 2) {
      return false;
    }
    for (RankId q : own.getOrDefault(peer, Set.of())) {
      if (q.host().equals(p.host())) {
        return false;
      }
    }
    Integer h = holder.get(p.host() + "|" + tag);
    return h != null && h != peer;
  }

  private static void union(Map<Integer, Integer> parent, int a, int b) {
    int ra = root(parent, a);
    int rb = root(parent, b);
    if (ra != rb) {
      parent.put(ra, rb);
    }
  }

  private static int root(Map<Integer, Integer> parent, int r) {
    int x = r;
    Integer p;
    while ((p = parent.get(x)) != null && p != x) {
      x = p;
    }
    return x;
  }
}
