package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code rem-allocator-failed}: the remote-memory allocator thread of older NCCL versions
 * (bootstrap.cc's {@code [Rem Allocator]}) took a connection that was not a peer's allocation
 * request, read a size out of it and failed to allocate it: {@code [Rem Allocator] Allocation
 * failed (segment 0, fd 130)}, with alloc.h's {@code Cuda failure 'out of memory'} from the same
 * process. Not the GPU's memory and not the job's network: a fault of that NCCL, gone in later
 * releases.
 */
public final class RemAllocatorFailed implements Rule {

  private static final String FAILED = "[Rem Allocator] Allocation failed";

  @Override
  public String id() {
    return "rem-allocator-failed";
  }

  /**
   * Whether an out-of-memory warning is the allocator's: printed by one process only (NCCL groups
   * the same text of several), the one that printed the allocator's failure.
   */
  static boolean fake(Job job, NcclWarning oom) {
    return oom.kind() == NcclWarning.Kind.GPU_MEMORY
        && oom.processes() <= 1
        && job.warnings().stream()
            .anyMatch(
                w ->
                    w.message().startsWith(FAILED)
                        && java.util.Objects.equals(w.process(), oom.process()));
  }

  @Override
  public List<Finding> check(Job job) {
    List<NcclWarning> failed =
        job.warnings().stream()
            .filter(w -> w.evidence() != null && w.message().startsWith("[Rem Allocator]"))
            .toList();
    if (failed.stream().noneMatch(w -> w.message().startsWith(FAILED))) {
      return List.of();
    }
    List<NcclWarning> oom =
        job.warnings().stream().filter(w -> w.evidence() != null && fake(job, w)).toList();
    return List.of(
        new Finding(
            id(),
            Severity.WARN,
            "NCCL's remote-memory allocator took a connection not meant for it",
            failed.stream().mapToLong(NcclWarning::count).sum()
                + " line(s) say the remote-memory allocator thread of this NCCL (bootstrap.cc, older"
                + " releases) accepted a connection and could not allocate what it read from it."
                + (oom.isEmpty()
                    ? ""
                    : " Its `Cuda failure 'out of memory'` is not the GPU running out: the size it read"
                        + " was not an allocation request, so cudaMalloc was asked for an impossible"
                        + " amount.")
                + " A connection from something other than a peer's allocation request (another"
                + " connection of NCCL's bootstrap, a port scanner or a health check) reached its"
                + " listening port; the NCCL maintainers answered it with an upgrade (the thread's"
                + " NCCL 2.12 printed it, 2.17.1 no longer did). The allocation is dropped and the job"
                + " usually goes on.",
            java.util.stream.Stream.concat(failed.stream(), oom.stream())
                .map(NcclWarning::evidence)
                .toList(),
            "Upgrade NCCL (2.17 or later: a newer framework wheel or container, or pip install -U"
                + " nvidia-nccl-cu11/cu12); if the job goes on, the lines can be ignored meanwhile."));
  }
}
