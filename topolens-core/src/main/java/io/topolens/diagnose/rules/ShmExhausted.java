package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.LaunchCommand;
import io.topolens.model.NcclFailure;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code shm-exhausted}: NCCL could not create, extend or open its /dev/shm segments, and why: the
 * space ({@code failed to extend}, {@code posix_fallocate}, {@code No space left on device}), the
 * permissions ({@code shm_open failed : Permission denied}), or a peer's segment that is gone or
 * was never made ({@code Error while attaching to shared memory segment ... (size 0)}, {@code
 * unlink shared memory ... failed}); or a container that {@code docker run} started with Docker's
 * default 64 MiB /dev/shm beside a failure that gives ({@code OSError: [Errno 28] No space left on
 * device}, or NCCL's system error without its text, a warning).
 */
public final class ShmExhausted implements Rule {

  @Override
  public String id() {
    return "shm-exhausted";
  }

  @Override
  public List<Finding> check(Job job) {
    List<NcclWarning> shm =
        job.warnings().stream().filter(w -> w.kind() == NcclWarning.Kind.SHM).toList();
    List<LaunchCommand> defaultShm =
        job.launches().stream().filter(LaunchCommand::dockerWithDefaultShm).toList();
    if (shm.isEmpty()) {
      return defaultShm.isEmpty() ? List.of() : container(job, defaultShm);
    }
    long lines = shm.stream().mapToLong(NcclWarning::count).sum();
    List<Evidence> evidence = new ArrayList<>(shm.stream().map(NcclWarning::evidence).toList());
    defaultShm.forEach(l -> evidence.add(l.evidence()));
    if (any(shm, "no space left", "failed to extend", "posix_fallocate")) {
      return List.of(tooSmall(lines, evidence));
    }
    if (any(shm, "permission denied")) {
      return List.of(
          new Finding(
              id(),
              Severity.ERROR,
              "NCCL may not create files in /dev/shm",
              lines
                  + " warning line(s) say creating NCCL's shared-memory segment was refused (Permission"
                  + " denied): /dev/shm is not writable for the user the ranks run as (its mode lost the"
                  + " sticky, world-writable 1777, or a container or security profile mounts it read-only),"
                  + " so communicator init fails.",
              evidence,
              "Restore /dev/shm's mode (chmod 1777 /dev/shm on the host, or mount a fresh tmpfs there:"
                  + " --ipc=host or --shm-size with Docker, a memory-backed emptyDir in Kubernetes) and run"
                  + " the ranks as a user that may write it."));
    }
    if (any(shm, "attaching to shared memory", "unlink shared memory")) {
      boolean empty = any(shm, "(size 0)");
      return List.of(
          new Finding(
              id(),
              Severity.ERROR,
              "A peer's shared-memory segment is missing",
              lines
                  + " warning line(s) say a shared-memory segment another rank of the node made could not be"
                  + " opened or was already gone (No such file or directory)."
                  + (empty
                      ? " Its size 0 and its name (a stub or garbled bytes after /dev/shm/nccl-) show the peer"
                          + " never made one: it shared its host buffer through cuMem"
                          + " (NCCL_CUMEM_HOST_ENABLE) while this rank fell back to /dev/shm, and read the cuMem"
                          + " descriptor as a file name. The ranks disagree on cuMem host memory; NUMA nodes"
                          + " without memory or CPUs make NCCL's probe succeed on some GPUs and fail on others."
                      : " The segment was removed under NCCL (systemd's RemoveIPC deletes a user's /dev/shm"
                          + " files when it sees no session of that user, as under mpirun or Slurm; cleaners of"
                          + " /dev/shm do the same), or the ranks do not share one /dev/shm (separate"
                          + " containers without a shared IPC namespace)."),
              evidence,
              empty
                  ? "Set NCCL_CUMEM_HOST_ENABLE=0 on every rank (all ranks then use /dev/shm), or upgrade NCCL;"
                      + " check numactl -H for NUMA nodes without memory or CPUs."
                  : "Set RemoveIPC=no in /etc/systemd/logind.conf (then restart systemd-logind); stop jobs"
                      + " that clean /dev/shm while ranks run; give the ranks of one node one IPC namespace"
                      + " (--ipc=host, or one pod)."));
    }
    if (shm.stream().allMatch(ShmExhausted::busError)) {
      return List.of(busError(lines, evidence));
    }
    return List.of(tooSmall(lines, evidence));
  }

  /**
   * Whether the reader read the line as a process that died of SIGBUS: a runtime's {@code Bus
   * error}, or a launcher's {@code Signal 7 (SIGBUS)}, {@code <Signals.SIGBUS: 7>}, {@code
   * exitcode: -7}.
   */
  private static boolean busError(NcclWarning w) {
    return w.detail() instanceof NcclWarning.Detail.BusError;
  }

  /**
   * A container started with Docker's default /dev/shm beside a failure that a small /dev/shm
   * gives: a file system full (ENOSPC) that the line does not name (an error finding: /dev/shm is
   * the one file system the command left small), or NCCL's system error without its text (a
   * warning: the likeliest of its causes there, not the only one).
   */
  private List<Finding> container(Job job, List<LaunchCommand> docker) {
    List<NcclWarning> full =
        job.warnings().stream().filter(w -> w.kind() == NcclWarning.Kind.NO_SPACE).toList();
    List<NcclFailure> system =
        job.failures().stream().filter(f -> f.result().equals("ncclSystemError")).toList();
    if (full.isEmpty() && system.isEmpty()) {
      return List.of();
    }
    List<Evidence> evidence = new ArrayList<>();
    full.forEach(w -> evidence.add(w.evidence()));
    system.forEach(f -> evidence.add(f.evidence()));
    docker.forEach(l -> evidence.add(l.evidence()));
    String started =
        "The container was started by docker run without --shm-size or --ipc=host (line "
            + docker.get(0).evidence().line()
            + "), so its /dev/shm is Docker's default 64 MiB tmpfs. PyTorch's DataLoader workers"
            + " pass every batch through /dev/shm and NCCL puts its shared-memory transport and"
            + " proxy buffers there, so a multi-GPU job fills it quickly.";
    if (!full.isEmpty()) {
      return List.of(
          new Finding(
              id(),
              Severity.ERROR,
              "/dev/shm of the container is too small (No space left on device)",
              full.stream().mapToLong(NcclWarning::count).sum()
                  + " line(s) say a write failed for lack of space (ENOSPC) without naming the file"
                  + " system. "
                  + started
                  + " A full disk gives the same words: df -h /dev/shm and df -h inside the"
                  + " container tell which.",
              evidence,
              FIX));
    }
    return List.of(
        new Finding(
            id(),
            Severity.WARN,
            "NCCL's system error in a container with Docker's default /dev/shm",
            "NCCL failed a system call (ncclSystemError) and the log holds none of NCCL's own text"
                + " to say which. "
                + started
                + " That makes /dev/shm the likeliest cause here (the usual fix in such threads),"
                + " not a certain one: a socket or a memory limit fails the same way.",
            evidence,
            FIX));
  }

  private Finding busError(long lines, List<Evidence> evidence) {
    return tooSmall(
        "A process died of a bus error: /dev/shm is too small",
        lines
            + " line(s) say a process was killed by SIGBUS (bus error). In a job that uses NCCL (or"
            + " PyTorch's DataLoader workers), that is how a write to a shared-memory segment in /dev/shm"
            + " shows when the tmpfs behind it is full: the segment was sized, but its pages cannot be"
            + " backed; NCCL's own shared-memory warnings may be missing because the process died first.",
        evidence);
  }

  private Finding tooSmall(long lines, List<Evidence> evidence) {
    return tooSmall(
        "/dev/shm is too small for NCCL",
        lines
            + " warning line(s) say NCCL could not create or extend its shared-memory segments in /dev/shm."
            + " NCCL puts SHM transport buffers and proxy state there; when it runs out, communicator init"
            + " fails or ranks of one node lose their shared-memory path.",
        evidence);
  }

  private Finding tooSmall(String title, String what, List<Evidence> evidence) {
    return new Finding(
        id(),
        Severity.ERROR,
        title,
        what
            + " Containers get 64 MiB of /dev/shm by default, far less than NCCL needs with several GPUs.",
        evidence,
        FIX);
  }

  private static final String FIX =
      "Mount a memory-backed volume at /dev/shm: volumes: [{name: dshm, emptyDir: {medium: Memory,"
          + " sizeLimit: 64Gi}}] and volumeMounts: [{name: dshm, mountPath: /dev/shm}] (count it"
          + " against the pod's memory limit); with Docker use --shm-size=16g or --ipc=host.";

  private static boolean any(List<NcclWarning> shm, String... words) {
    for (NcclWarning w : shm) {
      String m = w.message().toLowerCase(Locale.ROOT);
      for (String word : words) {
        if (m.contains(word)) {
          return true;
        }
      }
    }
    return false;
  }
}
