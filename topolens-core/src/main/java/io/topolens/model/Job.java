package io.topolens.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the inputs say about one job.
 *
 * @param inputs the files read, with their problems
 * @param ranks every GPU context seen, sorted
 * @param communicators every communicator, largest first
 * @param netPlugins plugin loading and selection steps
 * @param env NCCL settings from the environment
 * @param interfaces socket interfaces chosen
 * @param gdr GPUDirect RDMA reports per NIC
 * @param warnings WARN lines and failure reports
 * @param unrecognized NCCL lines that match no known form
 * @param malformed lines that could not be read at all (overlong, binary), and connection lines
 *     naming a rank or channel NCCL cannot print (negative, past an int or the communicator's size)
 * @param processAddress bootstrap address of each process (host:pid), where printed
 * @param nodeOfHost physical node of each host (pod) name, when a node map was given; else empty
 * @param failures NCCL failures a framework reported (PyTorch's {@code NCCL error in:}...)
 * @param timeouts collectives the framework's watchdog timed out, one per rank and call
 * @param watchdog the watchdog's other lines about a timeout (where each rank stood, who timed out
 *     first), one per rank and form
 * @param versions every distinct version printed: NCCL's (with the CUDA of its build) and the CUDA
 *     driver's, whichever line printed it
 * @param launched the ranks launchers announced as their processes joined, every line kept
 * @param slurmManaged Lightning's statements that Slurm starts its processes, up to a bound
 * @param progress how far each process's NCCL lines go (the init stage of its last line), one per
 *     process that printed a line showing a stage, in the order processes first appeared
 * @param launches the launch commands the input holds (docker run, mpirun), in input order
 * @param gpuMentions GPU models (or compute capabilities) lines name, in input order
 * @param gpuErrors GPU errors the driver or nvidia-smi reported in the inputs (a pasted dmesg), in
 *     file order
 * @param stackFrames frames of NCCL's code in stack dumps the inputs hold (py-spy, gdb), in file
 *     order
 * @param collectives the last collective each process called on each communicator, where NCCL
 *     printed its calls ({@code NCCL_DEBUG_SUBSYS=COLL}), in the order they were first seen
 */
public record Job(
    List<InputFile> inputs,
    List<Rank> ranks,
    List<Communicator> communicators,
    List<NetPluginEvent> netPlugins,
    List<EnvSetting> env,
    List<Interface> interfaces,
    List<GdrStatus> gdr,
    List<NcclWarning> warnings,
    LineSample unrecognized,
    LineSample malformed,
    Map<String, String> processAddress,
    Map<String, String> nodeOfHost,
    List<NcclFailure> failures,
    List<CollectiveTimeout> timeouts,
    List<WatchdogReport> watchdog,
    List<PrintedVersion> versions,
    List<LaunchedRank> launched,
    List<SlurmManaged> slurmManaged,
    List<Progress> progress,
    List<LaunchCommand> launches,
    List<GpuMention> gpuMentions,
    List<GpuXid> gpuErrors,
    List<StackFrame> stackFrames,
    List<CollectiveReached> collectives) {

  /** The physical node a host (pod) ran on: from a node map when one was given, else the host. */
  public String node(String host) {
    return nodeOfHost.getOrDefault(host, host);
  }

  /** Whether a node map said where pods ran. */
  public boolean hasNodeMap() {
    return !nodeOfHost.isEmpty();
  }

  /** The same job with a pod-to-node map applied. */
  public Job withNodes(Map<String, String> nodes) {
    return new Job(
        inputs,
        ranks,
        communicators,
        netPlugins,
        env,
        interfaces,
        gdr,
        warnings,
        unrecognized,
        malformed,
        processAddress,
        Map.copyOf(nodes),
        failures,
        timeouts,
        watchdog,
        versions,
        launched,
        slurmManaged,
        progress,
        launches,
        gpuMentions,
        gpuErrors,
        stackFrames,
        collectives);
  }

  /**
   * The lines that show something failed, the one definition the rules share: every failure a
   * framework reported, every collective the watchdog timed out and its other lines about it, and
   * every warning of a kind the reader recognised (NCCL's, a framework's, a launcher's), in that
   * order. A WARN of no known kind ({@link NcclWarning.Kind#OTHER}) is not one: NCCL warns of
   * fallbacks it goes on from ({@code Failed to open libibverbs.so[.1]}, {@code Failed to find CUDA
   * library in ...}), which only the catch-all lists.
   */
  public List<Evidence> failureLines() {
    List<Evidence> out = new ArrayList<>();
    failures.forEach(f -> out.add(f.evidence()));
    timeouts.forEach(t -> out.add(t.evidence()));
    watchdog.forEach(w -> out.add(w.evidence()));
    warnings.stream()
        .filter(w -> w.kind() != NcclWarning.Kind.OTHER)
        .forEach(w -> out.add(w.evidence()));
    out.removeIf(Objects::isNull);
    return out;
  }

  /** Whether the inputs show something failed ({@link #failureLines}). */
  public boolean showsFailure() {
    return !failureLines().isEmpty();
  }

  /** Whether a file of the inputs shows something failed ({@link #failureLines}). */
  public boolean showsFailureIn(String file) {
    return failureLines().stream().anyMatch(e -> e.file().equals(file));
  }

  /**
   * Whether the inputs show a failure other than the warnings of one kind: the failure those lines
   * follow from.
   */
  public boolean showsFailureBeside(NcclWarning.Kind kind) {
    Set<Evidence> own = new HashSet<>();
    warnings.stream().filter(w -> w.kind() == kind).forEach(w -> own.add(w.evidence()));
    return failureLines().stream().anyMatch(e -> !own.contains(e));
  }

  /** Distinct hostnames among all ranks, sorted. */
  public List<String> hosts() {
    return ranks.stream().map(r -> r.id().host()).distinct().sorted().toList();
  }

  /** The versions printed of one kind (NCCL's, the driver's), in the order first seen. */
  public List<PrintedVersion> printed(PrintedVersion.Of of) {
    return versions.stream().filter(v -> v.of() == of).toList();
  }

  /**
   * Distinct NCCL versions printed, sorted: those of the ranks, or where no rank's process is known
   * (a bare {@code NCCL version 2.26.2+cuda12.2} line, a framework's error quoting it) those the
   * inputs printed.
   */
  public List<String> ncclVersions() {
    List<String> byRank =
        ranks.stream().map(Rank::ncclVersion).filter(v -> v != null).distinct().sorted().toList();
    if (!byRank.isEmpty()) {
      return byRank;
    }
    return printed(PrintedVersion.Of.NCCL).stream()
        .map(
            v ->
                v.cuda() < 0
                    ? v.version()
                    : v.version() + "+cuda" + PrintedVersion.cudaText(v.cuda()))
        .distinct()
        .sorted()
        .toList();
  }

  /** The net plugins NCCL selected (Socket, IB, AWS Libfabric...), distinct, in the order seen. */
  public List<String> selectedNetPlugins() {
    return netPlugins.stream()
        .filter(p -> p.outcome() == NetPluginEvent.Outcome.SELECTED)
        .map(NetPluginEvent::plugin)
        .distinct()
        .toList();
  }

  /** The value of an environment setting, or null when the log does not report it. */
  public String envValue(String name) {
    return env.stream()
        .filter(e -> e.name().equals(name))
        .map(EnvSetting::value)
        .findFirst()
        .orElse(null);
  }

  /**
   * Whether two ranks of a communicator ran on the same physical node, by hostname and the node
   * map; null when a rank's log is missing.
   */
  public Boolean sameNode(Communicator comm, int a, int b) {
    Member ma = comm.members().get(a);
    Member mb = comm.members().get(b);
    if (ma == null || mb == null) {
      return null;
    }
    if (hasNodeMap()) {
      return node(ma.id().host()).equals(node(mb.id().host()));
    }
    if (!ma.id().host().equals(mb.id().host())) {
      return false;
    }
    // two machines can share a hostname ("ubuntu"); their bootstrap addresses then differ
    String aa = processAddress.get(ma.id().host() + ":" + ma.id().pid());
    String ab = processAddress.get(mb.id().host() + ":" + mb.id().pid());
    return aa == null || ab == null || aa.equals(ab);
  }

  /** Whether the job spans more than one node, by hostnames, node map or NCCL's nNodes. */
  public boolean multiNode() {
    long nodes = ranks.stream().map(r -> node(r.id().host())).distinct().count();
    // NCCL's view decides only where ranks' logs are missing: with every log present, hostnames
    // do. NCCL's view: nNodes, fewer local ranks than ranks, or a network connection to a rank
    // whose log is missing (P2P and SHM off on one host also give these, but then every log is
    // usually at hand)
    return nodes > 1
        || communicators.stream()
            .anyMatch(
                c -> (c.nRanks() < 0 || c.nRanks() > c.members().size()) && spansNodesByNccl(c));
  }

  private static boolean spansNodesByNccl(Communicator c) {
    if (c.nNodes() > 1) {
      return true;
    }
    for (Member m : c.members().values()) {
      if (m.localRanks() > 0 && m.localRanks() < c.nRanks()) {
        return true;
      }
    }
    return c.edges().stream()
        .anyMatch(
            e ->
                e.transport() == Transport.NET
                    && (!c.members().containsKey(e.from()) || !c.members().containsKey(e.to())));
  }
}
