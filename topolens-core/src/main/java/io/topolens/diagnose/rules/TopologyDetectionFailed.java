package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.model.NcclFailure;
import io.topolens.model.NcclWarning;
import io.topolens.model.PrintedVersion;
import io.topolens.model.Rank;
import io.topolens.ncclxml.NcclGpu;
import io.topolens.ncclxml.NcclTopology;
import io.topolens.smi.SmiGpu;
import io.topolens.smi.SmiReport;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * {@code topology-detection-failed}: NCCL could not build its topology at init, from an XML file it
 * was given or from sysfs ({@code Attribute arch of node cpu not found}, {@code XML Import Channel
 * : dev 1 not found.}, {@code Could not find real path of /sys/class/pci_bus/...}, {@code Could not
 * find NET with id 0}, {@code Failed to find reverse path from remNode 0/5f000 nlinks 4 to node
 * 0/cb000}). Where the log shows both the NCCL version and a GPU of a generation that version
 * predates, the title says so.
 */
public final class TopologyDetectionFailed extends WarningRule {

  public TopologyDetectionFailed() {
    super(Severity.ERROR, NcclWarning.Kind.TOPOLOGY_DETECTION);
  }

  @Override
  public String id() {
    return "topology-detection-failed";
  }

  @Override
  String title() {
    return "NCCL could not build its topology (topology/graph XML or sysfs)";
  }

  @Override
  String explanation() {
    return "NCCL stopped at init while reading the machine's topology. `Attribute X of node Y not found` means a node of its topology XML lacks an attribute: the file given by NCCL_TOPO_FILE (set by hand, in /etc/nccl.conf, or by a network plugin's static file such as aws-ofi-nccl's p5.48xl-topo.xml) describes a CPU, NIC or PCI device incompletely, or sysfs showed a device that is not PCI (a USB network adapter). `XML Import Channel : dev N not found` means NCCL_GRAPH_FILE names a GPU this process does not have (a graph file for another machine size). `Could not find real path of /sys/class/pci_bus/...` means the GPU's PCI path is not in sysfs (WSL2, some VMs and containers). `Could not open XML topology|graph file`, `wrong version` and `XML Parse error` mean the file NCCL_TOPO_FILE or NCCL_GRAPH_FILE names is missing or not NCCL's XML of this version. `Could not find CPU close to GPU N`, `GetXmlFromCpu : could not find CPU numa ID` and `Call to sched_getaffinity failed` mean NCCL could not place a GPU under a CPU: the GPU's NUMA node is unknown (numa_node -1 in sysfs, as in many VMs and WSL2) or the process's CPU affinity excludes every CPU of the GPU's socket (a cpuset or taskset that pins the rank to the other socket); `Could not find any local path from gpu N to net` and failed NIC merges (`TOPO/NET : Tried merging multiple devices together and failed`, NCCL_NET_FORCE_MERGE) mean the NICs could not be placed.";
  }

  /** NVML of this process does not see a GPU of its host: the GPUs are isolated per rank. */
  private static final Form HIDDEN_GPU_FORM =
      new Form(
          "nvmldevicegethandlebypcibusid() failed: not found",
          "`nvmlDeviceGetHandleByPciBusId() failed: Not Found` (misc/nvmlwrap.cc) says NCCL asked NVML for a GPU of this host by its PCI bus id while building the topology, and this process's NVML does not see it. NVML ignores CUDA_VISIBLE_DEVICES, so the GPU is hidden by device isolation: each rank in a container or pod of its own that holds only its GPU, or Slurm's cgroup (ConstrainDevices) giving each task only its GPU, while NCCL counts the ranks as one host (same hostname and boot id) and needs every local rank's GPU in its topology. Recent releases fail init here (graph/xml.cc -> 2, https://github.com/NVIDIA/nccl/issues/1529: two containers with different GPUs on one node); 2.12 went on without those GPUs (https://github.com/NVIDIA/nccl/issues/1066: each rank sees only its own GPU).",
          "Let every rank of a node see all the node's GPUs and choose its own by LOCAL_RANK (cudaSetDevice, torch.cuda.set_device) or CUDA_VISIBLE_DEVICES, which NVML ignores: one container or pod per node holding all its GPUs, or in Slurm GPUs allocated per node (--gpus-per-node) rather than bound per task by the cgroup; nvidia-smi -L inside a rank's container lists what its NVML sees.");

  @Override
  String title(List<NcclWarning> hits) {
    return hits.stream().allMatch(HIDDEN_GPU_FORM::saidBy)
        ? "NCCL could not see another rank's GPU of this host: each rank sees only its own"
        : title();
  }

  @Override
  String explanation(List<NcclWarning> hits) {
    // the XML and sysfs causes would blame what these lines clear
    return hits.stream().allMatch(HIDDEN_GPU_FORM::saidBy)
        ? "NCCL stopped (or, in older releases, went on without some GPUs) while reading the"
            + " machine's topology."
        : explanation();
  }

  @Override
  List<Form> forms() {
    return List.of(
        HIDDEN_GPU_FORM,
        new Form(
            "failed to find reverse path",
            "`Failed to find reverse path from remNode A nlinks N to node B` (graph/paths.cc) says NCCL found a link from one device of its topology to another but no link back: its model of the machine does not fit what sysfs and NVML showed. NCCL releases older than the GPU generation fail this way (2.14 on H100: NCCL supports Hopper from 2.15.1), as does a topology file for another machine.",
            "Use an NCCL release that supports these GPUs (2.15.1 or later for H100/H200; the one the framework or container ships if it is newer), unset NCCL_TOPO_FILE; NCCL_TOPO_DUMP_FILE writes what NCCL sees."),
        new Form(
            " with id ",
            "`Could not find NET with id N` (graph/topo.h) says NCCL's graph search named a device its own topology does not hold: NCCL 2.25 fails this way on some clusters where 2.27 builds the same graph (a fault of that version), as does a topology file or network plugin that lists other NICs or GPUs than the node has.",
            "Upgrade NCCL (2.27 or later; a newer container or pip install -U nvidia-nccl-cu12), then rerun; if it persists, unset NCCL_TOPO_FILE and check the network plugin's topology against the node (NCCL_TOPO_DUMP_FILE writes what NCCL sees)."));
  }

  /** A GPU generation and the first NCCL release that supports it, with the release notes. */
  record Generation(String name, int sm, String firstRelease, String source) {}

  /** Newest first. */
  static final List<Generation> GENERATIONS =
      List.of(
          new Generation(
              "Hopper (H100, H200, H800)",
              90,
              "2.15.1",
              "https://docs.nvidia.com/deeplearning/nccl/release-notes/rel_2-15-1.html"));

  @Override
  public List<Finding> check(Observed observed) {
    List<Finding> found = check(observed.job());
    Integer sm = gpuSm(observed);
    String oldest = oldestVersion(observed);
    if (found.isEmpty() || sm == null || oldest == null) {
      return found;
    }
    for (Generation g : GENERATIONS) {
      if (sm >= g.sm() && PrintedVersion.compare(oldest, g.firstRelease()) < 0) {
        Finding f = found.getFirst();
        return List.of(
            new Finding(
                f.id(),
                f.severity(),
                "NCCL " + oldest + " predates the GPUs: it could not build their topology",
                "The log shows NCCL "
                    + oldest
                    + " on "
                    + g.name()
                    + " GPUs; NCCL supports them from "
                    + g.firstRelease()
                    + " ("
                    + g.source()
                    + "). "
                    + f.explanation(),
                f.evidence(),
                "Use NCCL "
                    + g.firstRelease()
                    + " or later (a newer container or framework build, or pip install -U"
                    + " nvidia-nccl-cu12). "
                    + f.fix()));
      }
    }
    return found;
  }

  /**
   * The compute capability (x10) of the GPUs the inputs show, or null: topology dumps, nvidia-smi.
   */
  private static Integer gpuSm(Observed o) {
    Integer sm =
        o.topologies().stream()
            .map(NcclTopology::gpus)
            .flatMap(List::stream)
            .map(NcclGpu::sm)
            .filter(Objects::nonNull)
            .max(Integer::compare)
            .orElse(null);
    if (sm != null) {
      return sm;
    }
    boolean hopper =
        o.smi().stream()
            .map(SmiReport::gpus)
            .flatMap(List::stream)
            .map(SmiGpu::name)
            .filter(Objects::nonNull)
            .anyMatch(n -> n.matches(".*\\b(GH200|H100|H200|H800|H20)\\b.*"));
    return hopper ? 90 : null;
  }

  /** The oldest NCCL version the log prints (NCCL's own lines or the framework's error). */
  private static String oldestVersion(Observed o) {
    return Stream.concat(
            o.job().ranks().stream().map(Rank::ncclVersion),
            o.job().failures().stream().map(NcclFailure::ncclVersion))
        .filter(Objects::nonNull)
        // each printed version once: thousands of ranks print the same few, and a regex match per
        // rank was a tenth of the rules' time on a 6820-rank log
        .distinct()
        .filter(v -> v.matches("\\d+\\.\\d+\\.\\d+.*"))
        .map(v -> v.split("\\+")[0])
        .min(PrintedVersion::compare)
        .orElse(null);
  }

  @Override
  String fix() {
    return "Unset NCCL_TOPO_FILE / NCCL_GRAPH_FILE (look in the environment, /etc/nccl.conf and ~/.nccl.conf) or give files written for this machine; upgrade a network plugin that ships a static topology file (aws-ofi-nccl 1.11+ generates it); where sysfs lacks the GPU's PCI path, run where /sys shows the devices (bare metal or a VM with PCI passthrough, not WSL2) or give NCCL_TOPO_FILE a topology of this machine. For CPU placement: check cat /sys/bus/pci/devices/<busid>/numa_node and the rank's affinity (taskset -p PID, the cpuset of the container), pin ranks to CPUs of their GPU's socket (nvidia-smi topo -m, CPU Affinity column) or not at all; for NIC merges set NCCL_NET_MERGE_LEVEL=LOC.";
  }
}
