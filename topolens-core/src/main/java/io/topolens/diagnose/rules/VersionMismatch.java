package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import io.topolens.model.Rank;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code version-mismatch}: ranks run different NCCL versions (or NCCL said so at init). */
public final class VersionMismatch implements Rule {

  @Override
  public String id() {
    return "version-mismatch";
  }

  @Override
  public List<Finding> check(Job job) {
    Map<String, List<Rank>> byVersion = new LinkedHashMap<>();
    for (Rank r : job.ranks()) {
      if (r.ncclVersion() != null) {
        byVersion.computeIfAbsent(r.ncclVersion(), k -> new ArrayList<>()).add(r);
      }
    }
    List<NcclWarning> said =
        job.warnings().stream().filter(w -> w.kind() == NcclWarning.Kind.VERSION).toList();
    if (byVersion.size() < 2 && said.isEmpty()) {
      return List.of();
    }
    List<Evidence> evidence = new ArrayList<>();
    said.forEach(w -> evidence.add(w.evidence()));
    if (byVersion.size() >= 2) {
      // one line per version, so the report shows where each was printed
      for (List<Rank> rs : byVersion.values()) {
        rs.stream()
            .map(Rank::versionEvidence)
            .filter(java.util.Objects::nonNull)
            .findFirst()
            .ifPresent(evidence::add);
      }
    }
    StringBuilder text = new StringBuilder();
    if (byVersion.size() >= 2) {
      text.append("The ranks print ").append(byVersion.size()).append(" NCCL versions: ");
      List<String> parts = new ArrayList<>();
      for (Map.Entry<String, List<Rank>> e : byVersion.entrySet()) {
        parts.add(
            e.getKey()
                + " on "
                + e.getValue().size()
                + " GPU context(s), e.g. "
                + e.getValue().get(0).id());
      }
      text.append(String.join("; ", parts)).append(". ");
    }
    text.append(
        "NCCL requires the same version on every rank: its wire formats and protocols change between releases, so"
            + " mixed versions fail at init (\"Mismatched NCCL version detected\") or hang or corrupt data later.");
    return List.of(
        new Finding(
            id(),
            Severity.ERROR,
            "Ranks run different NCCL versions",
            text.toString(),
            evidence,
            "Run every pod from the same image digest (pin the image by digest, not a moving tag) and check nothing"
                + " overrides libnccl (LD_LIBRARY_PATH, LD_PRELOAD, a pip nvidia-nccl wheel beside the system one);"
                + " python -c 'import torch; print(torch.cuda.nccl.version())' must agree on every node."));
  }
}
