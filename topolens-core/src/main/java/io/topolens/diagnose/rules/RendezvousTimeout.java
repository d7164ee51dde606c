package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rendezvous-timeout}: PyTorch's TCPStore rendezvous failed before NCCL started ({@code
 * DistStoreError: Timed out after N seconds waiting for clients. k/n clients joined.}, {@code
 * DistStoreError: Socket Timeout}, {@code The client socket has timed out after Ns while trying to
 * connect to (HOST, PORT).}, {@code The client socket has failed to connect to [ADDR]:PORT (errno:
 * 110 - Connection timed out).}, the store-based barrier's and torchrun's rendezvous timeouts), or
 * a rank waited in the store for rank 0's NCCL unique id ({@code [4] is setting up NCCL
 * communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but
 * store->get('0') got error: Socket Timeout}). Names the store's address and port where a line
 * gives them, and says when the address cannot be the master node's.
 */
public final class RendezvousTimeout extends WarningRule {

  /**
   * c10d's per-address connect failure: {@code failed to connect to [::ffff:10.0.0.1]:29500 (errno:
   * 110 - Connection timed out)}, {@code [localhost]:29500 (errno: 99 - ...)}, on Windows {@code
   * [HOST]:50656 (system error: 10049 - ...)}; IPv4 before 2.0 without brackets.
   */
  private static final Pattern CONNECT =
      Pattern.compile(
          "failed to connect to (?:\\[([^\\]]+)\\]|([^\\s\\[\\]]+)):(\\d+)"
              + " \\((?:errno|system error): (\\d+) - ([^)]*)\\)");

  /**
   * torch 2.2 on, a connect to the store that timed out and is retried: {@code The server socket on
   * [::ffff:10.0.0.1]:40613 has timed out, will retry.}
   */
  private static final Pattern RETRY =
      Pattern.compile(
          "server socket on (?:\\[([^\\]]+)\\]|([^\\s\\[\\]]+)):(\\d+) has timed out, will retry");

  /**
   * The store's address as the timeout prints it: {@code ... connect to (172.18.21.4, 37907)}, and
   * as a name that did not resolve: {@code The IPv6 network addresses of (master, 29500) cannot be
   * retrieved}.
   */
  private static final Pattern HOST_PORT =
      Pattern.compile(
          "(?:connect to (?:any network address of )?|network addresses of )"
              + "\\(([^,()\\s]+), (\\d+)\\)");

  /**
   * The store's host name did not resolve: c10d's per-try {@code The [IPv4 |IPv6 ]network addresses
   * of (HOST, PORT) cannot be retrieved (gai error: -2 - Name or service not known).}, and before
   * torch 1.10 {@code ValueError: host not found: Temporary failure in name resolution}.
   */
  private static final List<String> UNRESOLVED =
      List.of(
          "cannot be retrieved",
          "host not found: ",
          "name or service not known",
          "temporary failure in name resolution",
          "no address associated with hostname",
          "nodename nor servname provided",
          "name does not resolve");

  /**
   * Errors of one address that c10d skips for the next one the name resolves to: an IPv6 address of
   * {@code localhost} that cannot be assigned (99, Windows 10049) or a family the host lacks (97).
   * Printed by healthy runs too.
   */
  private static final Set<String> SKIPPED = Set.of("97", "99", "10047", "10049");

  public RendezvousTimeout() {
    super(Severity.ERROR, NcclWarning.Kind.RENDEZVOUS);
  }

  @Override
  public String id() {
    return "rendezvous-timeout";
  }

  @Override
  String title() {
    return "Ranks never met at the rendezvous (TCPStore timed out)";
  }

  @Override
  String title(List<NcclWarning> hits) {
    if (hits.stream().allMatch(RendezvousTimeout::pmix)) {
      return "The job's processes never met at Slurm's PMIx startup fence (collective timeout)";
    }
    if (hits.stream().allMatch(RendezvousTimeout::unresolved)) {
      return "The rendezvous store's host name does not resolve (MASTER_ADDR)";
    }
    return hits.stream()
            .allMatch(
                w ->
                    w.message().contains("failed to connect to")
                        || RETRY.matcher(w.message()).find())
        ? "A rank could not connect to the rendezvous store (MASTER_ADDR:MASTER_PORT)"
        : title();
  }

  @Override
  String explanation() {
    return "PyTorch's process-group rendezvous failed before NCCL was even started: rank 0 hosts a TCPStore at MASTER_ADDR:MASTER_PORT and waits for every rank to connect (the k/n joined count says how many did), and the other ranks connect to it. Ranks that never join were not started (fewer processes or nodes launched than WORLD_SIZE / nnodes x nproc_per_node says), died before init_process_group (an error or an out-of-memory kill earlier in their own logs), are still busy (loading a model before init), were started with the wrong node rank (two nodes with the same NODE_RANK, or a launcher variable renamed between versions and not set), or cannot reach the address (MASTER_ADDR not routable from the other nodes, the port blocked by a firewall or security group, or already taken). A rank that was 'retrieving ncclUniqueId from [0] via c10d key-value store' and got a timeout from store->get waited for rank 0 to create its NCCL communicator for that process group and publish its id: rank 0 did not get there within the timeout (busy with data loading or evaluation, stuck, crashed, or on a code path that skips the first collective), or the store itself became unreachable.";
  }

  private static final String CONNECT_FIX =
      "Set MASTER_ADDR on every node to the master node's address as the other nodes reach it (ip -o -4 addr on the master; a host name every node resolves) and the same MASTER_PORT everywhere; give each node its own NODE_RANK / --node_rank (0 on the master) with the same --nnodes; from a worker, nc -zv MASTER_ADDR MASTER_PORT while the master waits; open that port between the nodes (firewall, security group).";

  /** Slurm's mpi/pmix plugin's fence among the step's nodes that timed out. */
  private static boolean pmix(NcclWarning w) {
    return w.message().contains("pmixp_coll") && w.message().contains("collective timeout");
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            RendezvousTimeout::pmix,
            "Here the rendezvous is Slurm's, before PyTorch or NCCL start: with srun --mpi=pmix each node's slurmstepd runs a PMIx fence (a collective among the step's nodes, to exchange the processes' addresses) when the processes call PMIx_Fence, MPI_Init or their launcher's init; the fence timed out (PMIXP_TIMEOUT, 300 s by default) because a node's processes never reached it (not started there, crashed or stuck at start-up: an error early in their own output) or the slurmstepds of the nodes cannot reach each other (the PMIx plugin's own TCP or UCX connections blocked, a node's interface other nodes cannot route to).",
            "Read the output of the ranks on the node the line names for an earlier error; check that srun starts the same task count on every node (--ntasks-per-node) and that the nodes reach each other on the interfaces Slurm's PMIx plugin uses (SLURM_PMIX_DIRECT_CONN, UCX_NET_DEVICES, PMIXP_TIMEOUT to wait longer); srun --mpi=pmix_v3 -N2 hostname isolates the launcher from the job."),
        new Form(
            "wait timeout for key",
            "Here the rendezvous is Horovod's Gloo one: each rank registers in the HTTP key-value store horovodrun runs on the launching host and waits for the others' keys; a rank that never registered (not started, dead, or unable to reach the launcher's address) leaves the others waiting until HOROVOD_GLOO_TIMEOUT_SECONDS (30 s by default), then Gloo throws and the rank aborts.",
            "Check that every host started its ranks and reaches the launching host's address and port (horovodrun --network-interface / HOROVOD_GLOO_IFACE on an interface all hosts share), read the logs of the ranks whose keys are missing, and at scale raise HOROVOD_GLOO_TIMEOUT_SECONDS."),
        new Form(
            List.of(
                "meet other processes at the rendezvous",
                "pjrt_client_connect",
                "wait_for_all_tasks_to_register",
                "cluster registration failed"),
            "Here the rendezvous is not PyTorch's TCPStore: Ray's collective group (ray.util.collective, the NCCL group RL frameworks use to send weights from the trainer to the rollout engines) waits for every actor of the group to register its NCCL unique id in a named Ray actor, and JAX's jax.distributed.initialize waits at the coordination service's connect barrier (PjRT_Client_Connect; from JAX 0.5 the registration barrier, [Init]Wait_for_all_tasks_to_register) for every process to join; the processes named missing, or the actors never created or still busy, did not get there within the timeout.",
            "Make every member join: all actors of a Ray collective group must call the same create_collective_group or init_collective_group with one group name, world size and distinct ranks, and the first collective on all of them (a weight broadcast called on the trainer only waits for ever); for JAX, start num_processes processes with distinct process_id and the same coordinator_address that all of them reach (the coordinator's port open between the nodes), within initialization_timeout (300 s by default)."),
        new Form(
            "failed to connect to",
            "c10d's client socket could not open a TCP connection to the store: 'Connection timed out' (errno 110) means nothing answered at that address (a host that is not the master, an address other nodes cannot route to, or a firewall dropping the port), 'No route to host' (113) or 'Network is unreachable' (101) that the address is not on any network of this node, 'Connection refused' (111) that the host answered but nothing listens on that port yet (the master has not started its store, or uses another port).",
            CONNECT_FIX),
        new Form(
            "has timed out, will retry",
            "From torch 2.2 on, c10d logs a TCP connect to the store that timed out (errno 110: nothing answered at that address, a host that is not the master, an address other nodes cannot route to, or a firewall dropping the port) as 'The server socket on ADDR has timed out, will retry'.",
            CONNECT_FIX),
        new Form(
            UNRESOLVED,
            "The store's host name did not resolve (getaddrinfo failed; 'Name or service not known': no DNS server or /etc/hosts entry knows the name, 'Temporary failure in name resolution': the DNS server did not answer): a MASTER_ADDR with a typo or a placeholder left in a script, a short host name only some nodes resolve, a --standalone or localhost run whose own host name is missing from /etc/hosts, or on Kubernetes a worker that started before the master pod's Service and its DNS record existed (an operator that creates the workers before the master runs). Before torch 1.10 the rank fails at once (ValueError: host not found); from 1.10 on c10d logs the lookup on each try and retries until its timeout, so a name that resolves a little later is only a delay.",
            "Use a MASTER_ADDR that every node and pod resolves (getent hosts MASTER_ADDR where the rank runs; the master's IP address avoids DNS); on Kubernetes make the workers wait until the master's Service resolves (an init container looping on nslookup of it, a headless Service with publishNotReadyAddresses: true, or an operator version that starts workers only once the master runs: kubeflow pytorch-operator PR #145); for --standalone or localhost add the host's name to /etc/hosts."));
  }

  @Override
  String fix() {
    return "Check that WORLD_SIZE (nnodes x nproc_per_node) matches the processes actually launched, that each node gets its own NODE_RANK / --node_rank under the variable names of the launcher version in use, and read the logs of the ranks that did not join for an earlier error; from every node, test the store (nc -zv MASTER_ADDR MASTER_PORT) and open that port; start all nodes within the timeout (or raise timeout= in init_process_group). For a unique-id timeout, read rank 0's log for what it was doing at that time (an error, a long step only rank 0 runs) and make every rank call the first collective of each process group.";
  }

  /** c10d retried another address of the same name: no failure of the rendezvous. */
  @Override
  boolean elsewhere(Job job, NcclWarning w) {
    Matcher m = CONNECT.matcher(w.message());
    return m.find() && SKIPPED.contains(m.group(4));
  }

  /**
   * c10d's per-address lines are retries: the connect may still succeed. Only retries, of which no
   * address is plainly not the master's, are a warning; a timeout, the store's error or an address
   * that cannot be the master's is an error.
   */
  @Override
  Severity severity(Job job, List<NcclWarning> hits) {
    boolean retriesOnly = hits.stream().allMatch(RendezvousTimeout::retry);
    boolean multiNode = multiNode(job);
    // loopback is wrong only where the job spans nodes
    boolean wrongAddress =
        stores(hits).stream()
            .map(RendezvousTimeout::host)
            .anyMatch(a -> notTheMaster(a, multiNode) != null && (multiNode || !loopback(a)));
    return retriesOnly && !wrongAddress ? Severity.WARN : Severity.ERROR;
  }

  /** Whether NCCL's lines show the job on more than one node. */
  private static boolean multiNode(Job job) {
    return job.communicators().stream().anyMatch(c -> c.nNodes() > 1) || job.hosts().size() > 1;
  }

  private static boolean loopback(String address) {
    return address.startsWith("127.") || address.equals("localhost") || address.equals("::1");
  }

  /** A line saying the store's host name did not resolve. */
  private static boolean unresolved(NcclWarning w) {
    String m = w.message().toLowerCase(Locale.ROOT);
    return UNRESOLVED.stream().anyMatch(m::contains);
  }

  /**
   * A per-address connect failure c10d retries (a refusal, a TCP timeout, a name that did not
   * resolve on this try), not a final error.
   */
  private static boolean retry(NcclWarning w) {
    if (RETRY.matcher(w.message()).find()) {
      return true;
    }
    String said = w.message();
    if (said.contains("network addresses of (")
        && !said.contains("any network address")
        && !said.contains("has timed out")) {
      return true;
    }
    Matcher m = CONNECT.matcher(w.message());
    return m.find() && !w.message().contains("any network address");
  }

  /** The stores the lines name, as {@code address:port}, in order. */
  private static List<String> stores(List<NcclWarning> hits) {
    Set<String> stores = new LinkedHashSet<>();
    for (NcclWarning w : hits) {
      String host = null;
      String port = null;
      for (Pattern p : List.of(CONNECT, RETRY)) {
        Matcher m = p.matcher(w.message());
        if (host == null && m.find()) {
          host = m.group(1) != null ? m.group(1) : m.group(2);
          port = m.group(3);
        }
      }
      Matcher h = HOST_PORT.matcher(w.message());
      if (host == null && h.find()) {
        host = h.group(1);
        port = h.group(2);
      }
      if (host != null) {
        String address = host.toLowerCase(Locale.ROOT);
        if (address.startsWith("::ffff:")) {
          address = address.substring(7); // an IPv4 address as a dual-stack socket prints it
        }
        stores.add(address + ":" + port);
      }
    }
    return List.copyOf(stores);
  }

  /** The address of {@code address:port}. */
  private static String host(String store) {
    return store.substring(0, store.lastIndexOf(':'));
  }

  /** The stores the lines name, and why an address cannot be the master's; null when none. */
  @Override
  Context context(Job job, List<NcclWarning> hits) {
    boolean multiNode = multiNode(job);
    List<String> stores = stores(hits);
    if (stores.isEmpty()) {
      return null;
    }
    StringBuilder b =
        new StringBuilder("The store the ranks tried: ").append(String.join(", ", stores));
    b.append(" (MASTER_ADDR:MASTER_PORT, or torchrun's --rdzv-endpoint).");
    for (String store : stores) {
      String why = notTheMaster(host(store), multiNode);
      if (why != null) {
        b.append(" ").append(host(store)).append(" ").append(why);
      }
    }
    if (hits.stream().allMatch(RendezvousTimeout::retry)) {
      b.append(
          " c10d retries these connects until its timeout: alone, the lines do not say the job"
              + " failed, but a connect that times out or is refused again and again means the"
              + " store is not reachable there.");
    }
    return new Context(b.toString(), List.of());
  }

  /** Why an address cannot be the master node's as other nodes reach it, or null. */
  static String notTheMaster(String address, boolean multiNode) {
    if (address.equals("0.0.0.0") || address.equals("::")) {
      return "is the unspecified address: a server listens on it, a client cannot connect to it;"
          + " MASTER_ADDR must name the master node.";
    }
    if (address.chars().allMatch(Character::isDigit)) {
      return "is a bare number, not a host name: the resolver reads a number as a 32-bit IPv4"
          + " address (05 becomes 0.0.0.5), so MASTER_ADDR (or the host name it was taken from)"
          + " names no machine.";
    }
    if (address.startsWith("0.")) {
      return "is not a host address: 0.x.x.x means 'this network', and is what the resolver makes"
          + " of a MASTER_ADDR that is a bare number (05 becomes 0.0.0.5, 6841231 0.104.99.143).";
    }
    if (address.startsWith("255.")) {
      return "is not a host address: 255.x.x.x is a netmask or the broadcast address (255.255.0.0"
          + " is a /16 mask), so MASTER_ADDR was taken from the wrong field of the network"
          + " configuration (the Mask or Bcast column of ifconfig, not inet).";
    }
    if (loopback(address)) {
      return "is a loopback address: it reaches only the node it is used on, right when every rank"
          + " runs on one node"
          + (multiNode
              ? "; this job spans nodes, so the ranks of the other nodes connect to their own"
                  + " loopback, where no store listens."
              : ", wrong for a multi-node job (each node would connect to itself).");
    }
    if (address.startsWith("169.254.") || address.startsWith("fe80")) {
      return "is link-local: valid only on one network segment, usually an interface that got no"
          + " configured address; other nodes cannot route to it.";
    }
    if (address.startsWith("198.18.") || address.startsWith("198.19.")) {
      return "lies in 198.18.0.0/15, reserved for network benchmarks (RFC 2544), where proxy"
          + " tools' fake-IP DNS modes put the names they resolve: MASTER_ADDR's name was resolved"
          + " through a proxy, not to the master node.";
    }
    return null;
  }
}
