package io.topolens.diagnose.rules;

import io.topolens.bench.BenchDevice;
import io.topolens.bench.BenchRun;
import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.Progress;
import io.topolens.model.Progress.Stage;
import io.topolens.verdict.BenchVerdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code stopped-at}: where a job that may have hung stopped, from the last NCCL line of each
 * process: an nccl-tests run that printed its devices and no result row while nothing failed, or a
 * process whose lines end at the NVLS buffer bind. Names the stage and its usual causes with how to
 * check each. A warning: an excerpt may simply be cut there, so the finding says "if it hung".
 */
public final class StoppedAt extends BesideRule {

  static final String GUIDE =
      "docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html";

  @Override
  public String id() {
    return "stopped-at";
  }

  @Override
  public List<Finding> check(Observed observed) {
    Job job = observed.job();
    if (!job.timeouts().isEmpty()) {
      return List.of(); // the watchdog says where it stopped (collective-timeout)
    }
    List<Finding> out = new ArrayList<>();
    Set<String> judgedFiles = new HashSet<>();
    for (BenchVerdict v : observed.benches()) {
      BenchRun run = v.run();
      List<Progress> lines =
          job.progress().stream().filter(p -> p.last().file().equals(run.file())).toList();
      if (!run.rows().isEmpty()
          || run.devices().isEmpty()
          || job.showsFailureIn(run.file())
          || judgedFiles.contains(run.file())) {
        continue;
      }
      if (!lines.isEmpty()) {
        judgedFiles.add(run.file());
        out.add(noResult(run, lines));
      } else if (run.stoppedAfterHeader()) {
        // without NCCL lines only a whole output says it: devices, the header, then nothing
        judgedFiles.add(run.file());
        out.add(noRowAfterHeader(run));
      }
    }
    List<Progress> nvls =
        job.progress().stream()
            .filter(p -> p.stage() == Stage.NVLS && !judgedFiles.contains(p.last().file()))
            .filter(p -> !job.showsFailureIn(p.last().file()))
            .toList();
    if (!nvls.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.WARN,
              "The log ends at the NVLS buffer bind: where init stopped, if it hung",
              "The NCCL lines of "
                  + Facts.plural(nvls.size(), "process")
                  + " ("
                  + Facts.list(nvls.stream().map(Progress::process).toList(), 8)
                  + ") end at "
                  + Stage.NVLS.words()
                  + ", with no Init COMPLETE after it and nothing failed. An excerpt may simply be"
                  + " cut there; if the job hung, it stopped there. "
                  + causes(Stage.NVLS),
              nvls.stream().map(Progress::last).toList(),
              checks(Stage.NVLS)));
    }
    return out;
  }

  /** An nccl-tests run that printed its devices and no result row, nothing failed. */
  private Finding noResult(BenchRun run, List<Progress> lines) {
    List<String> hosts = run.devices().stream().map(BenchDevice::host).distinct().toList();
    // the process that got least far is where the job waits
    Progress least = lines.stream().min(Comparator.comparing(Progress::stage)).orElseThrow();
    Stage stage = least.stage();
    Stage cause = cause(stage, hosts.size() > 1);
    String name = run.collective() == null ? "The nccl-tests run" : run.collective().testName();
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(run.devices().getLast().evidence());
    lines.stream().map(Progress::last).forEach(evidence::add);
    return new Finding(
        id(),
        Severity.WARN,
        "No result row and no failure: where the run stopped, if it hung",
        name
            + " printed its "
            + Facts.plural(run.devices().size(), "device")
            + " on "
            + Facts.plural(hosts.size(), "host")
            + " ("
            + Facts.list(hosts, 4)
            + ") and no result row, and nothing failed: the run stopped before its first result,"
            + " in NCCL's init or its first collective. "
            + "Its NCCL lines end at "
            + stage.words()
            + (lines.size() > 1 ? " for the process that got least far (" : " (")
            + least.process()
            + "). "
            + "An excerpt may simply be cut there; if the run hung, "
            + (cause == Stage.CONNECT_P2P
                ? "with every rank on one host the first transfers between its GPUs are where it"
                    + " waits. "
                    + causes(cause)
                : afterComma(causes(cause))),
        evidence,
        checks(cause));
  }

  /**
   * An nccl-tests run without NCCL lines that printed its devices and its column header, then
   * nothing: no row, no summary, no error.
   */
  private Finding noRowAfterHeader(BenchRun run) {
    List<String> hosts =
        run.devices().stream().map(BenchDevice::host).filter(h -> h != null).distinct().toList();
    Stage cause = hosts.size() > 1 ? Stage.CONNECT_NET : Stage.CONNECT_P2P;
    String name = run.collective() == null ? "The nccl-tests run" : run.collective().testName();
    List<String> gpus =
        run.devices().stream().map(BenchDevice::name).filter(n -> !n.isEmpty()).distinct().toList();
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(run.devices().getLast().evidence());
    evidence.add(run.end());
    return new Finding(
        id(),
        Severity.WARN,
        "nccl-tests printed its header and no result row: stopped at its first collective, if it"
            + " hung",
        name
            + " listed "
            + Facts.plural(run.devices().size(), "device")
            + (gpus.isEmpty() ? "" : " (" + Facts.list(gpus, 3) + ")")
            + (hosts.isEmpty()
                ? " in one process"
                : " on " + Facts.plural(hosts.size(), "host") + " (" + Facts.list(hosts, 4) + ")")
            + ", printed its table header and then nothing: no result row, no summary, no error."
            + " The first row is printed when the first collective (the smallest size) has run, so"
            + " the run stopped in it, where NCCL first moves data between the GPUs. An excerpt"
            + " may simply be cut there; if the run hung, "
            + (cause == Stage.CONNECT_P2P
                ? "with every rank on one host the transfers between its GPUs are where it waits. "
                    + causes(cause)
                : afterComma(causes(cause))),
        evidence,
        (cause == Stage.CONNECT_P2P
                ? "nvidia-smi topo -m (how the GPUs connect: PIX/PXB/PHB through PCIe, SYS across"
                    + " CPU sockets, NV# over NVLink), "
                : "")
            + checks(cause));
  }

  /**
   * The stage whose causes apply: the one the lines show where it names a transport or NVLS; else
   * the first collective's: peer-to-peer between the GPUs of one host, the network across hosts.
   */
  static Stage cause(Stage stage, boolean multiHost) {
    if (stage == Stage.NVLS || stage == Stage.CONNECT_NET) {
      return stage;
    }
    if (stage == Stage.CONNECT_P2P || stage == Stage.CONNECT_SHM) {
      return Stage.CONNECT_P2P;
    }
    if (!multiHost) {
      return Stage.CONNECT_P2P;
    }
    return stage == Stage.BOOTSTRAP || stage == Stage.TOPOLOGY
        ? Stage.BOOTSTRAP
        : Stage.CONNECT_NET;
  }

  static String causes(Stage stage) {
    return switch (stage) {
      case NVLS ->
          "NCCL binds each communicator's NVLink SHARP buffers to an NVSwitch multicast object and"
              + " every GPU of the node must take part: a hang there (NCCL 2.17-2.19 on NVSwitch"
              + " systems, often in containers: nccl-tests issue 216, nccl issue 1197) comes from the"
              + " Fabric Manager or NVSwitch state (the service not running, restarted without a GPU"
              + " reset, a fabric not fully configured), or from a local rank that never reached the"
              + " bind. NCCL's troubleshooting guide ("
              + GUIDE
              + ") and its own NVLS error text name the Fabric Manager and NVSwitches.";
      case CONNECT_P2P ->
          "GPUs of one host talk over CUDA peer-to-peer; on PCIe, where the IOMMU (Intel VT-d,"
              + " AMD-Vi) translates or PCI Access Control Services (ACS) redirect peer writes to the"
              + " root complex, they are lost or crawl and NCCL waits forever (NCCL's troubleshooting"
              + " guide, GPU Direct and PCI ACS: "
              + GUIDE
              + "; nccl issue 199: disabling ACS ended the hang; consumer and workstation boards on"
              + " AMD hosts need amd_iommu=off or iommu=pt). Virtual machines without P2P"
              + " passthrough stop the same way.";
      case CONNECT_NET ->
          "The nodes connect their channels over the network: on InfiniBand or RoCE a GID index"
              + " that is not routable between them (RoCE v1 against v2, an IPv6 link-local GID),"
              + " ports whose MTUs differ, a port down or a fabric the subnet manager did not"
              + " configure; on TCP sockets a firewall that lets the bootstrap through but drops"
              + " NCCL's other ports (NCCL's troubleshooting guide, networking: "
              + GUIDE
              + ").";
      default ->
          "Before any channel is connected the ranks exchange their addresses over TCP (the"
              + " bootstrap): an interface that does not route between the nodes (docker0, a"
              + " virtual bridge, a NIC on another subnet, an interface name that differs per node)"
              + " or a firewall stops it there (NCCL's troubleshooting guide, networking: "
              + GUIDE
              + ").";
    };
  }

  static String checks(Stage stage) {
    return switch (stage) {
      case NVLS ->
          "systemctl status nvidia-fabricmanager (running, and started before the GPUs were used),"
              + " nvidia-smi -q | grep -A2 -i fabric (State Completed, Status Success); reset the"
              + " GPUs or reboot after a Fabric Manager restart. Run once with NCCL_NVLS_ENABLE=0: if"
              + " the job then runs, NVLS was where it stopped (a workaround, not a fix).";
      case CONNECT_P2P ->
          "nvidia-smi topo -p2p r (OK between the pairs), the CUDA sample p2pBandwidthLatencyTest"
              + " (near-zero bandwidth or errors with P2P enabled), cat /proc/cmdline (intel_iommu="
              + " or amd_iommu=), sudo lspci -vvv | grep ACSCtl (SrcValid+ on PCIe switch ports):"
              + " boot with iommu=pt (or intel_iommu=off / amd_iommu=off) and disable ACS in the BIOS"
              + " or with setpci. Run once with NCCL_P2P_DISABLE=1 (SHM instead): if the job then"
              + " runs, P2P was where it stopped.";
      case CONNECT_NET ->
          "ibv_devinfo on every node (state PORT_ACTIVE, the same active_mtu), show_gids and"
              + " NCCL_IB_GID_INDEX naming a RoCE v2 GID with an IPv4 address on every node,"
              + " ib_write_bw between two nodes with the same HCA; for sockets, all TCP ports open"
              + " between the nodes. Run once with NCCL_IB_DISABLE=1: if the job then runs, the IB"
              + " path was where it stopped.";
      default ->
          "The Bootstrap : Using and NET/Socket : Using lines on every node (NCCL_DEBUG=INFO):"
              + " NCCL_SOCKET_IFNAME naming an interface that exists and routes on all of them,"
              + " nc -zv between the nodes on the bootstrap port, the same NCCL version everywhere.";
    };
  }

  /** A sentence continued after a comma: its first word in lower case, unless a name (NCCL). */
  private static String afterComma(String sentence) {
    return sentence.length() > 1
            && Character.isUpperCase(sentence.charAt(0))
            && Character.isLowerCase(sentence.charAt(1))
        ? Character.toLowerCase(sentence.charAt(0)) + sentence.substring(1)
        : sentence;
  }
}
