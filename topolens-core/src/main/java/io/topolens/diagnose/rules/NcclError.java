package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclFailure;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code nccl-error}: a framework reported that an NCCL call failed (PyTorch's {@code
 * DistBackendError: NCCL error in: ...}, {@code ncclSystemError: ...}, {@code NCCL communicator was
 * aborted}). Says what NCCL's result means and quotes NCCL's last error, which the more specific
 * findings (nvls-error, socket-connect, shm-exhausted...) then judge.
 */
public final class NcclError implements Rule {

  /** What each NCCL result means, in plain words (nccl.h's ncclGetErrorString and its callers). */
  private static final Map<String, String> MEANING =
      Map.of(
          "ncclUnhandledCudaError",
          "a CUDA call inside NCCL failed: the GPU or driver refused it (peer access between GPUs, NVLink"
              + " SHARP multicast and the fabric manager, out of memory, a GPU that failed or fell off the"
              + " bus, an earlier CUDA error of the program, or an NCCL library built for another CUDA"
              + " version than the framework's, as a system libnccl that PaddlePaddle loads may be)",
          "ncclSystemError",
          "a system call or library NCCL uses failed (\"System call (socket, malloc, munmap, etc)"
              + " failed\"). Its usual causes, the likeliest first (a likely cause, not a certainty,"
              + " until NCCL's own text says which): in a container, /dev/shm too small or not"
              + " shared (Docker gives 64 MiB unless run with --shm-size or --ipc=host; NCCL's"
              + " shared-memory transport and proxy put their buffers there; df -h /dev/shm inside"
              + " the container shows its size); a socket between hosts (a peer unreachable or gone,"
              + " a firewall, the wrong interface); memory NCCL could not allocate or pin (the"
              + " container's memory limit, ulimit -l); the network plugin",
          "ncclInternalError",
          "a check inside NCCL failed: usually its environment rather than NCCL — a network plugin that does"
              + " not match the NCCL version, ranks running different NCCL versions, an interface that does not"
              + " exist",
          "ncclInvalidArgument",
          "the program passed NCCL an argument it rejects (a null or foreign buffer, a bad count or type)",
          "ncclInvalidUsage",
          "the program used NCCL in a way it does not allow: two ranks on one GPU, ranks that disagree on the"
              + " order, size or type of collectives, a communicator used after it was aborted",
          "ncclRemoteError",
          "another rank failed or dropped its connection: this rank is a victim, the cause is on the rank"
              + " that failed first",
          "ncclInvalidType",
          "NCCL 1's result for a data type it does not know (its ncclGetErrorString says 'invalid"
              + " data type'; NCCL 2 and later have no such result): the program was built against"
              + " NCCL 2's headers but loaded an NCCL 1 library at run time, whose data type numbers"
              + " differ (NCCL 2's ncclFloat32 is 7, past NCCL 1's last type), so a float all-reduce"
              + " is refused. For Horovod this is a libnccl other than the one it was built against,"
              + " most often Anaconda's nccl package found first on the library path",
          "aborted",
          "the communicator was aborted after an earlier error or timeout, on this rank or another: a"
              + " consequence, the cause is the first error");

  /** What to check for a system error whose cause NCCL's text does not say, in the same order. */
  private static final String SYSTEM_ERROR_FIX =
      "Check in this order: inside the container, df -h /dev/shm (64M is Docker's default: run it"
          + " with --shm-size=16g or --ipc=host; in Kubernetes mount a memory-backed emptyDir at"
          + " /dev/shm); between hosts, that every rank reaches the others on the interface NCCL"
          + " picks (NCCL_SOCKET_IFNAME, firewalls); ulimit -l and the container's memory limit."
          + " Rerun with NCCL_DEBUG=WARN (or INFO) to see which call NCCL says failed.";

  @Override
  public String id() {
    return "nccl-error";
  }

  @Override
  public List<Finding> check(Job job) {
    List<NcclFailure> failures = job.failures();
    if (failures.isEmpty()) {
      return List.of();
    }
    Set<String> results = new LinkedHashSet<>();
    failures.forEach(f -> results.add(f.result()));
    List<String> meanings = new ArrayList<>();
    for (String r : results) {
      String m = MEANING.get(r);
      meanings.add(r + (m == null ? "" : ": " + m));
    }
    // NCCL's own words, as the framework printed them after "Last error:"
    List<NcclWarning> last =
        job.warnings().stream().filter(w -> w.process().isEmpty() && w.evidence() != null).toList();
    // no "Last error:" text, but NCCL's own WARN of a known kind is in the log: named, not cited
    List<NcclWarning> known =
        job.warnings().stream()
            .filter(w -> w.evidence() != null && w.kind() != NcclWarning.Kind.OTHER)
            .filter(NcclWarning::ncclWarn)
            .limit(1)
            .toList();
    // NCCL's own WARN of no known kind: no other finding reads it, so this one cites it
    List<NcclWarning> own =
        job.warnings().stream()
            .filter(w -> w.evidence() != null && w.kind() == NcclWarning.Kind.OTHER)
            .filter(NcclWarning::ncclWarn)
            .toList();
    List<NcclWarning> warned =
        !last.isEmpty() ? last : !known.isEmpty() ? known : own.stream().limit(1).toList();
    List<Evidence> evidence = new ArrayList<>();
    failures.forEach(f -> evidence.add(f.evidence()));
    if (last.isEmpty() && known.isEmpty()) {
      own.stream()
          .map(NcclWarning::evidence)
          .filter(e -> !evidence.contains(e))
          .forEach(evidence::add);
    }
    long ownProcesses = own.stream().mapToLong(NcclWarning::processes).max().orElse(0);
    // XLA prints the result and NCCL's last warning on one line: cite it once
    last.stream()
        .map(NcclWarning::evidence)
        .filter(e -> !evidence.contains(e))
        .forEach(evidence::add);
    long lines = failures.stream().mapToLong(NcclFailure::count).sum();
    String version =
        failures.stream()
            .map(NcclFailure::ncclVersion)
            .filter(v -> v != null)
            .findFirst()
            .orElse(null);
    List<Integer> ranks =
        failures.stream().map(NcclFailure::rank).filter(r -> r >= 0).distinct().sorted().toList();
    String explanation =
        "The framework reported a failed NCCL call"
            + (ranks.isEmpty()
                ? ""
                : " on rank"
                    + (ranks.size() > 1 ? "s " : " ")
                    + String.join(", ", ranks.stream().map(String::valueOf).toList()))
            + (lines > 1
                ? " on "
                    + lines
                    + " lines (one failure is often printed more than once: by each rank, by"
                    + " PyTorch's error and by NCCL's result line)"
                : "")
            + (version == null ? "" : " (NCCL " + version + ")")
            + ". "
            + String.join(". ", meanings)
            + "."
            + (warned.isEmpty()
                ? " The log holds no NCCL error text: run again with NCCL_DEBUG=WARN (or INFO) to see NCCL's own"
                    + " reason."
                : warned.get(0).process().isEmpty()
                        || warned.get(0).kind() != NcclWarning.Kind.OTHER
                    ? " NCCL's last error: \""
                        + warned.get(0).message()
                        + "\""
                        + (warned.get(0).kind() == NcclWarning.Kind.OTHER
                            ? "."
                            : " (a finding that cites the same line says why).")
                    : " NCCL's own WARN line before it says why: \""
                        + warned.get(0).message()
                        + "\" (cited below)"
                        + (ownProcesses > 1 ? ", from " + ownProcesses + " processes alike" : "")
                        + ".");
    String fix =
        results.contains("ncclRemoteError") || results.contains("aborted")
            ? "Find the rank that failed first (the earliest error in all ranks' logs) and fix that; this one only"
                + " followed it. NCCL_DEBUG=WARN on every rank shows each one's own reason."
            : results.contains("ncclInvalidType")
                ? "Load the NCCL the program was built against: remove the other one (conda remove"
                    + " nccl, or take its directory off LD_LIBRARY_PATH; ldconfig -p | grep libnccl"
                    + " and ldd on Horovod's library show which one loads) and reinstall Horovod"
                    + " against NCCL 2 (HOROVOD_NCCL_HOME=/path/to/nccl, or HOROVOD_NCCL_INCLUDE and"
                    + " HOROVOD_NCCL_LIB; pip install --no-cache-dir horovod)."
                : results.contains("ncclUnhandledCudaError") && last.isEmpty() && !own.isEmpty()
                    ? "Read NCCL's WARN line (cited): a `Cuda failure N 'TEXT'` there is CUDA's own"
                        + " error for the call NCCL made. When every rank fails alike, one broken GPU"
                        + " is unlikely: suspect the NCCL release against this GPU, driver and CUDA"
                        + " (NCCL_DEBUG=VERSION prints it; try the current NCCL release, as a known"
                        + " bug of a release fails every rank the same way)."
                        + " When one rank or host fails alone, check that GPU: nvidia-smi, dmesg | grep -i xid."
                    : results.contains("ncclUnhandledCudaError") && last.isEmpty()
                        ? "Find the GPU whose CUDA call failed: on the host of the failing rank run nvidia-smi (a GPU"
                            + " missing, ERR! or in error), dmesg | grep -i xid (Xid 79: fallen off the bus; 48, 63,"
                            + " 64, 94, 95: memory errors) and look for the first CUDA error in the log; rerun with"
                            + " NCCL_DEBUG=WARN to see the CUDA call and its error. A GPU that fails alone (nvidia-smi, a"
                            + " single-GPU CUDA sample) or a host whose jobs fail while others pass is the broken one:"
                            + " drain it or reset the GPU. Where init fails this way on every host, check that the"
                            + " NCCL library the framework loads is built for its CUDA version (ldconfig -p | grep"
                            + " libnccl; for PaddlePaddle, the libnccl2 package of Paddle's CUDA version in"
                            + " LD_LIBRARY_PATH)."
                        : results.contains("ncclSystemError") && last.isEmpty()
                            ? SYSTEM_ERROR_FIX
                            : "Read NCCL's last error (quoted) and the finding that names it; with none, rerun"
                                + " with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see where NCCL stopped.";
    return List.of(
        new Finding(
            id(),
            Severity.ERROR,
            "NCCL call failed: " + String.join(", ", results),
            explanation,
            evidence,
            fix));
  }
}
