package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import io.topolens.model.NcclWarning.Detail.OfiFailure;
import io.topolens.model.NcclWarning.OfiStep;
import io.topolens.model.NetPluginEvent;
import io.topolens.model.NetPluginEvent.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code ofi-plugin-error}: the AWS EFA plugin (aws-ofi-nccl over libfabric) is in trouble before
 * or without a fallback line: it failed to initialise and the log stops before NCCL chose a
 * network; libfabric picked the {@code tcp} or {@code sockets} provider instead of {@code efa}; or
 * it could not register memory ({@code NET/OFI Unable to register memory ... RC: -22}); or it could
 * not add a peer's EFA address ({@code NET/OFI Unable to insert remote address into address vector
 * for device 1. RC: 0}), a security group without its self-referencing rules; or a transfer
 * completed with an error ({@code NET/OFI Request 0x... completed with error. RC: 20}), where the
 * same rules come first. It judges the step the reader read from the plugin's words of each release
 * ({@link OfiFailure}), never the words.
 */
public final class OfiPluginError implements Rule {

  @Override
  public String id() {
    return "ofi-plugin-error";
  }

  @Override
  public List<Finding> check(Job job) {
    List<Finding> out = new ArrayList<>();
    Set<String> chose =
        job.netPlugins().stream()
            .filter(e -> e.outcome() == Outcome.SELECTED)
            .map(NetPluginEvent::process)
            .collect(Collectors.toSet());
    List<NetPluginEvent> failed =
        job.netPlugins().stream()
            .filter(e -> e.plugin().equals("OFI"))
            .filter(e -> e.outcome() == Outcome.FAILED || e.outcome() == Outcome.NO_DEVICE)
            .filter(e -> !chose.contains(e.process()))
            .toList();
    Set<String> processes =
        failed.stream()
            .map(NetPluginEvent::process)
            .collect(Collectors.toCollection(java.util.HashSet::new));
    List<Evidence> failedLines =
        new ArrayList<>(failed.stream().map(NetPluginEvent::evidence).toList());
    // 1.7+'s "Failed to initialize rdma|sendrecv protocol" comes before "initialization failed",
    // where a log may stop: the plugin's failed start where no such line of its process follows
    for (NcclWarning w : ofi(job, OfiStep.PROTOCOL_FAILED)) {
      if (!chose.contains(w.process()) && processes.add(w.process())) {
        failedLines.add(w.evidence());
      }
    }
    if (!failedLines.isEmpty()) {
      List<Evidence> evidence = new ArrayList<>();
      List<NcclWarning> reasons =
          plugin(job).stream()
              .filter(w -> step(w) != OfiStep.INIT_FAILED)
              .filter(w -> processes.contains(w.process()))
              .filter(w -> !failedLines.contains(w.evidence()))
              .toList();
      reasons.forEach(w -> evidence.add(w.evidence()));
      evidence.addAll(failedLines);
      boolean gdr = reasons.stream().anyMatch(w -> step(w) == OfiStep.GDR_REQUIRED);
      boolean endpoint =
          reasons.stream()
              .anyMatch(
                  w ->
                      step(w) == OfiStep.ENDPOINT
                          && w.detail() instanceof OfiFailure f
                          && f.invalidArgument());
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "aws-ofi-nccl (the EFA plugin) failed to initialise",
              "On "
                  + processes.size()
                  + " process(es) aws-ofi-nccl could not start and the log ends before NCCL chose a network:"
                  + " NCCL then falls back to TCP sockets (slow between nodes) or the job fails."
                  + (gdr
                      ? " The plugin found GPUDirect RDMA off on an instance type that has it, and refuses to run"
                          + " without it (FI_EFA_USE_DEVICE_RDMA=0, or an EFA driver or libfabric without GPU"
                          + " memory support)."
                      : "")
                  + (endpoint
                      ? " Creating the EFA endpoint was rejected (Invalid argument): the libfabric, EFA driver and"
                          + " aws-ofi-nccl versions do not fit, or the process sees a subset of GPUs the plugin's"
                          + " topology does not expect."
                      : ""),
              evidence,
              "Check the pod requests the EFA devices (vpc.amazonaws.com/efa) and fi_info -p efa lists them inside"
                  + " it; use the EFA installer's libfabric and aws-ofi-nccl together (the aws-ofi-nccl release notes"
                  + " name the libfabric they need); do not set FI_EFA_USE_DEVICE_RDMA=0 on p4d/p5; read the"
                  + " NET/OFI lines before the failure for the reason."));
    }
    String other = otherProvider(job);
    if (other != null) {
      // aws-ofi-nccl over another fabric (HPE Slingshot's cxi...): EFA's causes and fixes do not
      // apply
      Set<Evidence> cited = new java.util.HashSet<>();
      out.forEach(f -> cited.addAll(f.evidence()));
      List<NcclWarning> failures =
          ofi(
                  job,
                  OfiStep.PEER_UNREACHABLE,
                  OfiStep.COMPLETION_ERROR,
                  OfiStep.POST_FAILED,
                  OfiStep.REGISTER_MEMORY,
                  OfiStep.SETUP,
                  OfiStep.ENDPOINT)
              .stream()
              .filter(w -> !cited.contains(w.evidence()))
              .toList();
      if (!failures.isEmpty()) {
        out.add(otherProvider(other, failures));
      }
      return out;
    }
    // libfabric offers aws-ofi-nccl no provider it can use (FI_ENODATA): the plugin's words of each
    // release, libfabric's own (fi_info -p efa, its core's log, a quote)
    // where NCCL went on to a network, net-plugin-fallback judges the fallback; libfabric's own
    // lines
    // name no NCCL process, so for them any network NCCL chose in the same file counts
    Set<String> choseIn =
        job.netPlugins().stream()
            .filter(e -> e.outcome() == Outcome.SELECTED && e.evidence() != null)
            .map(e -> e.evidence().file())
            .collect(Collectors.toSet());
    List<NcclWarning> noProvider =
        ofi(job, OfiStep.NO_PROVIDER, OfiStep.EFA_NO_MATCH).stream()
            .filter(w -> !chose.contains(w.process()))
            .filter(w -> !w.process().isEmpty() || !choseIn.contains(w.evidence().file()))
            .toList();
    boolean noMatchOnly = noProvider.stream().allMatch(w -> step(w) == OfiStep.EFA_NO_MATCH);
    if (out.isEmpty() && !noProvider.isEmpty() && noMatchOnly) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "libfabric's EFA provider offered aws-ofi-nccl nothing it asked for",
              "libfabric's core says the EFA provider listed nothing for aws-ofi-nccl's request (libfabric"
                  + " 1.2x's `provider efa output empty list`), and NCCL named no network after it: either the"
                  + " process sees no EFA device (not passed into the container: /dev/infiniband/uverbs*, the"
                  + " pod's vpc.amazonaws.com/efa), or the provider lacks a capability the plugin asks, most"
                  + " often FI_HMEM (GPUDirect RDMA): a libfabric other than the EFA installer's, or an EFA"
                  + " driver without it (aws-ofi-nccl issue 889: the driver's p2p file showed GPUDirect, so the"
                  + " maintainers suspected the container's libfabric). The plugin then fails to initialise"
                  + " and NCCL runs over TCP sockets or the job fails.",
              noProvider.stream().map(NcclWarning::evidence).toList(),
              "Inside the container: fi_info -p efa (lists the devices?) and FI_LOG_LEVEL=info fi_info -p efa -t"
                  + " FI_EP_RDM -c FI_HMEM (GPUDirect?); use the EFA installer's libfabric (/opt/amazon/efa)"
                  + " with its aws-ofi-nccl, no other libfabric on LD_LIBRARY_PATH; request the EFA devices in"
                  + " the pod."));
    } else if (out.isEmpty() && !noProvider.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "aws-ofi-nccl found no EFA device",
              "libfabric offered aws-ofi-nccl no provider it can use (FI_ENODATA: no EFA device matched): the"
                  + " process does not see the instance's EFA devices, most often because they were not passed"
                  + " into the container (/dev/infiniband/uverbs*: docker run without --device for each, a pod"
                  + " without vpc.amazonaws.com/efa in its resources), or the instance has none; or the container"
                  + " sees devices the EFA provider cannot open (a /dev/infiniband hostPath volume mounted over"
                  + " the device plugin's devices exposes every uverbs device of the node, the mlx5 ones of B200"
                  + " nodes included, and libfabric's EFA provider then fails as a whole). The plugin then"
                  + " fails to initialise and NCCL runs over TCP sockets or the job fails.",
              noProvider.stream().map(NcclWarning::evidence).toList(),
              "Pass the EFA devices into the container (docker --device=/dev/infiniband/uverbsN for each, or the"
                  + " pod's resources.limits vpc.amazonaws.com/efa with the EFA device plugin running), and mount"
                  + " no /dev/infiniband hostPath over them; fi_info -p efa inside it must list them; check the"
                  + " instance type has EFA enabled."));
    }
    List<NcclWarning> tcp = ofi(job, OfiStep.TCP_PROVIDER);
    if (!tcp.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "libfabric chose a TCP provider instead of EFA",
              "aws-ofi-nccl runs, but libfabric found no EFA device and picked its tcp/sockets provider: traffic"
                  + " between nodes goes through the kernel's TCP stack, slower than NCCL's own sockets. The EFA"
                  + " devices were not passed into the container (or the instance has none).",
              tcp.stream().map(NcclWarning::evidence).toList(),
              "Request the EFA devices in the pod (resources.limits vpc.amazonaws.com/efa, with the EFA device"
                  + " plugin running) or pass /dev/infiniband/uverbs* to docker; fi_info -p efa must list them."
                  + " FI_PROVIDER=efa makes a missing device fail fast instead of running slow."));
    }
    // aws-ofi-nccl's connect and accept paths (1.0 to 1.17, the CM of 1.15+): "[CM: ]Unable to
    // insert remote address into address vector for device %d. RC: %s", "Failed call to
    // fi_av_insert": the peer's EFA address was refused, or it was added and no packet came back
    List<NcclWarning> unreachable = ofi(job, OfiStep.PEER_UNREACHABLE);
    if (!unreachable.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "aws-ofi-nccl could not reach the peer's EFA device",
              "aws-ofi-nccl could not add the peer's EFA address to its address vector while connecting, so the"
                  + " connection between the two nodes failed (PyTorch reports an internal error). EFA traffic"
                  + " is not IP: a security group that allows all outbound IP traffic (0.0.0.0/0) does not let it"
                  + " out; EFA needs a rule allowing all traffic to and from the security group itself, inbound"
                  + " and outbound. The same happens when the nodes are in different Availability Zones or VPCs"
                  + " (EFA does not cross them).",
              unreachable.stream().map(NcclWarning::evidence).toList(),
              "Give the nodes' security group an inbound and an outbound rule allowing all traffic whose source"
                  + " (and destination) is the security group itself, and launch the nodes in one Availability"
                  + " Zone and subnet (a cluster placement group); check with the EFA installer's fi_pingpong -p"
                  + " efa between two nodes, or nccl-tests over two nodes."));
    }
    // a transfer EFA completed with an error (aws-ofi-nccl's completion queue: "Request %p
    // completed
    // with error. RC: %d. ...", "Operation with NULL context completed with error"), or libfabric
    // refused to post one or to read its completion ("Unable to post receive buffer", "Unable to
    // read from fi_cq_readerr" of 1.0-1.6): where the address was accepted, a peer whose packets
    // never arrive
    List<NcclWarning> completed =
        unreachable.isEmpty() ? ofi(job, OfiStep.COMPLETION_ERROR, OfiStep.POST_FAILED) : List.of();
    if (!completed.isEmpty()) {
      boolean completion = completed.stream().anyMatch(w -> step(w) == OfiStep.COMPLETION_ERROR);
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              completion
                  ? "An EFA transfer between nodes completed with an error"
                  : "libfabric refused an EFA transfer between nodes",
              (completion
                      ? "aws-ofi-nccl read an error completion from EFA for a send or receive between the"
                          + " nodes (the RC is libfabric's code for it; a libfabric line beside it names the"
                          + " provider's reason), so the collective fails or hangs."
                      : "libfabric refused to post a send, receive or read of aws-ofi-nccl between the"
                          + " nodes, or to read their completions (the RC is libfabric's code for it), so"
                          + " the connection or the collective fails.")
                  + " The first cause to rule"
                  + " out is the security group: EFA's traffic is not IP, and without a rule"
                  + " allowing all traffic to and from the security group itself the packets never"
                  + " arrive (aws-ofi-nccl issue 156: RC 20 with libfabric's prov_err 20, gone"
                  + " once the group allowed itself); then nodes in different Availability Zones or"
                  + " subnets, and a peer process that exited (its own lines then show why).",
              completed.stream().map(NcclWarning::evidence).toList(),
              "Give the nodes' security group an inbound and an outbound rule allowing all traffic"
                  + " whose source (and destination) is the security group itself; keep the nodes"
                  + " in one Availability Zone and subnet; check with the EFA installer's"
                  + " fi_pingpong -p efa between two nodes before the job; read the peer's log for a"
                  + " process that died first."));
    }
    List<NcclWarning> register = ofi(job, OfiStep.REGISTER_MEMORY);
    if (!register.isEmpty()) {
      boolean einval =
          register.stream()
              .anyMatch(w -> w.detail() instanceof OfiFailure f && f.invalidArgument());
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "aws-ofi-nccl could not register memory with EFA",
              einval
                  ? "Registering a buffer with EFA failed with -22 (Invalid argument): the known fault of libfabric"
                      + " from EFA installers before 1.29.1 with NCCL 2.19 and later (CUDA sync memops)."
                  : "Registering a buffer with EFA failed: the process may lock too little memory (ulimit -l), or"
                      + " the device ran out of registrations.",
              register.stream().map(NcclWarning::evidence).toList(),
              einval
                  ? "Upgrade the EFA installer (libfabric) to 1.29.1 or later; meanwhile FI_EFA_SET_CUDA_SYNC_MEMOPS=0."
                  : "Run with an unlimited memlock limit (ulimit -l unlimited; docker --ulimit memlock=-1:-1) and a"
                      + " current EFA installer."));
    }
    // libfabric objects aws-ofi-nccl could not create or configure (nccl_ofi_ofiutils.cpp,
    // platform-aws.cpp, the protocols' endpoint set-up), where no failed init above cites them
    Set<Evidence> cited = new java.util.HashSet<>();
    out.forEach(f -> cited.addAll(f.evidence()));
    List<NcclWarning> setup =
        ofi(job, OfiStep.SETUP, OfiStep.ENDPOINT, OfiStep.GDR_REQUIRED).stream()
            .filter(w -> !cited.contains(w.evidence()))
            .toList();
    if (!setup.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "aws-ofi-nccl could not set up libfabric for EFA",
              "aws-ofi-nccl failed to create or configure a libfabric object it needs (fabric, domain,"
                  + " endpoint, completion queue, address vector) or found the EFA device without a feature it"
                  + " requires (GPUDirect RDMA, RDMA write): the plugin cannot run, so NCCL falls back to TCP"
                  + " sockets or init fails. The RC and error text name the reason: -61 No data available (no EFA"
                  + " device or provider), -12 Cannot allocate memory (locked-memory limit or device resources),"
                  + " -22 Invalid argument or -95 Operation not supported (libfabric, EFA driver and aws-ofi-nccl"
                  + " versions that do not fit).",
              setup.stream().map(NcclWarning::evidence).toList(),
              "Use the libfabric, EFA kernel driver and aws-ofi-nccl of one EFA installer (its release notes name"
                  + " the versions); request the EFA devices in the pod (vpc.amazonaws.com/efa) and check fi_info -p"
                  + " efa inside it; run with ulimit -l unlimited; do not set FI_EFA_USE_DEVICE_RDMA=0 on instance"
                  + " types with GPUDirect RDMA."));
    }
    return out;
  }

  /**
   * The libfabric provider aws-ofi-nccl ran over where the log names one and it is neither EFA's
   * nor a TCP one (those are this rule's own cases): {@code cxi} (HPE Slingshot), {@code verbs}...;
   * else null.
   */
  private static String otherProvider(Job job) {
    Set<String> named =
        job.netPlugins().stream()
            .map(NetPluginEvent::provider)
            .filter(java.util.Objects::nonNull)
            .collect(Collectors.toCollection(java.util.TreeSet::new));
    if (named.contains(NetPluginEvent.EFA)) {
      return null;
    }
    return named.stream()
        .filter(p -> !p.startsWith("tcp") && !p.startsWith("sockets") && !p.startsWith("udp"))
        .findFirst()
        .orElse(null);
  }

  /** aws-ofi-nccl's failures over a provider other than EFA's, named for what they are. */
  private Finding otherProvider(String provider, List<NcclWarning> failures) {
    return new Finding(
        id(),
        Severity.ERROR,
        "aws-ofi-nccl failed over libfabric's " + provider + " provider",
        "aws-ofi-nccl runs here over libfabric's "
            + provider
            + " provider, not AWS EFA (its Selected Provider line says so), and it failed to set up,"
            + " connect, register memory or complete a transfer (the lines shown; the RC and error"
            + " text are libfabric's, the provider's own log names the reason with FI_LOG_LEVEL=warn)."
            + " EFA's causes (security groups, the EFA installer) do not apply: a libfabric or"
            + " aws-ofi-nccl not built for this fabric, the fabric's own service (for Slingshot's cxi,"
            + " the node's CXI service and VNI the job runs under), or a peer process that exited.",
        failures.stream().map(NcclWarning::evidence).toList(),
        "Use the libfabric and aws-ofi-nccl the site builds for this fabric (its module or"
            + " container); rerun with FI_LOG_LEVEL=warn to see the provider's reason; check the"
            + " peer's log for a process that died first; NCCL_NET=Socket to confirm the job runs"
            + " without the plugin.");
  }

  /** The network plugin's warnings (with their lines). */
  private static List<NcclWarning> plugin(Job job) {
    return job.warnings().stream()
        .filter(w -> w.kind() == NcclWarning.Kind.NET_PLUGIN && w.evidence() != null)
        .toList();
  }

  /** The plugin's warnings whose reading names one of the steps. */
  private static List<NcclWarning> ofi(Job job, OfiStep... steps) {
    Set<OfiStep> wanted = Set.of(steps);
    return plugin(job).stream().filter(w -> step(w) != null && wanted.contains(step(w))).toList();
  }

  /** The step the reader read from the line, or null. */
  private static OfiStep step(NcclWarning w) {
    return w.detail() instanceof OfiFailure f ? f.step() : null;
  }
}
