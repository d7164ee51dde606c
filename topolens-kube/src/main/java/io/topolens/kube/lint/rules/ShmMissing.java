package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Container;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.VolumeMount;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A GPU container without a volume at {@code /dev/shm} (and not in the host's IPC namespace): it
 * gets the runtime's 64 MiB, where NCCL fails to initialize (error with several processes per pod,
 * warn with one).
 */
public final class ShmMissing implements LintRule {
  @Override
  public String id() {
    return "shm-missing";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.rankGroups()) {
      Optional<Container> main = g.pod().main();
      if (main.isEmpty() || !main.get().hasGpu()) {
        continue;
      }
      if (g.pod().hostIPC() != null && Boolean.TRUE.equals(g.pod().hostIPC().value())) {
        continue; // the host's /dev/shm
      }
      Optional<VolumeMount> m =
          main.get().mounts().stream().filter(v -> "/dev/shm".equals(v.path())).findFirst();
      if (m.isPresent()
          && (g.pod().volume(m.get().name()).isPresent()
              || w.trainer() != null && w.trainer().runtime() == null)) {
        continue; // mounted; a TrainJob's volume may come from a runtime not given
      }
      long gpus = g.pod().gpus().orElse(1L);
      String fix =
          w.trainer() != null
              ? "Add a volume dshm (emptyDir: {medium: Memory, sizeLimit: "
                  + gpus * 8
                  + "Gi}) and a volumeMount of it at /dev/shm on container node, in spec.runtimePatches (Trainer v2.2+) or in the runtime."
              : "Add a volume dshm (emptyDir: {medium: Memory, sizeLimit: "
                  + gpus * 8
                  + "Gi}) and mount it at /dev/shm.";
      out.add(
          new Finding(
              id(),
              gpus > 1 ? Severity.ERROR : Severity.WARN,
              Facts.who(w, g)
                  + (m.isPresent()
                      ? ": /dev/shm mounts volume "
                          + m.get().name()
                          + ", which the pod does not define"
                      : ": no /dev/shm volume"),
              (m.isPresent() ? "The API server rejects a volumeMount of an undefined volume. " : "")
                  + "Without one the container gets the runtime's default /dev/shm of 64 MiB. NCCL creates its shared-memory segments there and fails to initialize when they do not fit ('failed to extend /dev/shm/nccl-...', NCCL user guide, troubleshooting), "
                  + (gpus > 1 ? "which " + gpus + " processes in one pod need; " : "")
                  + "DataLoader workers pass batches through it too and die with 'Bus error' (pytorch/pytorch#16979).",
              Facts.lines(m.map(VolumeMount::evidence).orElse(main.get().evidence())),
              fix));
    }
    return out;
  }
}
