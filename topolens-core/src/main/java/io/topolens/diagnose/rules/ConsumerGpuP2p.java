package io.topolens.diagnose.rules;

import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.Source;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.EnvSetting;
import io.topolens.model.Evidence;
import io.topolens.model.GpuMention;
import io.topolens.model.Job;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code consumer-gpu-p2p}: the job hung (a watchdog timeout, or the line naming the GPUs says hang
 * or deadlock) on GPUs the catalog lists without working peer-to-peer (GeForce RTX 4090), while P2P
 * was left on: NCCL's P2P path between them hangs until {@code NCCL_P2P_DISABLE=1}; or Accelerate
 * refused to start on RTX 4000-series GPUs because P2P and IB were left on.
 */
public final class ConsumerGpuP2p implements Rule {

  private final HardwareCatalog catalog;

  public ConsumerGpuP2p() {
    this(HardwareCatalog.builtIn());
  }

  public ConsumerGpuP2p(HardwareCatalog catalog) {
    this.catalog = catalog;
  }

  @Override
  public String id() {
    return "consumer-gpu-p2p";
  }

  @Override
  public List<Finding> check(Job job) {
    List<GpuMention> refused = job.gpuMentions().stream().filter(GpuMention::refused).toList();
    if (!refused.isEmpty()) {
      return List.of(refusal(refused));
    }
    Map<GpuSpec, List<GpuMention>> named = new LinkedHashMap<>();
    for (GpuMention m : job.gpuMentions()) {
      catalog
          .gpuByName(m.model())
          .filter(GpuSpec::withoutP2p)
          .ifPresent(g -> named.computeIfAbsent(g, k -> new ArrayList<>()).add(m));
    }
    if (named.isEmpty() || p2pOff(job)) {
      return List.of();
    }
    boolean saysHang = named.values().stream().flatMap(List::stream).anyMatch(GpuMention::hang);
    boolean timedOut = !job.timeouts().isEmpty() || !job.watchdog().isEmpty();
    if (!saysHang && !timedOut) {
      return List.of();
    }
    GpuSpec gpu = named.keySet().iterator().next();
    List<Evidence> evidence = new ArrayList<>();
    named.get(gpu).forEach(m -> evidence.add(m.evidence()));
    job.timeouts().stream().limit(2).forEach(t -> evidence.add(t.evidence()));
    job.watchdog().stream().limit(2).forEach(w -> evidence.add(w.evidence()));
    List<String> sources =
        catalog.sources(gpu.sources()).stream()
            .filter(s -> !s.key().startsWith("PUGET"))
            .map(Source::url)
            .toList();
    return List.of(
        new Finding(
            id(),
            Severity.ERROR,
            gpu.name() + " GPUs have no working P2P: NCCL hangs on it",
            "The job "
                + (timedOut ? "timed out in a collective" : "hung")
                + " on "
                + gpu.name()
                + " GPUs (\""
                + named.get(gpu).get(0).words()
                + "\" in the log), and nothing turned P2P off. GeForce cards do not support"
                + " peer-to-peer between GPUs (NCCL's maintainers), yet NCCL has taken the P2P path"
                + " between RTX 4090s, where collectives hang until the watchdog fires; the same"
                + " jobs run with NCCL_P2P_DISABLE=1, which makes NCCL pass data through host"
                + " shared memory instead. Sources: "
                + String.join(", ", sources)
                + ".",
            evidence,
            "Set NCCL_P2P_DISABLE=1 for every rank (accelerate launch does it for RTX 4000-series"
                + " GPUs; with torchrun, deepspeed or mpirun export it, or -x NCCL_P2P_DISABLE=1);"
                + " update the NVIDIA driver as well. Check with nvidia-smi topo -p2p r: where it"
                + " says OK between these GPUs yet NCCL hangs, P2P is reported but does not work."));
  }

  /**
   * Accelerate refused to start: its check (accelerate/utils/environment.py, {@code
   * check_cuda_p2p_ib_support}) found GPUs without working P2P and IB and the variables that turn
   * them off were not in the environment.
   */
  private Finding refusal(List<GpuMention> refused) {
    List<String> sources =
        catalog.sources(List.of("ACCELERATE-2195", "NCCL-TESTS-287")).stream()
            .map(Source::url)
            .toList();
    return new Finding(
        id(),
        Severity.ERROR,
        "Accelerate refused to start on RTX 4000-series GPUs: NCCL_P2P_DISABLE and"
            + " NCCL_IB_DISABLE were not set",
        "Accelerate stopped the job before NCCL started (NotImplementedError, from its"
            + " PartialState): its check of the GPUs (check_cuda_p2p_ib_support in"
            + " accelerate/utils/environment.py) found more than one GPU whose name holds \"RTX"
            + " 40\" (GeForce RTX 4000-series cards, which have no working peer-to-peer between"
            + " GPUs: NCCL's maintainers) on a driver it does not trust for P2P (later releases"
            + " accept 550.40.07 or newer), and the environment held NCCL_P2P_DISABLE and"
            + " NCCL_IB_DISABLE not both. accelerate launch sets both itself; a process started by"
            + " torchrun, deepspeed, python or another trainer's launcher does not, so Accelerate"
            + " inside it refuses rather than let NCCL hang on the P2P path. Sources: "
            + String.join(", ", sources)
            + ".",
        refused.stream().limit(2).map(GpuMention::evidence).toList(),
        "Export NCCL_P2P_DISABLE=1 and NCCL_IB_DISABLE=1 for every rank before the launcher"
            + " starts (export, the launcher's env option, -x for mpirun), or start the job with"
            + " accelerate launch, which sets both; a driver 550.40.07 or newer passes the check of"
            + " recent Accelerate releases.");
  }

  /** Whether the job turned NCCL's P2P transport off. */
  private static boolean p2pOff(Job job) {
    for (EnvSetting e : job.env()) {
      if (e.name().equals("NCCL_P2P_DISABLE") && e.value().strip().equals("1")) {
        return true;
      }
      if (e.name().equals("NCCL_P2P_LEVEL")
          && (e.value().strip().equals("LOC") || e.value().strip().equals("0"))) {
        return true;
      }
    }
    return false;
  }
}
