package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Communicator;
import io.topolens.model.EnvSetting;
import io.topolens.model.Evidence;
import io.topolens.model.Interface;
import io.topolens.model.Job;
import io.topolens.model.NcclFailure;
import io.topolens.model.NcclWarning;
import io.topolens.model.PathDetail;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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

  /**
   * The job's findings, and where it judged nothing: one interface name a launcher sent to every
   * host of a job on several hosts (nccl-tests' device lines name them) that then failed at init.
   */
  @Override
  public List<Finding> check(Observed observed) {
    List<Finding> out = check(observed.job());
    return out.isEmpty() ? oneNameForEveryHost(observed) : out;
  }

  private List<Finding> oneNameForEveryHost(Observed observed) {
    Job job = observed.job();
    EnvSetting sent =
        job.env().stream()
            .filter(e -> e.name().equals("NCCL_SOCKET_IFNAME") && e.processes() == 0)
            .filter(e -> !e.value().contains(",") && !e.value().startsWith("^"))
            .findFirst()
            .orElse(null);
    if (sent == null) {
      return List.of();
    }
    Set<String> hosts = new LinkedHashSet<>();
    observed.benches().forEach(v -> v.run().devices().forEach(d -> hosts.add(d.host())));
    job.hosts().stream().filter(h -> !h.equals("?")).forEach(hosts::add);
    List<NcclFailure> failed =
        job.failures().stream()
            .filter(
                f -> f.result().equals("ncclInternalError") || f.result().equals("ncclSystemError"))
            .toList();
    if (hosts.size() < 2 || failed.isEmpty()) {
      return List.of();
    }
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(sent.evidence());
    failed.forEach(f -> evidence.add(f.evidence()));
    return List.of(
        new Finding(
            id(),
            Severity.WARN,
            "One interface name sent to every host: NCCL_SOCKET_IFNAME=" + sent.value(),
            "The launcher's command line sent NCCL_SOCKET_IFNAME="
                + sent.value()
                + " to every process, on "
                + Facts.plural(hosts.size(), "host")
                + " ("
                + Facts.list(List.copyOf(hosts), 4)
                + "), and init failed ("
                + failed.get(0).result()
                + "). NCCL matches the value against each host's own interface names, and machines"
                + " often name their NICs differently (enp6s0 on one, enp4s0 on another): on a host"
                + " where the name matches nothing, NCCL has no interface for its bootstrap; older"
                + " versions say so (no socket interface found), recent ones fail later with an"
                + " internal error (ncclSocketInit: connecting to address with family N is neither"
                + " AF_INET(2) nor AF_INET6(10)). A warning: the log does not show that host's"
                + " interfaces, so check them.",
            evidence,
            "Run ip -br addr on every host through the launcher. Name every host's interface"
                + " (NCCL_SOCKET_IFNAME=enp6s0,enp4s0), or a prefix they share (NCCL_SOCKET_IFNAME=enp"
                + " matches both; =name is exact), or exclude what must not carry NCCL's traffic"
                + " (^lo,docker0); or give the NICs the same name on every machine."));
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
                      || m.contains("could not find interface")
                      // NCCL before 2.4, on a host with no interface of the family (nccl issue 210)
                      || m.contains("address family not supported")
                      // bootstrap.cc 2.23+: NCCL_OOB_NET_IFNAME names no interface
                      || m.contains("verify nccl_oob_net_ifname")
                      // net_ib.cc: no IP interface for the IB/RoCE bootstrap
                      || m.contains("no ip interface found")
                      // bind to an address this host does not have
                      || m.contains("cannot assign requested address")
                      // misc/socket.cc: NCCL_SOCKET_FAMILY asks for a family no interface has
                      // ("Net : unsupported IP family"; 2.12-2.18's matchSubnet "Net : Unsupported
                      // address family type")
                      || (m.contains("unsupported ") && m.contains(" family"));
                })
            .toList();
    String ifname = job.envValue("NCCL_SOCKET_IFNAME");
    // misc/socket.cc 2.4-2.18: no local interface in the subnet of the address to reach (the
    // NCCL_COMM_ID or root address), nccl issue 474
    boolean subnet =
        none.stream().anyMatch(w -> w.message().contains("in the same subnet as remote address"));
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
                  + (subnet
                      ? " `No interface found in the same subnet as remote address` means NCCL looked for a"
                          + " local interface in the subnet of the address it must reach (NCCL_COMM_ID's, when set,"
                          + " or the root's bootstrap address) and this node has none: NCCL_COMM_ID names an address"
                          + " only some nodes share a subnet with."
                      : "")
                  + " Communicator init fails.",
              none.stream().map(NcclWarning::evidence).toList(),
              (subnet
                      ? "Unset NCCL_COMM_ID (let the framework pass the unique id) or give it an address in a"
                          + " subnet every node has an interface in. "
                      : "")
                  + "List the interfaces inside the pod (ip -o addr) and set NCCL_SOCKET_IFNAME to the primary one (eth0"
                  + " on EKS), or to an exclusion such as ^lo,docker0; prefixes match, =name matches exactly."));
    }
    List<NcclWarning> family =
        job.warnings().stream()
            .filter(w -> w.kind() == NcclWarning.Kind.SOCKET && w.evidence() != null)
            .filter(w -> w.message().contains("is neither AF_INET"))
            .toList();
    if (!family.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "NCCL got no valid address to connect to (address family is neither IPv4 nor IPv6)",
              "NCCL tried to connect to a peer address that was never filled in. Recent NCCL versions do not"
                  + " stop when NCCL_SOCKET_IFNAME names an interface that does not exist on the host: the rank"
                  + " publishes an empty address and its peers fail here later"
                  + (ifname != null ? " (NCCL_SOCKET_IFNAME=" + ifname + " here)" : "")
                  + ". Ranks running different NCCL versions, whose bootstrap messages differ, fail the same way.",
              family.stream().map(NcclWarning::evidence).toList(),
              "List the interfaces on every node (ip -o addr) and set NCCL_SOCKET_IFNAME to one that exists on all"
                  + " of them (or a prefix/exclusion such as ^lo,docker0); run one NCCL version on every rank."));
    }
    List<NcclWarning> address =
        job.warnings().stream()
            .filter(w -> w.kind() == NcclWarning.Kind.SOCKET && w.evidence() != null)
            .filter(
                w -> {
                  String m = w.message().toLowerCase(Locale.ROOT);
                  return m.contains("invalid nccl_comm_id")
                      || m.contains("no valid <ipv4")
                      || m.contains("no valid [ipv6]")
                      || m.contains("getting address info");
                })
            .toList();
    if (!address.isEmpty()) {
      String commId = job.envValue("NCCL_COMM_ID");
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "NCCL could not parse or resolve the address it was given",
              "misc/socket.cc could not turn an address into a socket address: NCCL_COMM_ID"
                  + (commId != null ? " (" + commId + " here)" : "")
                  + " is not of the form host:port, [IPv6]:port or ipv4:port, or its host name does not"
                  + " resolve (getaddrinfo failed) where this rank runs. Communicator init fails.",
              address.stream().map(NcclWarning::evidence).toList(),
              "Give NCCL_COMM_ID as <ipv4>:<port>, [<ipv6>]:<port> or <hostname>:<port>, with a name every node"
                  + " resolves (getent hosts NAME inside the container), or unset it and let the launcher pass"
                  + " the unique id."));
    }
    List<NcclWarning> bridge =
        job.warnings().stream()
            .filter(w -> w.evidence() != null && BRIDGE_GATEWAY.matcher(w.message()).find())
            .toList();
    if (!bridge.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.WARN,
              "NCCL's sockets reached a docker bridge address",
              "A socket of NCCL failed on an address of the form 172.17-31.0.1<port>: the gateway address docker"
                  + " gives its bridge networks (docker0, br-*). A rank that picks a bridge interface publishes an"
                  + " address other hosts cannot route to (or that means a different host on each node), so"
                  + " connections through it fail, break (Broken pipe) or are closed, and the proxy's connect to"
                  + " the peer fails with them.",
              bridge.stream().map(NcclWarning::evidence).toList(),
              "Set NCCL_SOCKET_IFNAME to the interface that carries host-to-host traffic (NCCL_SOCKET_IFNAME=eth"
                  + " or ens...), or exclude bridges: NCCL_SOCKET_IFNAME=^docker0,br-,veth,lo; check ip -o addr on"
                  + " every node."));
    }
    Finding gloo = glooOnLoopback(job);
    if (gloo != null) {
      out.add(gloo);
    }
    Finding horovod = horovodWithoutCommonInterface(job);
    if (horovod != null) {
      out.add(horovod);
    }
    Finding ipoib = ipoibAtInit(job);
    if (ipoib != null) {
      out.add(ipoib);
    }
    // a job spans nodes by its ranks, or, in a log that ends before any communicator line (a failed
    // bootstrap), by the hosts that printed NCCL's choice of interface
    long interfaceNodes = job.interfaces().stream().map(i -> job.node(host(i))).distinct().count();
    if (!job.multiNode() && interfaceNodes < 2) {
      Finding commId = loopbackBesideCommId(job);
      if (commId != null) {
        out.add(commId);
      }
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
    // socket traffic over a second interface ("via NET/Socket/1") that other nodes cannot reach
    for (Facts.CommEdge ce : Facts.edges(job, ce -> Facts.isSocket(ce.edge()))) {
      if (!(ce.edge().path() instanceof PathDetail.Net n) || n.device() == null || n.device() < 1) {
        continue;
      }
      for (Interface i : job.interfaces()) {
        if (i.role() == Interface.Role.SOCKET
            && i.index() == n.device()
            && unreachable(i) != null
            && Facts.printedBy(ce, i.process(), i.evidence())
            && !bad.contains(ce.edge().evidence())) {
          bad.add(ce.edge().evidence());
        }
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
                  + " own host or link, so init hangs or times out, or traffic takes a slow path. NCCL lists every"
                  + " interface it uses ([0]eth0 [1]veth...) and spreads socket channels over them: a channel"
                  + " \"via NET/Socket/1\" runs over the second one.",
              bad,
              "Set NCCL_SOCKET_IFNAME to the interface that carries pod-to-pod traffic (eth0 on EKS), e.g."
                  + " NCCL_SOCKET_IFNAME=eth0, or exclude the bad ones: NCCL_SOCKET_IFNAME=^lo,docker0."));
    }
    return out;
  }

  /**
   * PyTorch's Gloo warning that it bound to loopback ({@code Unable to resolve hostname to a
   * (local) address. Using the loopback address as fallback.}); NCCL's catch-all leaves it here,
   * and alone (one host, where loopback works) it is no finding.
   */
  static boolean glooLoopback(NcclWarning w) {
    return reported(w, NcclWarning.SocketSource.GLOO_LOOPBACK);
  }

  /**
   * horovodrun's check of the hosts' interfaces before it starts any rank
   * (runner/driver/driver_service.py, Horovod 0.16-0.28): {@code Unable to find a set of common
   * task-to-task communication interfaces: [(0, {'lo': [...], 'eno1': [...]}), ...]}.
   */
  static boolean noCommonInterface(NcclWarning w) {
    return reported(w, NcclWarning.SocketSource.HOROVOD_NO_COMMON_INTERFACE);
  }

  /**
   * NCCL's trace of its bootstrap returning a system error ({@code bootstrap.cc:270 -> 2}), an INFO
   * line, as the reader read it.
   */
  static boolean bootstrapTrace(NcclWarning w) {
    return reported(w, NcclWarning.SocketSource.BOOTSTRAP_TRACE);
  }

  /** Whether the reader read the line as that socket report. */
  private static boolean reported(NcclWarning w, NcclWarning.SocketSource source) {
    return w.detail() instanceof NcclWarning.Detail.SocketReport r && r.source() == source;
  }

  /** horovodrun found no interface every host has and reaches the others on: null otherwise. */
  private Finding horovodWithoutCommonInterface(Job job) {
    List<NcclWarning> lines =
        job.warnings().stream()
            .filter(w -> w.kind() == NcclWarning.Kind.SOCKET && w.evidence() != null)
            .filter(SocketInterface::noCommonInterface)
            .toList();
    if (lines.isEmpty()) {
      return null;
    }
    return new Finding(
        id(),
        Severity.ERROR,
        "horovodrun found no network interface every host shares",
        "Before it starts any rank, horovodrun runs a task on every host, has the tasks reach each other"
            + " over each interface they have, and keeps the interface names that worked on every host"
            + " (loopback excluded); none was left: the hosts name their interfaces differently (eno1 on"
            + " one, ens5 or ib0 on another), a firewall or security group blocks the task ports between"
            + " them, or only a bridge (docker0) is common and it does not route between hosts. The line"
            + " lists each host's interfaces and addresses.",
        lines.stream().limit(Finding.MAX_EVIDENCE).map(NcclWarning::evidence).toList(),
        "Name the interface: horovodrun --network-interface eth0 (or --network-interfaces for several;"
            + " HOROVOD_GLOO_IFACE under Gloo), give it the same name on every host, open the ports between"
            + " the hosts, and set NCCL_SOCKET_IFNAME to the same interface for NCCL.");
  }

  /**
   * Gloo bound to loopback and its full mesh then failed: the other hosts' ranks were given
   * 127.0.0.1 (aws-do-eks pull 50: hostNetwork pods whose node name resolves to no local address).
   */
  private Finding glooOnLoopback(Job job) {
    List<NcclWarning> loop =
        job.warnings().stream()
            .filter(w -> w.kind() == NcclWarning.Kind.SOCKET && w.evidence() != null)
            .filter(SocketInterface::glooLoopback)
            .toList();
    List<NcclWarning> mesh =
        job.warnings().stream()
            .filter(w -> w.kind() == NcclWarning.Kind.SOCKET && w.evidence() != null)
            .filter(w -> w.message().contains("connectFullMesh failed"))
            .toList();
    if (loop.isEmpty() || mesh.isEmpty()) {
      return null;
    }
    List<Evidence> evidence = new ArrayList<>();
    loop.stream().limit(2).forEach(w -> evidence.add(w.evidence()));
    mesh.stream().limit(2).forEach(w -> evidence.add(w.evidence()));
    String ifname = job.envValue("GLOO_SOCKET_IFNAME");
    return new Finding(
        id(),
        Severity.ERROR,
        "PyTorch's Gloo group bound to loopback, and its ranks could not connect",
        "Gloo (the CPU process group PyTorch, vLLM and others create beside NCCL's) picks its address by"
            + " resolving the host's name; where the name resolves to no local address (a hostNetwork pod whose"
            + " /etc/hosts lacks the node's name, a container whose hostname is not in DNS) it falls back to"
            + " 127.0.0.1 and publishes that address. Ranks on other hosts then connect to their own loopback,"
            + " are refused or time out, and connectFullMesh fails: the group, and the job with it, never"
            + " starts."
            + (ifname != null
                ? " GLOO_SOCKET_IFNAME="
                    + ifname
                    + " is set where the command runs, but Gloo did not use it in the process that warned"
                    + " (a worker started by Ray or another launcher does not inherit the shell's variables)."
                : ""),
        evidence,
        "Set GLOO_SOCKET_IFNAME (and NCCL_SOCKET_IFNAME) to the interface the hosts reach each other on, in"
            + " the environment of every worker process (Ray's runtime_env or the pod spec, not only the"
            + " launching shell), e.g. eth0 or ^lo,docker,veth; or make the host's name resolve to that address"
            + " (getent hosts $(hostname) inside the container).");
  }

  /**
   * Bootstrap on loopback while NCCL_COMM_ID names a root at another address: with NCCL_COMM_ID
   * set, NCCL picks the interface in the subnet of that address (so that every node agrees on one),
   * and loopback is in none but 127/8's. A rank that bootstraps on {@code lo} publishes 127.0.0.1,
   * which no rank on another host reaches: NCCL 2.29-2.30.2's inverted subnet test
   * (src/os/linux.cc's matchSubnet, fixed in 2.30.3: nccl pull 2047) picked it, as does
   * NCCL_SOCKET_IFNAME=lo. Null when the job shows no such pair.
   */
  private Finding loopbackBesideCommId(Job job) {
    String commId = job.envValue("NCCL_COMM_ID");
    if (commId == null) {
      return null;
    }
    String root = commIdHost(commId);
    if (root.isEmpty()
        || root.startsWith("127.")
        || root.equals("::1")
        || root.equalsIgnoreCase("localhost")) {
      return null;
    }
    List<Interface> loop =
        job.interfaces().stream()
            .filter(i -> i.role() == Interface.Role.BOOTSTRAP && "loopback".equals(unreachable(i)))
            .toList();
    if (loop.isEmpty()) {
      return null;
    }
    List<Evidence> evidence = new ArrayList<>();
    job.env().stream()
        .filter(e -> e.name().equals("NCCL_COMM_ID") && e.evidence() != null)
        .findFirst()
        .ifPresent(e -> evidence.add(e.evidence()));
    loop.stream().map(Interface::evidence).limit(2).forEach(evidence::add);
    String ifname = job.envValue("NCCL_SOCKET_IFNAME");
    return new Finding(
        id(),
        Severity.ERROR,
        "Bootstrap on loopback while NCCL_COMM_ID names " + root,
        "NCCL_COMM_ID="
            + commId
            + " puts the bootstrap root at "
            + root
            + ", yet NCCL bootstraps on "
            + loop.get(0).name()
            + " ("
            + loop.get(0).address()
            + "). With NCCL_COMM_ID set, NCCL picks the interface in the subnet of that address, so"
            + " that every node uses one network; loopback is in no subnet but 127/8's. This rank"
            + " publishes a loopback address to the root, and no rank on another host can connect to"
            + " it: a job on more than one host hangs or fails in bootstrap. "
            + (ifname != null
                ? "NCCL_SOCKET_IFNAME=" + ifname + " is set and may force it."
                : "Without NCCL_SOCKET_IFNAME forcing it, this is NCCL's subnet test inverted"
                    + " (src/os/linux.cc's matchSubnet, the socket code NCCL 2.29 moved there; fixed in 2.30.3),"
                    + " which rejects the interface in the root's subnet and takes lo."),
        evidence,
        "Set NCCL_SOCKET_IFNAME to the interface in "
            + root
            + "'s subnet (ip -o -4 addr on each node; e.g. NCCL_SOCKET_IFNAME=eth0) and keep lo"
            + " out of it"
            + (ifname != null ? "" : ", or upgrade NCCL to 2.30.3 or later")
            + "; or unset NCCL_COMM_ID and let the framework pass the unique id.");
  }

  /** The host of {@code host:port} or {@code [ipv6]:port}. */
  private static String commIdHost(String commId) {
    if (commId.startsWith("[")) {
      int close = commId.indexOf(']');
      return close < 0 ? "" : commId.substring(1, close);
    }
    int colon = commId.lastIndexOf(':');
    return colon < 0 ? commId : commId.substring(0, colon);
  }

  /**
   * A system error before any connection was made, where every interface NCCL chose for bootstrap
   * and socket traffic is IPoIB ({@code ib0}, {@code ibp12s0}, {@code ibs8}), and nothing shows the
   * job on one node: bootstrap over an IPoIB network other hosts do not reach (nccl issue 207).
   * Likely, not proven (the log holds no failed connect), so a warning; a job shown on one host, or
   * one whose ranks connected, is not judged.
   */
  private Finding ipoibAtInit(Job job) {
    List<NcclFailure> system =
        job.failures().stream().filter(f -> f.result().equals("ncclSystemError")).toList();
    // NCCL's own trace of its bootstrap returning ncclSystemError (bootstrap.cc:270 -> 2)
    List<NcclWarning> bootstrap =
        job.warnings().stream()
            .filter(
                w ->
                    w.kind() == NcclWarning.Kind.SOCKET
                        && w.evidence() != null
                        && bootstrapTrace(w))
            .toList();
    List<Interface> sockets =
        job.interfaces().stream().filter(i -> i.role() != Interface.Role.OOB).toList();
    if ((system.isEmpty() && bootstrap.isEmpty())
        || sockets.isEmpty()
        || !sockets.stream().allMatch(i -> ipoib(i.name()))
        || job.communicators().stream().anyMatch(c -> !c.edges().isEmpty())
        || (!job.multiNode() && job.communicators().stream().anyMatch(SocketInterface::oneHost))) {
      return null;
    }
    List<String> names = sockets.stream().map(Interface::name).distinct().toList();
    List<Evidence> evidence = new ArrayList<>();
    system.forEach(f -> evidence.add(f.evidence()));
    bootstrap.stream().limit(2).forEach(w -> evidence.add(w.evidence()));
    // every IPoIB address a host published (bootstrap, or IB's out-of-band interface)
    Map<String, String> byHost = new LinkedHashMap<>();
    for (Interface i : job.interfaces()) {
      if (ipoib(i.name())) {
        byHost.putIfAbsent(host(i), i.name() + " " + i.address());
      }
    }
    Set<String> subnets = new LinkedHashSet<>();
    byHost.values().forEach(a -> subnets.add(a.substring(0, Math.max(0, a.lastIndexOf('.')))));
    // a host seen only through IB's out-of-band interface (no bootstrap line of its own)
    Set<String> bootstrapped = new LinkedHashSet<>();
    sockets.forEach(i -> bootstrapped.add(host(i)));
    job.interfaces().stream()
        .filter(
            i ->
                i.role() == Interface.Role.OOB
                    && ipoib(i.name())
                    && !bootstrapped.contains(host(i)))
        .map(Interface::evidence)
        .filter(e -> !evidence.contains(e))
        .limit(1)
        .forEach(evidence::add);
    sockets.stream()
        .map(Interface::evidence)
        .filter(e -> !evidence.contains(e))
        .limit(2)
        .forEach(evidence::add);
    return new Finding(
        id(),
        Severity.WARN,
        "NCCL failed at init with a system error, and its socket interface is IPoIB: "
            + String.join(", ", names),
        "NCCL runs its bootstrap and socket connections over "
            + String.join(", ", names)
            + ", an IP-over-InfiniBand interface (the only one it chose), and the job failed with a system"
            + " error before any rank connected to another. A system error at init is most often a socket"
            + " that could not connect; IPoIB interfaces are often unconfigured, on a subnet per node or not"
            + " routed between hosts, so ranks on other nodes cannot reach the address this one published."
            + (job.multiNode() || byHost.size() > 1
                ? " This job spans nodes"
                    + (byHost.size() > 1
                        ? " ("
                            + byHost.entrySet().stream()
                                .map(h -> h.getKey() + ": " + h.getValue())
                                .collect(Collectors.joining(", "))
                            + ")"
                            + (subnets.size() > 1
                                ? "; their IPoIB addresses differ in the first three numbers, so"
                                    + " with the usual /24 masks each host is on its own subnet"
                                : "")
                        : "")
                    + "."
                : " If the job spans nodes, this is the likely cause.")
            + " The log shows no failed connect itself, so this is likely rather than proven.",
        evidence,
        "On every node run ip -o addr show "
            + names.get(0)
            + " and ping the other nodes' "
            + names.get(0)
            + " addresses; if they do not answer, set NCCL_SOCKET_IFNAME to the interface that connects the"
            + " hosts (the Ethernet one, e.g. NCCL_SOCKET_IFNAME=eth0 or ^ib,lo,docker0). NCCL still moves"
            + " data over InfiniBand verbs; only bootstrap and socket traffic change. NCCL_DEBUG=INFO"
            + " NCCL_DEBUG_SUBSYS=INIT,NET shows the failed connection.");
  }

  /** The host of the process that printed an interface. */
  private static String host(Interface i) {
    return i.process().substring(0, Math.max(0, i.process().lastIndexOf(':')));
  }

  /** IPoIB's names: {@code ib0}, {@code ib1} and the predictable {@code ibp12s0}, {@code ibs8}. */
  static boolean ipoib(String name) {
    return name.length() > 2 && name.startsWith("ib") && !name.startsWith("ibv");
  }

  /** Whether every rank of the communicator was seen, all on one host. */
  private static boolean oneHost(Communicator c) {
    return c.nNodes() == 1 || (c.nRanks() == c.members().size() && c.hostCount() == 1);
  }

  /**
   * Docker's bridge gateways (docker0 172.17.0.1, user networks 172.18.0.1 to 172.31.0.1) as NCCL
   * prints a peer, address then {@code <port>}: {@code Call to recv from 172.18.0.1<34483> failed}.
   */
  private static final Pattern BRIDGE_GATEWAY =
      Pattern.compile("(?<![0-9.])172\\.(1[7-9]|2[0-9]|3[01])\\.0\\.1<");

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
