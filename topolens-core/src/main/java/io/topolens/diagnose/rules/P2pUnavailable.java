package io.topolens.diagnose.rules;

import io.topolens.catalog.Measurement;
import io.topolens.catalog.Measurements;
import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Facts.CommEdge;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.EnvSetting;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.PrintedVersion;
import io.topolens.model.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code p2p-unavailable}: GPUs of one node talk through SHM (or, with P2P disabled, the network)
 * where P2P is the expected path, or the environment disables or restricts P2P.
 */
public final class P2pUnavailable implements Rule {

  @Override
  public String id() {
    return "p2p-unavailable";
  }

  /** The release that first read NCCL_P2P_LEVEL's text values (NVIDIA/nccl issue 332). */
  static final String TEXT_LEVELS = "2.6";

  /**
   * Before NCCL 2.6, NCCL_P2P_LEVEL took only numbers, and a text value (NVL, PIX, ...) was read as
   * 0: where the log's NCCL is older or not printed, the 0 may be a text value so read.
   */
  static String textReadAsZero(Job job) {
    List<String> versions = job.ncclVersions();
    // only the releases that are older: a log of several names those it speaks of
    List<String> older =
        versions.stream().filter(v -> PrintedVersion.compare(v, TEXT_LEVELS) < 0).toList();
    if (!versions.isEmpty() && older.isEmpty()) {
      return "";
    }
    return (versions.isEmpty()
            ? "The log does not print NCCL's version: if it is older than 2.6, "
            : "This NCCL (" + String.join(", ", older) + ") is older than 2.6: ")
        + "the 0 may be a text value read as a number. NCCL before 2.6 takes only numbers for"
        + " NCCL_P2P_LEVEL, and reads NVL, PIX, PXB, PHB or SYS as 0, P2P off: NCCL 2.5.6 printed"
        + " \"NCCL_P2P_LEVEL set by environment to 0\" for NCCL_P2P_LEVEL=NVL, and its maintainer"
        + " answered that the text values are new in NCCL 2.6 (NVIDIA/nccl issue 332; NCCL 2.5.6's"
        + " archived documentation lists only the numbers). ";
  }

  @Override
  public List<Finding> check(Job job) {
    List<CommEdge> shm = Facts.edges(job, ce -> ce.edge().transport() == Transport.SHM);
    List<EnvSetting> env =
        job.env().stream()
            .filter(
                e ->
                    (e.name().equals("NCCL_P2P_DISABLE") && e.value().equals("1"))
                        || e.name().equals("NCCL_P2P_LEVEL"))
            .toList();
    boolean disabled =
        env.stream()
            .anyMatch(
                e ->
                    e.name().equals("NCCL_P2P_DISABLE")
                        || e.value().equalsIgnoreCase("LOC")
                        || e.value().equals("0"));
    if (shm.isEmpty() && !disabled) {
      return List.of();
    }
    Measurement p2p = Measurements.bundled().get("h200-allreduce-busbw-p2p");
    Measurement viaShm = Measurements.bundled().get("h200-allreduce-busbw-shm");
    StringBuilder text = new StringBuilder();
    if (!shm.isEmpty()) {
      text.append(Facts.pairCount(shm))
          .append(
              " pair(s) of GPUs on one node use SHM (staging through host memory) instead of P2P: pairs ")
          .append(Facts.pairs(shm, 12))
          .append(". ");
    }
    for (EnvSetting e : env) {
      text.append(e.name()).append('=').append(e.value()).append(" is set by the environment");
      if (e.name().equals("NCCL_P2P_DISABLE")) {
        text.append(": it turns P2P off on every pair. ");
      } else if (e.value().equalsIgnoreCase("NVL")) {
        text.append(
            ": it allows P2P only over NVLink, so GPUs joined only by PCIe (L40S, L4, A10G, or any PCIe-only"
                + " host) fall back to SHM. ");
      } else if (e.value().equalsIgnoreCase("LOC") || e.value().equals("0")) {
        text.append(": it turns P2P off on every pair. ");
        if (e.value().equals("0")) {
          text.append(textReadAsZero(job));
        }
      } else {
        text.append(": it limits P2P to GPUs at most that far apart in the PCIe/NVLink topology. ");
      }
    }
    if (env.isEmpty() && !shm.isEmpty()) {
      text.append(
          "Nothing in the environment forces it, so NCCL judged P2P impossible between these GPUs: PCIe P2P"
              + " blocked by the platform (ACS, IOMMU, a VM without P2P), GPUs under different CPU sockets, or"
              + " containers that do not share /dev/shm. Compare with nvidia-smi topo -m and topo -p2p r. ");
    }
    text.append("Measured on 4 x H200 (NVSwitch): all_reduce reached ")
        .append(viaShm.amount())
        .append(" over SHM against ")
        .append(p2p.amount())
        .append(" over P2P, ")
        .append(String.format(Locale.ROOT, "%.0fx", p2p.value() / viaShm.value()))
        .append(" less (topolens fixtures h200x4).");
    List<Evidence> evidence = new ArrayList<>();
    env.forEach(e -> evidence.add(e.evidence()));
    evidence.addAll(Facts.evidence(shm));
    String fix =
        env.isEmpty()
            ? "Check nvidia-smi topo -m and nvidia-smi topo -p2p r on the node; on bare metal disable PCIe ACS or set"
                + " the IOMMU to passthrough (iommu=pt); keep all GPUs of a node in one container."
            : "Remove "
                + String.join(" and ", env.stream().map(EnvSetting::name).distinct().toList())
                + " from the environment (pod env, launcher script, image ENV).";
    return List.of(
        new Finding(
            id(),
            Severity.WARN,
            disabled ? "P2P is disabled by the environment" : "GPUs of one node do not use P2P",
            text.toString().strip(),
            evidence,
            fix));
  }
}
