package io.topolens.nccl;

import io.topolens.model.NcclWarning;
import io.topolens.model.NcclWarning.Kind;

/**
 * Lines of the runtimes, launchers and platforms around an NCCL job, in their own words and without
 * NCCL's: CUDA's error strings as PyTorch raises them ({@code RuntimeError: CUDA error:
 * uncorrectable ECC error encountered}, cudaGetErrorString's list), PyTorch's allocator out of
 * memory and its missing driver, NVML, nvidia-smi and libnvidia-container failing to reach the
 * driver, the signal that ended a rank as MPICH's hydra, torchrun's failure table, Lightning and
 * Kubernetes print it, and Open MPI's TCP transport reaching an unexpected process. Read as a
 * warning of the kind the words say; null for other lines and for CUDA errors of no known kind.
 * Apart from {@link FrameworkLine}, which reads the frameworks' NCCL and c10d lines.
 */
final class PlatformLine {
  private PlatformLine() {}

  /** The event of such a line, or null. */
  static NcclEvent parse(String text) {
    int at = text.indexOf(Needles.CUDA_ERROR);
    if (at >= 0) {
      Kind kind = cudaKind(text, at);
      return kind == Kind.OTHER ? null : warning(kind, text);
    }
    at = text.indexOf(Needles.KERNEL_ASSERT);
    if (at > 0 && text.lastIndexOf("block: [", at) >= 0 && text.lastIndexOf("thread: [", at) >= 0) {
      // a kernel's assert() as CUDA prints it before cudaErrorAssert (710): "FILE.cu:240: KERNEL:
      // block: [0,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed."
      return warning(Kind.CUDA_FAULT, text);
    }
    if (text.contains(Needles.TORCH_CUDA_UNKNOWN + " - this may be due to")
        || text.contains(Needles.TORCH_CUDA_INIT + ", you might not have a CUDA gpu")) {
      // c10/cuda/CUDAFunctions.cpp: cudaGetDeviceCount's 999 and 3 in PyTorch's words
      return warning(Kind.GPU_UNAVAILABLE, text);
    }
    if (text.contains(Needles.TORCH_NO_GPUS)
        || text.contains("device >= 0 && " + Needles.TORCH_DEVICE_INDEX + " INTERNAL ASSERT")) {
      // CUDAFunctions.cpp's cudaErrorNoDevice; CUDAContext.cpp's check of a device index the
      // process does not see (LOCAL_RANK beyond CUDA_VISIBLE_DEVICES)
      return warning(Kind.INVALID_DEVICE, text);
    }
    if (text.contains(Needles.CUDA_OOM + ". Tried to allocate")) {
      // c10/cuda/CUDACachingAllocator.cpp, torch 1.x-2.11
      return warning(Kind.GPU_MEMORY, text);
    }
    if (text.contains(Needles.NO_DRIVER + " on your system")
        || text.contains(Needles.NVML_INIT + ": ")
        || text.contains("couldn't " + Needles.SMI_NO_DRIVER)
        || (text.contains(Needles.CONTAINER_CLI) && text.contains(" error: "))) {
      // the driver's words, classified as NCCL's own NVML and CUDA warnings are
      Kind kind = WarningClassifier.classify("", text.strip());
      return kind == Kind.OTHER ? null : warning(kind, text);
    }
    int signal = signal(text);
    Kind ended =
        switch (signal) {
          case 9 -> Kind.KILLED;
          case 11 -> Kind.SEGFAULT;
          case 6 -> Kind.ABORTED;
          case 7 -> Kind.SHM;
          default -> null;
        };
    if (ended == Kind.SHM && namesBusError(text)) {
      return new NcclEvent.Warning(ended, text.strip(), null, new NcclWarning.Detail.BusError());
    }
    if (ended != null) {
      return warning(ended, text);
    }
    if (outOfMemoryKilled(text)) {
      return warning(Kind.KILLED, text);
    }
    if (unschedulable(text)) {
      return warning(Kind.UNSCHEDULABLE, text);
    }
    if (!text.contains("raise ")
        && (text.contains(Needles.HOROVOD_SSH) || text.contains(Needles.HOROVOD_SSH_FAILED))) {
      // horovodrun's ssh check before it starts any rank (not the raise a traceback quotes)
      return warning(Kind.MPI_DAEMON, text);
    }
    if (text.contains("Unable to find a set of " + Needles.HOROVOD_NICS)) {
      // horovodrun found no interface name every host has: socket-interface's class
      return new NcclEvent.Warning(
          Kind.SOCKET,
          text.strip(),
          null,
          new NcclWarning.Detail.SocketReport(
              NcclWarning.SocketSource.HOROVOD_NO_COMMON_INTERFACE));
    }
    if (text.contains(Needles.PDSH_SSH) && text.contains("pdsh@")) {
      // pdsh (DeepSpeed's pdsh launcher, the default for several hosts) could not ssh to a node:
      // its daemons never started there, mpi-daemon-failed's class
      return warning(Kind.MPI_DAEMON, text);
    }
    if (text.contains(Needles.BTL_TCP_PEER) && text.contains("btl_tcp")
        || (text.contains(Needles.BTL_TCP_ENDPOINT)
            && text.contains("connect() to ")
            && text.contains(" failed: "))) {
      // btl_tcp_endpoint.c: a peer's address on an interface every node has (docker0, a bridge)
      // reached another node's process, or none: MPI's own transport, mpi-transport-error's
      return new NcclEvent.Warning(
          Kind.MPI_TRANSPORT, text.strip(), null, new NcclWarning.Detail.MpiTransport(true));
    }
    return null;
  }

  /**
   * The kind of the CUDA error at {@code at} ({@code CUDA error: TEXT}): TEXT classified as NCCL's
   * {@code Cuda failure 'TEXT'} would be; {@link Kind#OTHER} for errors of no known kind. TEXT ends
   * at the line's end, or where PyTorch's next sentence starts on the same line (a JSON error
   * file's {@code \n}).
   */
  static Kind cudaKind(String text, int at) {
    int from = at + Needles.CUDA_ERROR.length();
    int end = text.length();
    for (String stop : new String[] {"\\n", "\n", "CUDA kernel errors"}) {
      int s = text.indexOf(stop, from);
      if (s >= 0 && s < end) {
        end = s;
      }
    }
    String words = text.substring(from, end).strip();
    if (words.endsWith(".")) {
      words = words.substring(0, words.length() - 1);
    }
    return words.isEmpty()
        ? Kind.OTHER
        : WarningClassifier.classify("", "Cuda failure '" + words + "'");
  }

  /** Exit code -7: SIGBUS as torchrun's agent and DeepSpeed's launcher print a signal. */
  private static final java.util.regex.Pattern EXIT_SIGBUS =
      java.util.regex.Pattern.compile(
          "(exitcode: |exitcode  : |return code = |terminated with code )-7(?!\\d)");

  /**
   * Whether a signal-7 line names the bus error, not only the number: a runtime's {@code Bus
   * error}, a launcher's {@code Signal 7 (SIGBUS)}, {@code <Signals.SIGBUS: 7>}, {@code exitcode:
   * -7}.
   */
  private static boolean namesBusError(String text) {
    String m = text.toLowerCase(java.util.Locale.ROOT);
    return m.contains("bus error") || m.contains("sigbus") || EXIT_SIGBUS.matcher(m).find();
  }

  /**
   * The signal a launcher says ended a rank, -1 when the line says none: MPICH's and Intel MPI's
   * hydra ({@code = KILLED BY SIGNAL: 9 (Killed)}, {@code = EXIT CODE: 139}, a wait status: {@link
   * #waitStatusSignal}, {@code YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault
   * (signal 11)}), torchrun's ChildFailedError table ({@code exitcode : -9 (pid: 36071)}),
   * Lightning's child-process observer ({@code Child process with PID 9487 terminated with code
   * -9}).
   */
  static int signal(String text) {
    int at = text.indexOf(Needles.HYDRA_KILLED);
    if (at >= 0) {
      return number(text, at + Needles.HYDRA_KILLED.length());
    }
    at = text.indexOf(Needles.HYDRA_EXIT);
    if (at >= 0) {
      return waitStatusSignal(number(text, at + Needles.HYDRA_EXIT.length()));
    }
    at = text.indexOf(Needles.HYDRA_STRING);
    if (at >= 0) {
      int s = text.indexOf("(signal ", at);
      return s < 0 ? -1 : number(text, s + 8);
    }
    at = text.indexOf(Needles.EXIT_TABLE);
    if (at >= 0 && text.indexOf("(pid: ", at) > 0) {
      return number(text, at + Needles.EXIT_TABLE.length());
    }
    at = text.indexOf(Needles.SPAWN_SIGNAL);
    if (at >= 0) {
      String name = text.substring(at + Needles.SPAWN_SIGNAL.length() - 3).strip();
      return switch (name) {
        case "SIGKILL" -> 9;
        case "SIGSEGV" -> 11;
        case "SIGABRT" -> 6;
        case "SIGBUS" -> 7;
        default -> -1;
      };
    }
    at = text.indexOf(Needles.CHILD_CODE);
    if (at >= 0 && text.lastIndexOf("Child process with PID ", at) >= 0) {
      return number(text, at + Needles.CHILD_CODE.length());
    }
    return -1;
  }

  /**
   * Kubernetes ended a container for memory: its status {@code Reason: OOMKilled} (the kernel's OOM
   * killer in the container's cgroup; {@code kubectl get pods} shows it as the status), and the
   * kubelet's eviction under node memory pressure ({@code The node was low on resource: memory.
   * Container pytorch was using 61290852Ki, which exceeds its request of 0.}).
   */
  static boolean outOfMemoryKilled(String text) {
    int at = text.indexOf(Needles.OOM_KILLED);
    if (at >= 0) {
      int end = at + Needles.OOM_KILLED.length();
      return (at == 0 || !Character.isLetter(text.charAt(at - 1)))
          && (end == text.length() || !Character.isLetter(text.charAt(end)));
    }
    return text.contains("The node was " + Needles.EVICTED_MEMORY);
  }

  /**
   * A scheduler that could not place the job's processes: kube-scheduler's {@code 0/4 nodes are
   * available: 4 Insufficient nvidia.com/gpu.} (any resource it names Insufficient), the kubelet's
   * {@code Allocate failed due to requested number of devices unavailable for nvidia.com/gpu},
   * Slurm's {@code Unable to allocate resources: Requested node configuration is not available},
   * Open MPI's {@code There are not enough slots available in the system to satisfy the 8 slots},
   * vLLM's {@code The number of required GPUs exceeds the total number of available GPUs in the
   * placement group.}
   */
  static boolean unschedulable(String text) {
    if (text.contains("exceeds the total number of " + Needles.PLACEMENT_GPUS)) {
      // vLLM's Ray executor (ray_utils.py): tensor x pipeline parallel GPUs the Ray cluster lacks
      return true;
    }
    int at = text.indexOf(Needles.NODES_AVAILABLE);
    if (at >= 0) {
      return text.indexOf(" Insufficient ", at) > 0;
    }
    return text.contains("Allocate failed due to " + Needles.DEVICES_UNAVAILABLE)
        || text.contains(Needles.NODE_CONFIGURATION)
        || text.contains("There are " + Needles.NO_SLOTS);
  }

  private static NcclEvent warning(Kind kind, String text) {
    return new NcclEvent.Warning(kind, text.strip(), null, null);
  }

  /**
   * The signal that ended a process, read from the wait status hydra prints as its {@code EXIT
   * CODE}, -1 where the status is not a signal's. hydra's proxy (pmip_cb.c) keeps each process's
   * status as waitpid gave it, and pmiserv_cb.c prints the block only for a process that did not
   * exit ({@code !WIFEXITED}), the status unchanged: the signal in its low seven bits, 0x80 where
   * it dumped core ({@code 139} is SIGSEGV with a core, {@code 9} SIGKILL). A status of a process
   * that exited ({@code 256}: exit(1)) or stopped ({@code 0x7f} low bits) names no signal.
   */
  static int waitStatusSignal(int status) {
    int signal = status & 0x7f;
    return status < 0 || status > 0xff || signal == 0 || signal == 0x7f ? -1 : signal;
  }

  /** The decimal number at {@code at}, -1 when none starts there. */
  private static int number(String s, int at) {
    int end = at;
    while (end < s.length() && end - at < 9 && Character.isDigit(s.charAt(end))) {
      end++;
    }
    return end == at ? -1 : Integer.parseInt(s.substring(at, end));
  }
}
