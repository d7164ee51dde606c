package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.EnvSetting;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import io.topolens.model.PrintedVersion;
import io.topolens.model.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code p2p-setup-failed}: NCCL tried to connect two GPUs directly and could not ({@code failed to
 * open CUDA IPC handle : 217 peer access is not supported between these two devices}, {@code Could
 * not enable P2P between dev 1(=3b000) and dev 0(=1a000)}, the P2P/IPC errors of old versions).
 * NCCL then falls back to shared memory for the pair, or init fails. {@code Cuda failure 711 'peer
 * mapping resources exhausted'} is the other limit: a GPU asked to map more than 8 peers.
 */
public final class P2pSetupFailed implements Rule {

  @Override
  public String id() {
    return "p2p-setup-failed";
  }

  @Override
  public List<Finding> check(Job job) {
    List<NcclWarning> hits =
        job.warnings().stream()
            .filter(w -> w.kind() == NcclWarning.Kind.P2P && w.evidence() != null)
            .filter(
                w -> {
                  String m = w.message().toLowerCase(Locale.ROOT);
                  return m.contains("peer access")
                      || m.contains("ipc")
                      || m.contains("p2p")
                      || m.contains("peer query failed")
                      || m.startsWith("uds:")
                      || tooManyPeers(m)
                      || legacyIpc(w);
                })
            .toList();
    if (hits.isEmpty()) {
      return List.of();
    }
    // CUDA's refusal in a framework's words, not NCCL's: its own P2P path (a custom all-reduce)
    List<NcclWarning> framework = hits.stream().filter(P2pSetupFailed::framework).toList();
    if (framework.size() == hits.size()) {
      return List.of(frameworkPath(framework));
    }
    boolean fatal =
        hits.stream()
            .anyMatch(
                w -> {
                  String m = w.message().toLowerCase(Locale.ROOT);
                  return m.contains("ipc handle")
                      || m.contains("failed")
                      || m.contains("cuda failure");
                });
    // the pairs NCCL wired over P2P in the processes that failed: the failing pair is among them
    List<Facts.CommEdge> p2p =
        Facts.edges(
            job,
            ce ->
                ce.edge().transport() == Transport.P2P
                    && hits.stream().anyMatch(w -> Facts.printedBy(ce, w.process(), w.evidence())));
    List<Facts.CommEdge> shm =
        Facts.edges(
            job,
            ce ->
                ce.edge().transport() == Transport.SHM
                    && hits.stream().anyMatch(w -> Facts.printedBy(ce, w.process(), w.evidence())));
    String pairs =
        !p2p.isEmpty()
            ? " The process(es) had wired rank pair(s) "
                + Facts.pairs(p2p, 6)
                + " over P2P; the failing pair is the one the line names or the last one wired before it."
            : "";
    String fallback =
        !shm.isEmpty() ? " NCCL fell back to shared memory for " + Facts.pairs(shm, 6) + "." : "";
    // transport/shm.cc refusing peer access: the SHM transport's host buffers shared through cuMem
    boolean cuMemHost = hits.stream().anyMatch(w -> w.evidence().text().contains("shm.cc"));
    String shmPath =
        cuMemHost
            ? " The refusal came from the shared-memory transport (shm.cc): recent NCCL versions share its"
                + " host buffers through cuMem (NCCL_CUMEM_HOST_ENABLE), which maps them for the peer GPU and so"
                + " needs the same peer access; NCCL_CUMEM_HOST_ENABLE=0 puts the SHM transport back on"
                + " /dev/shm."
            : "";
    // misc/ipcsocket.cc: the Unix socket cuMem passes file descriptors over between processes
    boolean uds = hits.stream().anyMatch(w -> w.message().startsWith("UDS:"));
    String udsPath =
        uds
            ? " The failure is in the Unix-domain socket over which NCCL passes cuMem memory handles (file"
                + " descriptors) between the processes of a node (ipcsocket.cc): it is an abstract socket, so"
                + " processes in different network namespaces (separate pods or containers) cannot reach each"
                + " other's; NCCL_CUMEM_ENABLE=0 goes back to legacy CUDA IPC handles."
            : "";
    // a CUDA call of the P2P transport's own buffer sharing: legacy CUDA IPC when cuMem is off
    List<Evidence> evidence = new ArrayList<>(hits.stream().map(NcclWarning::evidence).toList());
    String legacy = "";
    if (hits.stream().anyMatch(P2pSetupFailed::legacyIpc)) {
      EnvSetting cuMem =
          job.env().stream()
              .filter(e -> e.name().equals("NCCL_CUMEM_ENABLE"))
              .findFirst()
              .orElse(null);
      List<String> printed =
          job.printed(PrintedVersion.Of.NCCL).stream()
              .map(
                  v ->
                      v.version()
                          + (v.cuda() > 0 ? "+cuda" + PrintedVersion.cudaText(v.cuda()) : ""))
              .toList();
      String version = printed.isEmpty() ? "" : " (NCCL " + String.join(", ", printed) + ")";
      if (cuMem != null && cuMem.value().strip().equals("0")) {
        evidence.add(cuMem.evidence());
        legacy =
            " The log shows NCCL_CUMEM_ENABLE=0"
                + version
                + ": NCCL then shares the P2P buffers through legacy CUDA IPC handles"
                + " (cudaIpcGetMemHandle, cudaIpcOpenMemHandle in transport/p2p.cc) instead of cuMem, and"
                + " CUDA refused that path here. vLLM set NCCL_CUMEM_ENABLE=0 in its workers to avoid an NCCL"
                + " bug fixed in 2.22.3 (NVIDIA/nccl issue 1234); NeMo-RL fixed this failure by setting it back"
                + " to 1 (PR 636).";
      } else {
        legacy =
            " The CUDA call failed in the P2P transport's own buffer sharing (transport/p2p.cc)"
                + version
                + ". Recent NCCL versions share those buffers through cuMem; with NCCL_CUMEM_ENABLE=0 (vLLM"
                + " sets it in its workers) they go through legacy CUDA IPC handles (cudaIpcOpenMemHandle),"
                + " which CUDA refuses in some process layouts: 'invalid argument' there is that path"
                + " failing. The log does not show the variable: check the ranks' environment.";
      }
    }
    // CUDA 711 (cudaErrorTooManyPeers): not the path between two GPUs but the number of peers
    boolean tooMany =
        hits.stream().anyMatch(w -> tooManyPeers(w.message().toLowerCase(Locale.ROOT)));
    if (tooMany) {
      return List.of(
          new Finding(
              id(),
              Severity.ERROR,
              "A GPU ran out of CUDA peer mappings (more than 8 peers)",
              Facts.plural(hits.stream().mapToLong(NcclWarning::count).sum(), "line")
                  + " say CUDA refused another peer mapping (CUDA 711, cudaErrorTooManyPeers). CUDA lets one"
                  + " GPU map the memory of at most 8 peer GPUs; one process that drives more than 9 GPUs of a"
                  + " node (nccl-tests -g 10, a framework's single process over a 10- or 16-GPU machine) asks for"
                  + " more, and NCCL fails at init. NCCL_P2P_DISABLE does not avoid it: recent NCCL versions map"
                  + " their own buffers into the peer GPUs through cuMem (allocator.cc) as well.",
              hits.stream().map(NcclWarning::evidence).toList(),
              "Run one process per GPU, as the NCCL maintainers advise (torchrun or mpirun; nccl-tests built with"
                  + " MPI=1 and run as mpirun -np 10 ... -g 1), or drive at most 9 GPUs from one process."));
    }
    return List.of(
        new Finding(
            id(),
            fatal ? Severity.ERROR : Severity.WARN,
            "NCCL could not set up GPU peer-to-peer (P2P) access",
            Facts.plural(hits.stream().mapToLong(NcclWarning::count).sum(), "line")
                + " say the GPUs of one node could not map each other's memory."
                + pairs
                + fallback
                + shmPath
                + udsPath
                + legacy
                + (fatal
                    ? " Opening the peer's CUDA IPC handle failed, so communicator init failed (PyTorch then"
                        + " reports an unhandled cuda error)."
                    : " NCCL carries on through shared memory at a fraction of the P2P bandwidth.")
                + " The GPU driver refuses peer access when the PCIe path between the GPUs does not allow it:"
                + " IOMMU or ACS redirecting peer traffic through the root complex, GPUs under different root"
                + " complexes or CPU sockets, a VM or container without P2P passthrough, consumer GPUs or a"
                + " driver without P2P support.",
            evidence,
            (legacy.isEmpty()
                    ? ""
                    : "Let NCCL use cuMem: unset NCCL_CUMEM_ENABLE or set NCCL_CUMEM_ENABLE=1 in every rank's"
                        + " environment (for Ray or vLLM workers, in the environment they are started with);"
                        + " env | grep NCCL_CUMEM in a worker shows it. If it is already on: ")
                + "Check the pair: nvidia-smi topo -p2p r (OK for every pair you use) and the CUDA sample"
                + " p2pBandwidthLatencyTest; on bare metal disable ACS on the PCIe switches and boot with"
                + " iommu=pt (or intel_iommu=off); in a VM enable P2P in the hypervisor's GPU passthrough; keep"
                + " the ranks of one job on GPUs that say OK. Until then NCCL_P2P_DISABLE=1 makes NCCL use shared"
                + " memory from the start instead of failing."));
  }

  /**
   * A CUDA failure (CUDACHECK's {@code Cuda failure 'invalid argument'}) raised in the P2P
   * transport's source, {@code transport/p2p.cc} (not net_ib's p2p.cc of 2.29).
   */
  private static boolean legacyIpc(NcclWarning w) {
    String t = w.evidence().text();
    int at = t.indexOf("p2p.cc");
    return at >= 0
        && !t.contains("net_ib")
        && w.message().toLowerCase(Locale.ROOT).startsWith("cuda failure");
  }

  /**
   * CUDA 217 pasted without NCCL's header or words ({@code Cuda failure}, {@code NCCL}): the
   * framework's own peer-to-peer path raised it (vLLM's and SGLang's custom all-reduce,
   * TensorRT-LLM's IPC buffers, DeepEP), not NCCL, which checks peer access first and falls back to
   * SHM.
   */
  private static boolean framework(NcclWarning w) {
    String m = w.message();
    return w.process().isEmpty()
        && m.toLowerCase(Locale.ROOT).contains("peer access is not supported")
        && !m.contains("Cuda failure")
        && !m.contains("NCCL");
  }

  private Finding frameworkPath(List<NcclWarning> hits) {
    return new Finding(
        id(),
        Severity.ERROR,
        "GPU peer access is not supported, and the framework's own P2P path needs it",
        Facts.plural(hits.stream().mapToLong(NcclWarning::count).sum(), "line")
            + " give CUDA's refusal of peer access between two GPUs (CUDA 217,"
            + " cudaErrorPeerAccessUnsupported) in a framework's words, without NCCL's: the framework's own"
            + " GPU-to-GPU path asked for it. vLLM's and SGLang's custom all-reduce (custom_all_reduce.cuh,"
            + " SGLang's CUDART error), TensorRT-LLM's custom all-reduce (its IPC buffers) and DeepEP map the other"
            + " GPUs' memory directly and fail where the GPUs cannot reach each other over PCIe; NCCL checks peer"
            + " access first and falls back to shared memory. Consumer GPUs (RTX 4090, RTX 3090 without NVLink)"
            + " and many VMs have no P2P; on other machines IOMMU/ACS or GPUs under different CPU sockets refuse"
            + " it.",
        hits.stream().map(NcclWarning::evidence).toList(),
        "Turn the custom all-reduce off so NCCL does the all-reduce: vLLM and SGLang"
            + " --disable-custom-all-reduce (vLLM's Python API: disable_custom_all_reduce=True); TensorRT-LLM"
            + " before 0.12: build the engine without use_custom_all_reduce (later versions choose for"
            + " themselves). Check which pairs have P2P with nvidia-smi topo -p2p r and the CUDA sample"
            + " p2pBandwidthLatencyTest; on bare metal ACS off and iommu=pt, in a VM P2P in the GPU"
            + " passthrough. DeepEP's intranode kernels need P2P (NVLink) between every GPU pair.");
  }

  /** CUDA 711 in its words, its runtime name or its driver name (lower-cased text). */
  private static boolean tooManyPeers(String m) {
    return m.contains("peer mapping resources exhausted")
        || m.contains("toomanypeers")
        || m.contains("too_many_peers");
  }
}
