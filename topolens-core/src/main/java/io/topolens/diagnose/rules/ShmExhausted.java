package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.List;

/** {@code shm-exhausted}: NCCL could not create or extend its /dev/shm segments. */
public final class ShmExhausted implements Rule {

  @Override
  public String id() {
    return "shm-exhausted";
  }

  @Override
  public List<Finding> check(Job job) {
    List<NcclWarning> shm =
        job.warnings().stream().filter(w -> w.kind() == NcclWarning.Kind.SHM).toList();
    if (shm.isEmpty()) {
      return List.of();
    }
    long lines = shm.stream().mapToLong(NcclWarning::count).sum();
    return List.of(
        new Finding(
            id(),
            Severity.ERROR,
            "/dev/shm is too small for NCCL",
            lines
                + " warning line(s) say NCCL could not create or extend its shared-memory segments in /dev/shm."
                + " NCCL puts SHM transport buffers and proxy state there; when it runs out, communicator init"
                + " fails or ranks of one node lose their shared-memory path. Containers get 64 MiB of /dev/shm"
                + " by default, far less than NCCL needs with several GPUs.",
            shm.stream().map(NcclWarning::evidence).toList(),
            "Mount a memory-backed volume at /dev/shm: volumes: [{name: dshm, emptyDir: {medium: Memory, sizeLimit:"
                + " 64Gi}}] and volumeMounts: [{name: dshm, mountPath: /dev/shm}] (count it against the pod's"
                + " memory limit); with Docker use --shm-size=16g or --ipc=host."));
  }
}
