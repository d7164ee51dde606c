package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Container;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Quantity;
import io.topolens.kube.model.Resources;
import io.topolens.kube.model.Volume;
import io.topolens.kube.model.VolumeMount;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A memory-backed {@code /dev/shm} whose {@code sizeLimit} is below NCCL's 1 GiB, or above the
 * container's memory limit, which tmpfs pages count against (warn).
 */
public final class ShmTooSmall implements LintRule {
  @Override
  public String id() {
    return "shm-too-small";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    long floor = ctx.settings().policy().shm().minimumBytes();
    for (PodGroup g : w.rankGroups()) {
      Optional<Container> main = g.pod().main();
      if (main.isEmpty()) {
        continue;
      }
      for (VolumeMount m : main.get().mounts()) {
        if (!"/dev/shm".equals(m.path())) {
          continue;
        }
        Optional<Volume> v = g.pod().volume(m.name());
        if (v.isEmpty()
            || !"emptyDir".equals(v.get().source())
            || v.get().sizeLimit() == null
            || v.get().sizeLimit().value() == null) {
          continue;
        }
        Quantity size = v.get().sizeLimit().value();
        long gpus = Math.max(1, g.pod().gpus().orElse(1L));
        if (size.asLong() < floor) {
          out.add(
              new Finding(
                  id(),
                  Severity.WARN,
                  Facts.who(w, g) + ": /dev/shm is limited to " + size + ", below NCCL's 1 GiB",
                  "NCCL's shared-memory segments and DataLoader batches live in /dev/shm; NCCL's guide asks containers for at least 1 GiB (--shm-size=1g) and fails to initialize without enough ('failed to extend /dev/shm/nccl-...').",
                  Facts.lines(v.get().sizeLimit().evidence(), m.evidence()),
                  "sizeLimit: "
                      + Quantity.ofBytes(
                          Math.max(floor, gpus * ctx.settings().policy().shm().perGpuBytes()))
                      + " (topolens's policy: 8 GiB per GPU, at least 1 GiB)."));
        }
        Optional<Located<Quantity>> mem =
            main.get().resources().limits().containsKey(Resources.MEMORY)
                ? Optional.of(main.get().resources().limits().get(Resources.MEMORY))
                : Optional.empty();
        if ("Memory".equals(v.get().medium())
            && mem.isPresent()
            && mem.get().value() != null
            && size.value().compareTo(mem.get().value().value()) > 0) {
          out.add(
              new Finding(
                  id(),
                  Severity.WARN,
                  Facts.who(w, g)
                      + ": /dev/shm may grow to "
                      + size
                      + ", above the container's memory limit of "
                      + mem.get().value(),
                  "Files in a memory-backed emptyDir count against the container's memory limit: the container is OOM-killed (exit 137) before /dev/shm is full.",
                  Facts.lines(v.get().sizeLimit().evidence(), mem.get().evidence()),
                  "Raise the memory limit by the /dev/shm size, or lower sizeLimit below it."));
        }
      }
    }
    return out;
  }
}
