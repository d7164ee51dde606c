package io.topolens.kube.plan;

import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.InstanceSpec;
import io.topolens.catalog.Measurements;
import io.topolens.kube.model.OffloadMode;
import io.topolens.kube.model.Quantity;
import io.topolens.kube.plan.PlanSpec.JobKind;
import io.topolens.kube.plan.PlanSpec.Network;
import io.topolens.kube.plan.PlanSpec.Workload;
import io.topolens.kube.settings.KubeSettings;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The numbers of a plan, each decided once with its reason: pods, GPUs, EFA, huge pages, memory,
 * CPU and /dev/shm per pod, from the hardware catalog and the settings' policies. A request that
 * cannot work (an EFA split that leaves pods without one, GPUs that do not divide the node) is an
 * {@link InputProblem}.
 */
final class Sizing {
  final PlanSpec spec;
  final InstanceSpec inst;
  final GpuSpec gpu;
  final KubeSettings settings;
  final JobKind kind;
  final int gpusPerPod;
  final int podsPerNode;
  final int pods;
  final boolean efa;
  final int efaPerPod;
  final String hugepages;
  final long memoryBytes;
  final long cpus;
  final long shmBytes;
  final String name;
  final List<Choice> choices = new ArrayList<>();
  final List<String> warnings = new ArrayList<>();

  Sizing(PlanSpec spec, HardwareCatalog catalog, KubeSettings settings, Measurements measured)
      throws InputProblem {
    this.spec = spec;
    this.settings = settings;
    if (spec.instance() == null) {
      throw new InputProblem(
          "plan needs --instance TYPE (p4d.24xlarge, p5.48xlarge, g6e.12xlarge, ...)");
    }
    inst =
        catalog
            .instance(spec.instance())
            .orElseThrow(
                () ->
                    new InputProblem(
                        "unknown instance type "
                            + spec.instance()
                            + "; the catalog knows "
                            + String.join(
                                ", ", catalog.instances().stream().map(InstanceSpec::type).toList())
                            + " (add others with --catalog FILE)"));
    gpu = catalog.gpuOf(inst);
    if (spec.nodes() < 1) {
      throw new InputProblem("--nodes must be at least 1, not " + spec.nodes());
    }
    kind = kind(spec);
    int g = spec.gpusPerPod() == null ? inst.gpus() : spec.gpusPerPod();
    if (g < 1 || g > inst.gpus() || inst.gpus() % g != 0) {
      throw new InputProblem(
          "--gpus-per-pod "
              + g
              + " does not divide "
              + inst.type()
              + "'s "
              + inst.gpus()
              + " GPUs (use all, or a divisor of "
              + inst.gpus()
              + ")");
    }
    gpusPerPod = g;
    int fit = inst.gpus() / g;
    if (spec.podsPerNode() != null && (spec.podsPerNode() < 1 || spec.podsPerNode() > fit)) {
      throw new InputProblem(
          "--pods-per-node "
              + spec.podsPerNode()
              + " with "
              + g
              + " GPU(s) per pod does not fit "
              + inst.type()
              + "'s "
              + inst.gpus()
              + " GPUs (1 to "
              + fit
              + ")");
    }
    podsPerNode = spec.podsPerNode() == null ? fit : spec.podsPerNode();
    pods = spec.nodes() * podsPerNode;
    choose(
        "GPUs per pod",
        String.valueOf(g),
        podsPerNode * g < inst.gpus()
            ? "Asked for: "
                + podsPerNode
                + " pod(s) of "
                + g
                + " GPU(s) per node, "
                + podsPerNode * g
                + " of the "
                + inst.type()
                + "'s "
                + inst.gpus()
                + " GPUs; the rest stay free for other pods."
            : g == inst.gpus()
                ? "One pod per node holding all "
                    + inst.gpus()
                    + " GPUs of the "
                    + inst.type()
                    + ": every rank of a node is in one pod, so NCCL connects them over "
                    + (gpu.hasNvlink() ? "NVLink" : "PCIe or shared memory")
                    + " and only traffic between nodes crosses the network (the seeds' conclusion, seed 003)."
                : "Asked for: " + podsPerNode + " pods per node of " + g + " GPUs each.");
    efa = network(spec, measured);
    if (podsPerNode > 1) {
      warnings.add(podPerGpuCost(measured));
    }
    // pods per node asked for: the node's EFAs split among its pods, whatever GPUs stay unused
    boolean split = spec.podsPerNode() != null;
    int efaShare =
        split
            ? inst.efa() / podsPerNode
            : inst.efa() * g % inst.gpus() == 0 ? inst.efa() * g / inst.gpus() : 0;
    if (efa && split && efaShare == 0) {
      throw new InputProblem(
          inst.type()
              + " has "
              + inst.efa()
              + " EFA: "
              + podsPerNode
              + " pods per node cannot each get a whole one, and an EFA device belongs to one pod"
              + " only; use --pods-per-node "
              + inst.efa()
              + " or fewer, or --network eni");
    }
    if (efa && efaShare == 0) {
      throw new InputProblem(
          inst.type()
              + " has "
              + inst.efa()
              + " EFA for "
              + inst.gpus()
              + " GPUs: a pod of "
              + g
              + " GPU(s) cannot get a whole one, and an EFA device belongs to one pod only; use --gpus-per-pod "
              + inst.gpus() / Math.max(1, gcd(inst.efa(), inst.gpus()))
              + " or more, or --network eni");
    }
    efaPerPod = efa ? efaShare : 0;
    if (efa) {
      choose(
          "vpc.amazonaws.com/efa",
          String.valueOf(efaPerPod),
          "EFA devices per pod: "
              + (efaPerPod == inst.efa()
                  ? "all " + inst.efa() + " of the " + inst.type() + "'s"
                  : efaPerPod
                      + " of "
                      + inst.efa()
                      + (split
                          ? ", the node's split among its " + podsPerNode + " pods"
                          : ", the pod's share by its GPUs"))
              + " ("
              + Math.round(inst.efaGbps() * efaPerPod / inst.efa())
              + " Gbit/s). NCCL uses only the EFA devices its container sees; without any it falls back to TCP sockets.");
    }
    KubeSettings.Instance per = settings.instance(inst.type());
    hugepages = efa ? hugepagesShare(per.hugepages2Mi(), efaPerPod, inst.efa()) : null;
    if (efa) {
      choose(
          "hugepages-2Mi",
          hugepages,
          per.hugepagesWhy()
              + (efaPerPod == inst.efa()
                  ? ""
                  : " The node's "
                      + per.hugepages2Mi()
                      + " are shared by its pods: this pod asks for its share by EFA devices ("
                      + efaPerPod
                      + " of "
                      + inst.efa()
                      + "), so every pod of the node fits."));
    }
    double share = (double) g / inst.gpus();
    KubeSettings.Policy policy = settings.policy();
    memoryBytes =
        (long) Math.floor(inst.memoryGiB() * policy.memory().nodeFraction() * share) << 30;
    choose(
        "memory",
        Quantity.ofBytes(memoryBytes).text(),
        policy.memory().why() + " " + inst.type() + " has " + fmt(inst.memoryGiB()) + " GiB.");
    cpus = Math.max(1, (long) Math.floor(inst.vcpus() * policy.cpu().nodeFraction() * share));
    choose(
        "cpu",
        String.valueOf(cpus),
        policy.cpu().why() + " " + inst.type() + " has " + inst.vcpus() + " vCPUs.");
    if (spec.shm() != null) {
      shmBytes = spec.shm().asLong();
      choose("/dev/shm", spec.shm().text(), "Asked for (--shm). " + policy.shm().why());
    } else {
      long want = Math.max(policy.shm().minimumBytes(), policy.shm().perGpuBytes() * g);
      long cap = (long) (memoryBytes * policy.shm().maxFractionOfMemory()) >> 30 << 30;
      shmBytes = Math.max(policy.shm().minimumBytes(), Math.min(want, cap));
      choose("/dev/shm", Quantity.ofBytes(shmBytes).text(), policy.shm().why());
    }
    offloadCheck();
    name = name(spec);
  }

  private static JobKind kind(PlanSpec s) throws InputProblem {
    JobKind k =
        s.kind() != null
            ? s.kind()
            : s.workload() == Workload.NCCL_TESTS ? JobKind.MPIJOB : JobKind.TRAINJOB;
    if (k == JobKind.PYTORCHJOB && s.workload() == Workload.NCCL_TESTS) {
      throw new InputProblem(
          "--kind pytorchjob runs torchrun, not MPI: use --kind mpijob (or trainjob) for --workload nccl-tests");
    }
    if (k == JobKind.MPIJOB && s.workload() == Workload.TRAIN) {
      throw new InputProblem(
          "--kind mpijob is for --workload nccl-tests; training runs torchrun: use --kind trainjob or pytorchjob");
    }
    return k;
  }

  private boolean network(PlanSpec s, Measurements measured) throws InputProblem {
    if (s.network() == Network.EFA) {
      if (inst.efa() == 0) {
        throw new InputProblem(
            inst.type() + " has no EFA; use --network eni or an instance type with EFA");
      }
      choose(
          "network",
          "efa",
          "Asked for (--network efa). Inter-node NCCL traffic goes over EFA through the aws-ofi-nccl plugin.");
      return true;
    }
    if (s.network() == Network.ENI) {
      choose(
          "network",
          "eni",
          "Asked for (--network eni): NCCL talks TCP sockets over the pod network (ENA), on purpose slower: the seeds measured "
              + measured.get("seed-g6e-eni-job").amount()
              + " over ENI against "
              + measured.get("seed-g6e-efa-job").amount()
              + " over EFA for the same job (seed 001), and topolens lint reports it as efa-not-requested.");
      return false;
    }
    if (inst.efa() == 0) {
      choose(
          "network",
          "eni",
          inst.type() + " has no EFA: NCCL talks TCP sockets over the pod network.");
      return false;
    }
    if (pods == 1) {
      choose(
          "network",
          "eni",
          "One pod: every rank is on one node and NCCL connects them over NVLink or PCIe; EFA would carry nothing (the seeds' '1 pod / 4 GPU / 4 EFA' row). --network efa requests it anyway.");
      return false;
    }
    choose(
        "network",
        "efa",
        inst.type()
            + " has "
            + inst.efa()
            + " EFA interfaces ("
            + fmt(inst.efaGbps())
            + " Gbit/s): inter-node NCCL traffic goes over EFA through the aws-ofi-nccl plugin instead of TCP.");
    return true;
  }

  private void offloadCheck() {
    if (spec.offload() == null || spec.offload() == OffloadMode.NONE || spec.params() == null) {
      return;
    }
    KubeSettings.Offload o = settings.policy().offload();
    boolean withParams = spec.offload() == OffloadMode.PARAMS;
    double init = o.bytesPerNode(spec.params(), gpusPerPod, pods, withParams, true);
    double load = o.bytesPerNode(spec.params(), gpusPerPod, pods, withParams, false);
    double room = memoryBytes - shmBytes;
    choose(
        "CPU offload",
        String.format(
            Locale.ROOT, "%.1f GB per pod with zero.Init, %.1f GB without", init / 1e9, load / 1e9),
        o.why());
    if (init > room) {
      warnings.add(
          String.format(
              Locale.ROOT,
              "CPU offload needs about %.1f GB of host memory per pod (DeepSpeed's estimate with zero.Init), more than the %s left beside /dev/shm: the pods will be OOM-killed; use more nodes or an instance type with more memory.",
              init / 1e9,
              Quantity.gibText(room)));
    } else if (load > room) {
      warnings.add(
          String.format(
              Locale.ROOT,
              "CPU offload fits with zero.Init (%.1f GB per pod) but not when every process loads the whole model first (%.1f GB, more than the %s left beside /dev/shm): build the model inside deepspeed.zero.Init.",
              init / 1e9,
              load / 1e9,
              Quantity.gibText(room)));
    }
  }

  private String podPerGpuCost(Measurements m) {
    String intra =
        gpu.hasNvlink()
            ? String.format(
                Locale.ROOT, "NVLink (%.0f GB/s per GPU per direction)", gpu.nvlink().gbps())
            : gpu.pcie() != null
                ? String.format(Locale.ROOT, "PCIe (%.0f GB/s per GPU)", gpu.pcie().gbps())
                : "their own links";
    return podsPerNode
        + " pods share each "
        + inst.type()
        + ": ranks in different pods of one node cannot use "
        + intra
        + " between them and send that traffic over "
        + (efa
            ? String.format(Locale.ROOT, "EFA (%.0f GB/s for the whole node)", inst.networkGBps())
            : String.format(
                Locale.ROOT,
                "TCP sockets over ENA (CPU-bound, a few GB/s at most; the node's %.1f GB/s network)",
                inst.networkGBps()))
        + ". Measured on 4 x H200: all_reduce busbw "
        + m.get("h200-allreduce-busbw-p2p").amount()
        + " over NVLink P2P against "
        + m.get("h200-allreduce-busbw-socket").amount()
        + " over sockets between GPUs of one host. Prefer one pod per node (--gpus-per-pod all).";
  }

  private String name(PlanSpec s) throws InputProblem {
    String n = s.name();
    if (n == null) {
      String family =
          inst.type()
              .substring(
                  0, inst.type().indexOf('.') < 0 ? inst.type().length() : inst.type().indexOf('.'))
              .replace('_', '-');
      n =
          s.workload().label()
              + "-"
              + family
              + "-"
              + s.nodes()
              + "x"
              + inst.gpus()
              + (podsPerNode > 1 ? "-split" + gpusPerPod : "");
      n = n.toLowerCase(Locale.ROOT);
    }
    if (!n.matches("[a-z]([-a-z0-9]*[a-z0-9])?")
        || n.length() > 63 - (kind == JobKind.MPIJOB ? 16 : 0)) {
      throw new InputProblem(
          "--name "
              + n
              + " must be lower-case letters, digits and '-', start with a letter and end with a letter or digit, at most "
              + (63 - (kind == JobKind.MPIJOB ? 16 : 0))
              + " characters (it names the job's pods)");
    }
    return n;
  }

  void choose(String field, String value, String why) {
    choices.add(new Choice(field, value, why));
  }

  /** The reason recorded for {@code field}. */
  String why(String field) {
    return choices.stream()
        .filter(c -> c.field().equals(field))
        .map(Choice::why)
        .findFirst()
        .orElse(null);
  }

  static String fmt(double d) {
    return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
  }

  private static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /** The node's huge pages split by the pod's share of its EFA devices, in whole MiB. */
  static String hugepagesShare(String node, int efaPerPod, int efaPerNode) {
    if (efaPerPod == efaPerNode) {
      return node;
    }
    long bytes =
        io.topolens.kube.model.Quantity.parse(node)
            .orElseThrow(() -> new IllegalStateException("kube-settings: bad hugepages " + node))
            .asLong();
    long mib = (bytes >> 20) * efaPerPod / efaPerNode;
    return mib + "Mi";
  }
}
