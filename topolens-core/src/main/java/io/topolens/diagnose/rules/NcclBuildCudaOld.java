package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import io.topolens.model.PrintedVersion;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code nccl-build-cuda-old}: NCCL refused CUDA graph capture because its build's CUDA runtime is
 * older than 11.3 or the driver older than R465 ({@code NCCL cannot be captured in a graph if
 * either it wasn't built with CUDA runtime >= 11.3 or if the installed CUDA driver < R465.},
 * misc/strongstream.cc). Names which of the two, where the log prints NCCL's build ({@code NCCL
 * version 2.19.3+cuda11.0}) or the driver ({@code cudaDriverVersion 11020}).
 */
public final class NcclBuildCudaOld implements Rule {

  /** CUDA 11.3 as CUDA numbers it: the runtime and driver (R465) NCCL's graph capture needs. */
  static final int GRAPH_CUDA = 11030;

  @Override
  public String id() {
    return "nccl-build-cuda-old";
  }

  @Override
  public List<Finding> check(Job job) {
    List<NcclWarning> hits =
        job.warnings().stream()
            .filter(w -> w.kind() == NcclWarning.Kind.NCCL_BUILD && w.evidence() != null)
            .toList();
    if (hits.isEmpty()) {
      return List.of();
    }
    List<PrintedVersion> builds =
        job.printed(PrintedVersion.Of.NCCL).stream().filter(v -> v.cuda() > 0).toList();
    List<PrintedVersion> oldBuilds = builds.stream().filter(v -> v.cuda() < GRAPH_CUDA).toList();
    List<PrintedVersion> drivers = job.printed(PrintedVersion.Of.CUDA_DRIVER);
    List<PrintedVersion> oldDrivers = drivers.stream().filter(v -> v.cuda() < GRAPH_CUDA).toList();
    List<Evidence> evidence = new ArrayList<>();
    hits.forEach(w -> evidence.add(w.evidence()));
    String which;
    if (!oldBuilds.isEmpty()) {
      PrintedVersion b = oldBuilds.get(0);
      evidence.add(b.evidence());
      which =
          " This NCCL is "
              + b.version()
              + " built with CUDA "
              + PrintedVersion.cudaText(b.cuda())
              + ": the build is the cause, whatever the driver.";
    } else if (!oldDrivers.isEmpty()) {
      PrintedVersion d = oldDrivers.get(0);
      evidence.add(d.evidence());
      which =
          " The driver supports CUDA "
              + d.version()
              + " only (cudaDriverVersion "
              + d.cuda()
              + "): older than R465, so the driver is the cause.";
    } else if (!builds.isEmpty()) {
      which =
          " The NCCL build ("
              + builds.get(0).version()
              + " with CUDA "
              + PrintedVersion.cudaText(builds.get(0).cuda())
              + ") is new enough, so the driver is older than R465.";
    } else {
      which =
          " The log prints neither NCCL's build (the +cudaXY of NCCL's version line) nor the driver, so"
              + " it is one of the two. In Python environments the usual cause is the build: pip's"
              + " nvidia-nccl-cu11 wheels are built with CUDA 11.0, and another package (an xformers or"
              + " torch wheel for cu118) can pull one in over the NCCL the framework expects.";
    }
    return List.of(
        new Finding(
            id(),
            Severity.ERROR,
            oldBuilds.isEmpty()
                ? "NCCL cannot be captured in a CUDA graph: its build or the driver is too old"
                : "This NCCL build (CUDA "
                    + PrintedVersion.cudaText(oldBuilds.get(0).cuda())
                    + ") is too old for CUDA graph capture",
            "The program captures NCCL calls into a CUDA graph (vLLM and SGLang do so for decoding,"
                + " PyTorch with torch.cuda.graph or compiled modes), and NCCL refused: capturing NCCL needs an"
                + " NCCL built with CUDA runtime 11.3 or later and a driver of R465 (CUDA 11.3) or later"
                + " (misc/strongstream.cc). Frameworks report it as ncclInvalidUsage; nothing in the program's"
                + " arguments is wrong."
                + which,
            evidence,
            "Use an NCCL built with CUDA 11.3 or later: check pip list | grep nccl and NCCL's version line"
                + " (NCCL_DEBUG=VERSION prints NCCL version X+cudaY), and replace an nvidia-nccl-cu11 wheel with"
                + " the NCCL of your framework's CUDA build (nvidia-nccl-cu12 for cu12 wheels), pinning the"
                + " package that pulled the old one in; a driver of R465 or later; until then run without CUDA"
                + " graphs (vLLM --enforce-eager)."));
  }
}
