package io.topolens.nccl;

import io.topolens.model.LaunchedRank;
import io.topolens.model.NcclWarning;
import io.topolens.model.NcclWarning.Kind;
import io.topolens.model.WatchdogReport;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lines a framework (PyTorch's ProcessGroupNCCL, Horovod, nccl-tests) prints about an NCCL failure,
 * without NCCL's debug header: {@code DistBackendError: NCCL error in: FILE:LINE, unhandled system
 * error ..., NCCL version 2.19.3}, {@code ncclSystemError: System call ... failed}, the text after
 * {@code Last error:}, {@code NCCL communicator was aborted}, and the watchdog's {@code Watchdog
 * caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1,
 * Timeout(ms)=600000) ran for 600013 milliseconds}. Forms from PyTorch 1.8 to 2.9 and NCCL 2.4 to
 * 2.29 (ProcessGroupNCCL.cpp, NCCLUtils.hpp, nccl.h.in's ncclGetErrorString).
 */
final class FrameworkLine {
  private FrameworkLine() {}

  /** NCCL's result names, and the words ncclGetErrorString and frameworks print for them. */
  private record Result(String name, String says) {}

  private static final List<Result> RESULTS =
      List.of(
          new Result("ncclUnhandledCudaError", "unhandled cuda error"),
          new Result("ncclSystemError", "unhandled system error"),
          new Result("ncclInternalError", "internal error"),
          new Result("ncclInvalidArgument", "invalid argument"),
          new Result("ncclInvalidUsage", "invalid usage"),
          new Result("ncclRemoteError", "remote process exited or there was a network error"),
          new Result("ncclInProgress", "NCCL operation in progress"),
          // NCCL 1.x's ncclInvalidType (src/core.cu): NCCL 2 has no such result, so a program built
          // for NCCL 2 that prints it loaded NCCL 1's library (Horovod's "ncclAllReduce failed:
          // invalid data type")
          new Result("ncclInvalidType", "invalid data type"));

  private static final String WATCHDOG = "Watchdog caught collective operation timeout: WorkNCCL(";

  /**
   * The same timeout where the caller waits (TORCH_NCCL_BLOCKING_WAIT=1): {@code Work
   * WorkNCCL(SeqNum=2521, OpType=ALLREDUCE, ...) timed out in blocking wait.}
   */
  private static final String BLOCKING = "Work WorkNCCL(";

  private static final String BLOCKED = ") timed out in blocking wait";

  /**
   * PyTorch's watchdog dying of an error it caught: {@code [Rank 0] NCCL watchdog thread terminated
   * with exception: CUDA error: an illegal memory access was encountered} (2.0, 2.1), {@code
   * Process group watchdog thread terminated with exception: NCCL error: remote process exited or
   * there was a network error, NCCL version 2.21.5} (2.2 and later).
   */
  private static final String WATCHDOG_DIED = "watchdog thread terminated with exception: ";

  /**
   * PyTorch Lightning's announcement of a process's rank: {@code initializing ddp: GLOBAL_RANK: 1,
   * MEMBER: 2/8} (1.0-1.5), {@code Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/8} (1.6 on
   * and Fabric).
   */
  private static final List<String> ANNOUNCES =
      List.of("initializing ddp: ", "Initializing distributed: ");

  /** The event of a framework line, or null when the line is none of these forms. */
  static NcclEvent parse(String text) {
    if (text.contains(Needles.PADDLE_NCCL_CONTEXT)) {
      // Paddle is about to create an NCCL communicator: the process reached NCCL's init
      return new NcclEvent.Stage(io.topolens.model.Progress.Stage.BOOTSTRAP);
    }
    if (text.contains(Needles.SLURM_MANAGED)) {
      return new NcclEvent.Launched(LaunchedRank.SLURM, -1, -1, "");
    }
    int at = text.indexOf(Needles.GLOBAL_RANK);
    if (at >= 0) {
      NcclEvent launched = launched(text, at);
      if (launched != null) {
        return launched;
      }
    }
    at = text.indexOf(WATCHDOG);
    if (at >= 0) {
      NcclEvent numbered = timeout(text, at);
      return numbered != null ? numbered : unnumbered(text, at);
    }
    at = text.indexOf(Needles.WATCHDOG_CAUGHT);
    if (at >= 0) {
      // 1.8's blocking wait ("Caught collective operation timeout: WorkNCCL(OpType=...") or the
      // watchdog's line cut before its WorkNCCL(...) fields
      return unnumbered(text, at);
    }
    at = text.indexOf(BLOCKING);
    if (at >= 0) {
      int close = text.indexOf(BLOCKED, at);
      if (close > 0) {
        return timeout(text, at, text.substring(at + BLOCKING.length(), close), -1);
      }
    }
    at = text.indexOf(WATCHDOG_DIED);
    if (at >= 0 && !text.contains(WATCHDOG)) {
      NcclEvent died = watchdogDied(text, at, text.substring(at + WATCHDOG_DIED.length()));
      if (died != null) {
        return died;
      }
    }
    NcclEvent report = watchdogReport(text);
    if (report != null) {
      return report;
    }
    if (watchdogStuck(text)) {
      return alone(Kind.WATCHDOG_STUCK, text);
    }
    at = text.indexOf("NCCL error in: ");
    if (at >= 0) {
      return errorIn(text, at + 15);
    }
    at = text.indexOf("NCCL communicator was aborted");
    if (at >= 0) {
      return new NcclEvent.Failure(rank(text, at), "aborted", text.substring(at).strip(), null);
    }
    for (Result r : RESULTS) {
      at = text.indexOf(r.name());
      if (at >= 0
          && text.startsWith(":", at + r.name().length())
          && (at == 0 || !Character.isLetterOrDigit(text.charAt(at - 1)))) {
        String detail = text.substring(at + r.name().length() + 1).strip();
        return new NcclEvent.Failure(rank(text, at), r.name(), detail, null);
      }
    }
    // Horovod, TensorFlow and C++ callers: "ncclCommInitRank failed: unhandled cuda error"; XLA's
    // "NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system error (run
    // with NCCL_DEBUG=INFO for details). Last NCCL warning(error) log entry (may be unrelated)
    // '...'"
    // (XLA nests it: "custom call 'xla.gpu.all_reduce' failed: ...nccl_utils.cc:305: NCCL
    // operation ... failed: ...", so each " failed: " is tried)
    for (at = text.indexOf(" failed: "); at > 0; at = text.indexOf(" failed: ", at + 1)) {
      if (text.lastIndexOf("nccl", at) >= 0) {
        String words = reason(text.substring(at + 9));
        Result r = bySaying(words);
        if (r != null) {
          return new NcclEvent.Failure(rank(text, at), r.name(), words, null);
        }
      }
    }
    // XLA's text wrapped after "failed:": the next line starts with NCCL's words
    at = text.indexOf(XLA_LAST_WARNING);
    if (at > 0) {
      String words = reason(text.substring(0, at));
      Result r = bySaying(words);
      if (r != null) {
        return new NcclEvent.Failure(rank(text, at), r.name(), words, null);
      }
    }
    if ((text.contains(Needles.NVLS)
            && text.contains("Failed to bind")
            // 2.28's INFO line: NCCL goes on without NVLS, as it does with the INFO header
            && !text.contains("Proceeding without NVLS support"))
        || text.contains("shared memory segment /dev/shm/nccl-")
        || text.contains(Needles.NO_ALGORITHM)
        || text.contains("ncclIbRoceGetVersionNum")
        || text.contains("Got completion from peer")
        || text.contains("Got completion with error")
        || text.contains(Needles.DUPLICATE_GPU)
        // CUDA 217 from a framework's own P2P path (custom all-reduce), or NCCL's text pasted
        || text.contains(Needles.PEER_ACCESS)
        // ProcessGroupNCCL's own refusals: no GPU in the process, a tensor not on a GPU
        || text.contains("ProcessGroupNCCL is only supported with GPUs")
        || text.contains("NCCL only supports CUDA tensors")) {
      // NCCL's own failure text pasted alone (the WARN line or PyTorch's "Last error:" text)
      return alone(text);
    }
    if (collectivesDiffer(text)) {
      return alone(Kind.COLLECTIVE_MISMATCH, text);
    }
    if (text.contains(Needles.DDP_UNFINISHED_REDUCTION) || text.contains(Needles.DDP_NO_GRAD)) {
      return alone(Kind.DDP_UNUSED_PARAMETERS, text);
    }
    io.topolens.model.NcclWarning.Detail.LoaderFailure loader = loaderRefused(text);
    if (loader != null) {
      return alone(LoaderLine.kind(loader), text, loader);
    }
    if (notBuilt(text)
        || notLoadable(text)
        || tensorflowWithoutNccl(text)
        || buildFoundNone(text)) {
      return alone(Kind.NCCL_NOT_BUILT, text);
    }
    if (text.contains(Needles.DRIVER_INSUFFICIENT)
        || text.contains(Needles.DRIVER_TOO_OLD)
        || ((text.contains(Needles.CONFIG_UNDEF) || text.contains("undefined symbol: nccl"))
            && WarningClassifier.olderLibrary(text.toLowerCase(Locale.ROOT)))) {
      // CUDA 35 in the runtime's or PyTorch's words; a library older than the program's headers
      return alone(text);
    }
    if (serviceMesh(text)) {
      return alone(Kind.SERVICE_MESH, text);
    }
    if (portInUse(text)) {
      return alone(
          Kind.PORT_IN_USE,
          text,
          new NcclWarning.Detail.PortInUse(
              text.toLowerCase(Locale.ROOT).contains("address already in use")
                  || text.contains("EADDRINUSE")));
    }
    if (busError(text)) {
      return alone(Kind.SHM, text, new NcclWarning.Detail.BusError());
    }
    if (text.contains(Needles.NO_SPACE) && !NcclFailureTexts.holds(text)) {
      // ENOSPC: in /dev/shm where the line names it (PyTorch's shared-memory files are
      // "</torch_PID_N>"), else on a file system the line does not name; NCCL's own texts
      // (posix_fallocate's) are read as NCCL's warning
      return alone(
          text.contains("/dev/shm") || text.contains("</torch_") ? Kind.SHM : Kind.NO_SPACE, text);
    }
    if (killed(text)) {
      return alone(Kind.KILLED, text);
    }
    if (segfault(text)) {
      return alone(Kind.SEGFAULT, text);
    }
    if (aborted(text)) {
      return alone(Kind.ABORTED, text, thrown(text));
    }
    if (cancelled(text)) {
      return alone(Kind.CANCELLED, text);
    }
    if (agentSignalled(text)) {
      return alone(Kind.CANCELLED, text, agentSignal(text));
    }
    NcclWarning.Detail.EndpointNotGiven endpoint = endpointNotGiven(text);
    if (endpoint != null) {
      return alone(Kind.RENDEZVOUS_ENV, text, endpoint);
    }
    if (envNotSet(text)) {
      return alone(Kind.RENDEZVOUS_ENV, text, rendezvousMissing(text));
    }
    if ((text.contains("Cannot " + Needles.CUDA_FORKED) && !text.contains("\"Cannot "))
        || text.contains("create new processes if " + Needles.CUDA_ALREADY_INITIALIZED)) {
      // PyTorch's _lazy_init in a forked child, Lightning's check before it forks (not the
      // string literal a traceback quotes)
      return alone(Kind.CUDA_BEFORE_FORK, text);
    }
    if (rendezvousClosed(text)) {
      return alone(Kind.RENDEZVOUS_CLOSED, text);
    }
    if (text.contains("Default process " + Needles.NO_PROCESS_GROUP) && !text.contains("raise ")) {
      // distributed_c10d.py's _get_default_group: no init_process_group in this process (not the
      // raise statement a traceback quotes)
      return alone(Kind.NO_PROCESS_GROUP, text);
    }
    NcclWarning.Detail.ModelParallelGroup group = modelParallelGroup(text);
    if (group != null) {
      return alone(Kind.NO_PROCESS_GROUP, text, group);
    }
    if (lagging(text)) {
      return alone(Kind.LAGGING, text);
    }
    if ((text.contains(Needles.MPI_DAEMON_LOST) && text.contains("remote daemon"))
        || (text.contains(Needles.MPI_DAEMON_START) && text.contains("was unable to"))
        || (text.contains(Needles.MPI_DAEMON_FAILED) && text.contains("after launch"))
        || (text.contains(Needles.SSH_UNREACHABLE) && text.contains("hostfile"))
        || (text.contains(Needles.SSH_CHECK)
            && text.contains("hostname")
            && text.contains("returned non-zero exit status"))) {
      // Open MPI's runtime (ORTE, PRRTE) lost or never started its daemon on another node;
      // DeepSpeed's runner could not ssh to its hostfile's first host (its words, or Python's
      // CalledProcessError of the check's ssh command)
      return alone(Kind.MPI_DAEMON, text);
    }
    if (interposerFailed(text)) {
      return alone(Kind.GPU_INTERPOSER, text);
    }
    if (mpiTransportFailed(text)) {
      return alone(Kind.MPI_TRANSPORT, text, new NcclWarning.Detail.MpiTransport(false));
    }
    if (text.contains(Needles.VERBS_NO_PROVIDER) && text.contains("no userspace")) {
      // libibverbs lists a uverbs device it has no provider for (libmlx5 missing in a container):
      // ib-device-unavailable's, as NCCL's own "Unable to open device"
      return alone(Kind.IB_DEVICE, text);
    }
    if (text.contains(Needles.GLOO_LOOPBACK) || text.contains(Needles.GLOO_MESH)) {
      // PyTorch's Gloo group bound to loopback, or its pairs could not all connect:
      // socket-interface
      // reads the two together
      return alone(
          Kind.SOCKET,
          text,
          text.contains(Needles.GLOO_LOOPBACK)
              ? new NcclWarning.Detail.SocketReport(NcclWarning.SocketSource.GLOO_LOOPBACK)
              : null);
    }
    if (text.contains(Needles.LIGHTNING_DEVICES)) {
      // Lightning refused GPU indices the process does not see ("But your machine only has: [0]")
      return alone(Kind.INVALID_DEVICE, text);
    }
    if (uniqueIdWait(text) && storeClosed(text)) {
      // rank 0's store closed its connection before rank 0 published the unique id: rank 0's
      // process ended first, a consequence of its own failure (not the store's timeout)
      return NcclEvent.KNOWN;
    }
    if (storeFailed(text) || storeNameUnresolved(text)) {
      return alone(Kind.RENDEZVOUS, text);
    }
    NcclEvent old = oldWarning(text);
    if (old != null) {
      return old;
    }
    NcclEvent test = testCudaFailure(text);
    if (test != null) {
      return test;
    }
    NcclEvent failed = ncclFailure(text);
    if (failed != null) {
      return failed;
    }
    if (efaProvider(text) || socketFailure(text) || text.contains(Needles.CUDA_NOT_READY)) {
      // CUDA 802 in its callers' words (nccl-tests' check is read above): nvls-error's
      // libfabric's EFA provider, NCCL's socket text: classified as NCCL's WARN text would be
      return alone(text);
    }
    if (noEfaProvider(text)) {
      return alone(Kind.NET_PLUGIN, text, OfiFailures.read(text));
    }
    if (text.contains("detected by watchdog at work:")) {
      return NcclEvent.KNOWN;
    }
    if (text.contains(Needles.INVALID_ORDINAL)) {
      // CUDA 101 from the framework (set_device with a local rank the process has no GPU for)
      return alone(text);
    }
    NcclEvent runtime = ClusterRuntimeLine.parse(text);
    if (runtime != null) {
      return runtime;
    }
    NcclEvent platform = PlatformLine.parse(text);
    if (platform != null) {
      return platform;
    }
    NcclEvent sent = launcherSetting(text);
    if (sent != null) {
      return sent;
    }
    NcclEvent shell = shellSetting(text);
    if (shell != null) {
      return shell;
    }
    NcclEvent version = bareVersion(text);
    if (version == null) {
      String named = NcclVersionNamed.parse(text);
      return named == null ? null : new NcclEvent.VersionNamed(named);
    }
    return version;
  }

  private static final String SOCKET_IFNAME = "NCCL_SOCKET_IFNAME";

  /**
   * An MPI launcher's command line that sends NCCL's interface setting to every process: Open MPI's
   * {@code mpirun ... -x NCCL_SOCKET_IFNAME=enp6s0 ...}, MPICH's and Intel MPI's {@code -genv
   * NCCL_SOCKET_IFNAME enp6s0}; null otherwise. One value on every host, whatever its interfaces.
   */
  static NcclEvent launcherSetting(String text) {
    int at = text.indexOf(SOCKET_IFNAME);
    if (at < 0) {
      return null;
    }
    int end = at + SOCKET_IFNAME.length();
    String value;
    if (text.startsWith("-x ", at - 3) && text.startsWith("=", end)) {
      value = new Cursor(text, end + 1).word();
    } else if (text.startsWith("-genv ", at - 6)
        && end < text.length()
        && (text.charAt(end) == ' ' || text.charAt(end) == '=')) {
      value = new Cursor(text, end + 1).word();
    } else {
      return null;
    }
    if (value == null) {
      return null;
    }
    value = value.replaceAll("[`'\"]", "");
    return value.isEmpty() ? null : new NcclEvent.EnvSet(SOCKET_IFNAME, value);
  }

  /**
   * The settings a user's own lines show that NCCL does not print, or prints only at INFO: the
   * bootstrap root, and the RoCE GID selection (a GID index left to NCCL beside a RoCE version).
   */
  private static final List<String> SHELL_SETTINGS =
      List.of("NCCL_COMM_ID", "NCCL_IB_ROCE_VERSION_NUM", "NCCL_IB_GID_INDEX");

  /**
   * One of {@link #SHELL_SETTINGS} as the user shows it: a shell assignment alone on its line
   * ({@code NCCL_COMM_ID=172.17.16.2:12340}, {@code export NCCL_IB_ROCE_VERSION_NUM=2;}) or sent by
   * a launcher ({@code mpirun -x NCCL_COMM_ID=...}); null otherwise, and for a line commented out
   * ({@code #export NCCL_IB_GID_INDEX=7;}).
   */
  static NcclEvent shellSetting(String text) {
    for (String name : SHELL_SETTINGS) {
      int at = text.indexOf(name + "=");
      if (at < 0) {
        continue;
      }
      String before = text.substring(0, at).strip();
      if (!(before.isEmpty()
          || before.equals("export")
          || before.endsWith(" -x")
          || before.equals("-x"))) {
        return null;
      }
      String value = new Cursor(text, at + name.length() + 1).word();
      if (value == null) {
        return null;
      }
      value = value.replaceAll("[`'\";]", "");
      return value.isEmpty() ? null : new NcclEvent.EnvSet(name, value);
    }
    return null;
  }

  private static final String VERSION = "NCCL version ";

  /**
   * NCCL's version line without NCCL's header, as rank 0 prints it beside the INFO lines or a
   * launcher prefixes it: {@code NCCL version 2.18.5+cuda11.8}, {@code [1,0]<stdout>:NCCL version
   * 2.19.3+cuda12.3}; nothing may follow the version. Null for other lines.
   */
  static NcclEvent bareVersion(String text) {
    String t = text.strip();
    int at = t.indexOf(VERSION);
    if (at < 0 || (at > 0 && t.charAt(at - 1) != ':' && t.charAt(at - 1) != ' ')) {
      return null;
    }
    String v = t.substring(at + VERSION.length()).strip();
    if (v.isEmpty() || v.indexOf(' ') >= 0 || !Character.isDigit(v.charAt(0))) {
      return null;
    }
    return new NcclEvent.Version(v);
  }

  /**
   * A rank Lightning announced ({@link #ANNOUNCES}), with the shape of the logger's prefix before
   * it (digits as {@code #}); null when the words around {@code GLOBAL_RANK: } are not Lightning's.
   */
  private static NcclEvent launched(String text, int at) {
    String before = null;
    for (String a : ANNOUNCES) {
      if (text.startsWith(a, at - a.length())) {
        before = text.substring(0, at - a.length());
      }
    }
    if (before == null) {
      return null;
    }
    Cursor c = new Cursor(text, at + Needles.GLOBAL_RANK.length());
    long rank = c.integer();
    int member = text.indexOf(", MEMBER: ", at);
    if (rank < 0 || member < 0) {
      return null;
    }
    int slash = text.indexOf('/', member);
    long world = slash < 0 ? -1 : number(text, slash + 1);
    if (world <= 0) {
      return null;
    }
    String stream = before.strip().replaceAll("[0-9]", "#");
    return new NcclEvent.Launched("lightning", (int) rank, (int) world, stream);
  }

  /**
   * The group of a model-parallel framework's assertion ({@code AssertionError: tensor model
   * parallel group is not initialized}: Megatron-LM, NeMo, vLLM), or null: only the raised
   * assertion, not the assert statement a traceback quotes.
   */
  static NcclWarning.Detail.ModelParallelGroup modelParallelGroup(String text) {
    int at = text.indexOf(Needles.PARALLEL_GROUP_UNSET);
    if (at < 0) {
      // vLLM's (and SGLang's) world group: "AssertionError: world group is not initialized"
      int world = text.indexOf(Needles.WORLD_GROUP_UNSET);
      return world < 0 || text.lastIndexOf("AssertionError: ", world) < 0
          ? null
          : new NcclWarning.Detail.ModelParallelGroup("world group");
    }
    String raised = "AssertionError: ";
    int from = at < 0 ? -1 : text.lastIndexOf(raised, at);
    if (from < 0) {
      return null;
    }
    String group = text.substring(from + raised.length(), at + "parallel group".length()).strip();
    return new NcclWarning.Detail.ModelParallelGroup(group);
  }

  /**
   * What a multi-node launch says it was not given, or null: torchrun's endpoint with no host or
   * port ({@code The port number of the rendezvous endpoint 'None:None' must be an integer between
   * 0 and 65536.}: the endpoint as printed, only where its port is missing or None), accelerate's
   * {@code When using multiple machines, you need to specify the main process IP.} (its words, not
   * the string literal a traceback quotes).
   */
  static NcclWarning.Detail.EndpointNotGiven endpointNotGiven(String text) {
    int at = text.indexOf(Needles.ENDPOINT_PORT + " '");
    if (at >= 0) {
      int from = at + Needles.ENDPOINT_PORT.length() + 2;
      int end = text.indexOf('\'', from);
      String endpoint = end < 0 ? "" : text.substring(from, end);
      int colon = endpoint.lastIndexOf(':');
      String port = colon < 0 ? "" : endpoint.substring(colon + 1);
      return end < 0 || !(port.isEmpty() || port.equals("None"))
          ? null
          : new NcclWarning.Detail.EndpointNotGiven(endpoint);
    }
    at = text.indexOf(Needles.MAIN_PROCESS + " ");
    if (at < 0 || text.lastIndexOf('"', at) >= 0) {
      return null;
    }
    int from = at + Needles.MAIN_PROCESS.length() - "main process".length();
    int end = text.indexOf('.', from);
    String named = (end < 0 ? text.substring(from) : text.substring(from, end)).strip();
    return named.equals("main process IP") || named.equals("main process port")
        ? new NcclWarning.Detail.EndpointNotGiven(named)
        : null;
  }

  /** A failure line read on its own, without NCCL's header: its kind, its text. */
  private static NcclEvent alone(Kind kind, String text) {
    return alone(kind, text, null);
  }

  private static NcclEvent alone(Kind kind, String text, NcclWarning.Detail detail) {
    return new NcclEvent.Warning(kind, text.strip(), null, detail);
  }

  /** NCCL's (or CUDA's) failure text pasted alone, classified as NCCL's WARN text would be. */
  private static NcclEvent alone(String text) {
    String m = text.strip();
    return WarningClassifier.warning("", m);
  }

  private static final String TIMEOUT_AT = "Timeout at NCCL work: ";

  private static final String DUMP_SIGNAL =
      "Received a dump signal due to a collective timeout from ";

  private static final String DATA_UNSAFE = "Some NCCL operations have failed or timed out";

  /** A stack frame of PyTorch's timeout exception: {@code WorkNCCL::checkTimeout(...)}. */
  private static final String TIMEOUT_FRAME = "ProcessGroupNCCL::WorkNCCL::checkTimeout(";

  /** The header of the same stack trace: {@code Exception raised from checkTimeout at FILE:N}. */
  private static final String TIMEOUT_RAISED = "Exception raised from checkTimeout at ";

  /**
   * The watchdog's lines around a timeout (ProcessGroupNCCL.cpp, torch 2.2-2.11): {@code Timeout at
   * NCCL work: 7, last enqueued NCCL work: 8, last completed NCCL work: 6.}, {@code Received a dump
   * signal due to a collective timeout from rank 7 | from this local rank and we will try our best
   * to dump the debug info. Last enqueued NCCL work: E, last completed NCCL work: C.}, and the
   * consequence {@code Some NCCL operations have failed or timed out. Due to the asynchronous
   * nature of CUDA kernels, ...}; null for other lines.
   */
  private static NcclEvent watchdogReport(String text) {
    int at = text.indexOf(TIMEOUT_AT);
    if (at >= 0) {
      long seq = number(text, at + TIMEOUT_AT.length());
      return seq < 0
          ? null
          : new NcclEvent.Watchdog(
              WatchdogReport.Kind.TIMEOUT_AT,
              rank(text, at),
              seq,
              after(text, "last enqueued NCCL work: ", at),
              after(text, "last completed NCCL work: ", at),
              -1);
    }
    at = text.indexOf(DUMP_SIGNAL);
    if (at >= 0) {
      int rank = rank(text, at);
      String from = text.substring(at + DUMP_SIGNAL.length()).stripLeading();
      int fromRank;
      if (from.startsWith("this local rank")) {
        fromRank = rank;
      } else if (from.startsWith("rank ")) {
        fromRank = (int) number(from, 5);
      } else {
        return null;
      }
      return new NcclEvent.Watchdog(
          WatchdogReport.Kind.DUMP_SIGNAL,
          rank,
          -1,
          after(text, "Last enqueued NCCL work: ", at),
          after(text, "last completed NCCL work: ", at),
          fromRank);
    }
    at = text.indexOf(Needles.DUMP_OBSERVED);
    if (at >= 0 && text.indexOf("from another rank", at) > 0) {
      // torch 2.2-2.4: "Observed flight recorder dump signal from another rank via TCPStore."
      return new NcclEvent.Watchdog(
          WatchdogReport.Kind.DUMP_SIGNAL, rank(text, at), -1, -1, -1, -1);
    }
    at = text.indexOf(DATA_UNSAFE);
    if (at >= 0) {
      return new NcclEvent.Watchdog(
          WatchdogReport.Kind.DATA_UNSAFE, rank(text, at), -1, -1, -1, -1);
    }
    if (text.contains(TIMEOUT_FRAME) || text.contains(TIMEOUT_RAISED)) {
      return new NcclEvent.Watchdog(WatchdogReport.Kind.TIMEOUT_FRAME, -1, -1, -1, -1, -1);
    }
    return null;
  }

  /** The integer after {@code key} (past {@code from}), -1 when absent; PyTorch prints -1 too. */
  private static long after(String text, String key, int from) {
    int k = text.indexOf(key, from);
    if (k < 0) {
      return -1;
    }
    int start = k + key.length();
    boolean negative = start < text.length() && text.charAt(start) == '-';
    long l = number(text, negative ? start + 1 : start);
    return l < 0 ? -1 : negative ? -l : l;
  }

  /**
   * PyTorch's heartbeat monitor on a watchdog thread that stopped making progress (torch 2.2-2.11):
   * {@code ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in
   * monitoring enqueued collectives}, {@code Heartbeat monitor timed out! Process will be
   * terminated after dumping debug info.}, {@code Terminating the process after attempting to dump
   * debug info, due to ProcessGroupNCCL watchdog hang.}
   */
  private static boolean watchdogStuck(String text) {
    return text.contains("watchdog got stuck for ")
        || text.contains("Heartbeat monitor timed out!")
        // torch 2.4-2.11's monitor, LOG(FATAL): "Terminating the process after attempting to dump
        // debug info, due to ProcessGroupNCCL watchdog hang."
        || text.contains("due to ProcessGroupNCCL watchdog hang");
  }

  /**
   * PyTorch's rendezvous on its TCPStore (MASTER_ADDR:MASTER_PORT) that failed, in the forms of
   * torch 1.8-2.11: the server's count ({@code DistStoreError: Timed out after 1801 seconds waiting
   * for clients. 1/3 clients joined.}, {@code workers} before 2.2), a store call that ran out
   * ({@code DistStoreError: Socket Timeout}, {@code DistStoreError: wait timeout after 600000ms,
   * keys: ...}, 1.x's bare {@code RuntimeError: Socket Timeout}), a client that never reached it
   * ({@code The client socket has timed out after 600000ms while trying to connect to (HOST,
   * PORT).}, {@code The client socket has failed to connect to [ADDR]:PORT (errno: 110 - Connection
   * timed out).}: every errno is taken, the rule judges which are harmless; 2.2 on logs the same
   * timeout as {@code The server socket on [ADDR]:PORT has timed out, will retry.}), the
   * store-based barrier of 1.8-2.0 ({@code Timed out initializing process group in store based
   * barrier on rank: ...}), torchrun's elastic rendezvous ({@code RendezvousTimeoutError}, {@code
   * RendezvousConnectionError: The connection to the C10d store has failed.}), and a rank waiting
   * for rank 0's NCCL unique id.
   */
  private static boolean storeFailed(String text) {
    if (text.contains(Needles.STORE_CLIENT)
        || text.contains(Needles.STORE_CONNECT)
        // torch 2.3 on, TCPStore.cpp's retry loop: "TCP client failed to connect/validate to host
        // H:P - retrying (try=0, timeout=..., delay=...): <the socket's error>"
        || text.contains("TCP client " + Needles.STORE_VALIDATE)
        || (text.contains(Needles.STORE_RETRY) && text.contains("The server socket on "))
        || uniqueIdWait(text)
        || text.contains("RendezvousTimeoutError")
        || text.contains("RendezvousConnectionError")
        || text.contains("Timed out initializing process group in " + Needles.STORE_BARRIER)) {
      return true;
    }
    String stripped = text.strip();
    if (stripped.endsWith("RuntimeError: " + Needles.SOCKET_TIMEOUT)) {
      return true;
    }
    int at = text.indexOf(Needles.STORE + ": ");
    if (at < 0) {
      return false;
    }
    String said =
        text.substring(at + Needles.STORE.length() + 2).toLowerCase(java.util.Locale.ROOT);
    return said.contains("clients joined")
        || said.contains("workers joined")
        || said.contains("timeout")
        || said.contains("timed out");
  }

  /** getaddrinfo's words (gai_strerror: glibc, musl, macOS) for a name that did not resolve. */
  private static final List<String> UNRESOLVED =
      List.of(
          "Name or service not known",
          "Temporary failure in name resolution",
          "No address associated with hostname",
          "Non-recoverable failure in name resolution",
          "nodename nor servname provided",
          "Name does not resolve");

  /**
   * PyTorch's TCPStore client that could not resolve the store's host name (MASTER_ADDR): before
   * torch 1.10 (c10d's and THD's tcputil::connect, std::invalid_argument raised as ValueError)
   * {@code ValueError: host not found: Name or service not known}; 1.10 on (c10d's socket.cpp, one
   * line per try, then the connect's timeout) {@code [c10d] The IPv4 network addresses of (master,
   * 29500) cannot be retrieved (gai error: -3 - Temporary failure in name resolution).}, 1.10's
   * {@code The network addresses of (HOST, PORT) cannot be retrieved Name or service not known.}
   * Not c10d's {@code The hostname of the client socket cannot be retrieved. err=-3} (a reverse
   * lookup of a peer that connected, harmless) nor {@code The local network addresses cannot be
   * retrieved} (the server's own).
   */
  static boolean storeNameUnresolved(String text) {
    int at = text.indexOf(Needles.STORE_NAME);
    if (at >= 0) {
      return text.indexOf("cannot be retrieved", at) > 0;
    }
    at = text.indexOf(Needles.HOST_NOT_FOUND);
    if (at < 0) {
      return false;
    }
    String after = text.substring(at + Needles.HOST_NOT_FOUND.length());
    return UNRESOLVED.stream().anyMatch(after::startsWith);
  }

  /**
   * HAMi-core's interposer refusing a device index its own hooks computed ({@code [HAMI-core ERROR
   * (pid:2244 thread=... multiprocess_memory_limit.c:1255)]: Illegal device id: 31069}, its
   * LOG_ERROR in {@code get_current_device_memory_limit}, {@code add_gpu_device_memory_usage}...):
   * the out-of-range index it then writes with is what segfaults the process. Its {@code Msg} and
   * {@code Warn} lines ({@code Initializing.....}, {@code Kick dead proc}) are a healthy pod's.
   */
  static boolean interposerFailed(String text) {
    int at = text.indexOf(Needles.HAMI_CORE_ERROR);
    return at >= 0 && text.indexOf("Illegal device id", at) > 0;
  }

  /**
   * MPI's UCX transport failing in its own words: UCX's error log ({@code UCX ERROR ...}; its
   * {@code WARN}, {@code INFO} and {@code DEBUG} lines, such as {@code UCX WARN transport 'ud' is
   * not available}, are a running job's) or Open MPI's pml ucx that could not reach a rank ({@code
   * pml_ucx.c:477 Error: Failed to resolve UCX endpoint for rank 3}). UCX's memory-registration
   * errors ({@code uct_md_mem_reg(...): invalid parameters}, {@code failed to register address})
   * are what NCCL's own UCX plugin meets (NCCL issue 1175, beside its {@code ucx_plugin.c NCCL
   * WARN}), not MPI's connection, and are left to NCCL's lines.
   */
  static boolean mpiTransportFailed(String text) {
    return (text.contains(Needles.UCX_ERROR)
            && !text.contains("NCCL")
            && !text.contains("mem_reg")
            && !text.contains("to register"))
        || (text.contains(Needles.UCX_ENDPOINT) && text.contains("pml_ucx"));
  }

  /**
   * libfabric's EFA provider in its own words (prov/efa): the abort of {@code
   * efa_base_ep_write_eq_error} ({@code Libfabric error: (-12) Cannot allocate memory}, after
   * {@code Libfabric EFA provider has encountered an internal error:}), and its log's ENOMEM
   * ({@code efa_mr_regattr():632<warn> Unable to register MR: Cannot allocate memory}, {@code
   * Unable to write to EQ: Missing or unavailable event queue. err: Cannot allocate memory (-12)
   * prov_errno: ...}).
   */
  static boolean efaProvider(String text) {
    int at = text.indexOf(Needles.LIBFABRIC_ERROR);
    if (at >= 0) {
      int from = at + Needles.LIBFABRIC_ERROR.length();
      return from < text.length()
          && (text.charAt(from) == '-' || Character.isDigit(text.charAt(from)));
    }
    return text.contains(Needles.EFA_REGISTER_MR) || text.contains(Needles.EFA_EQ + ":");
  }

  /**
   * libfabric offered no EFA provider (FI_ENODATA, -61): {@code fi_info -p efa} printing {@code
   * fi_getinfo: -61 (No data available)}, the core's {@code fi_getinfo: provider efa returned -61
   * (No data available)} (libfabric 1.2x: {@code fi_getinfo: provider efa output empty list};
   * another provider's -61 is its own business), and the result as users quote it ({@code fi_info
   * -61}).
   */
  static boolean noEfaProvider(String text) {
    boolean enodata = text.contains("-61 (No data available)");
    if (text.contains(Needles.FI_GETINFO + ": provider ")) {
      // libfabric 1.2x says the same in other words: "fi_getinfo: provider efa output empty list"
      return enodata && text.contains("provider efa returned")
          || text.contains("provider efa output empty list");
    }
    if (text.contains(Needles.FI_GETINFO + ": -61")) {
      return true;
    }
    int at = text.indexOf(Needles.FI_INFO);
    if (at < 0) {
      return false;
    }
    int code = text.indexOf("-61", at + Needles.FI_INFO.length() - 1);
    return code >= 0
        && (code + 3 == text.length() || !Character.isDigit(text.charAt(code + 3)))
        && !Character.isDigit(text.charAt(code - 1));
  }

  /**
   * NCCL's socket failure pasted without its header, in the words of its SYSCHECK macros and socket
   * code ({@code " : "} before the errno text): {@code Call to recv failed : Connection reset by
   * peer} (2.1-2.3's include/socket.h; titles drop {@code Call to}), {@code Call to connect timeout
   * : Connection refused} (2.3's SYSCHECKNTIMES), {@code Net : Call to recv from ADDR failed :
   * Connection reset by peer}, {@code Net : Connection closed by remote peer}.
   */
  static boolean socketFailure(String text) {
    return text.contains(Needles.SOCKET_FAILED)
        || text.contains(Needles.SOCKET_TIMEOUT_FAILED)
        || text.contains(Needles.CLOSED_BY_PEER);
  }

  /**
   * Whether the store's error is its server closing the connection (c10d's Utils.hpp, torch
   * 2.3-2.11: {@code failed to recv, got 0 bytes}; the socket's {@code Connection reset by peer},
   * {@code Broken pipe}): the process that held the store (rank 0) went away.
   */
  private static boolean storeClosed(String text) {
    int at = text.indexOf("got error: ");
    if (at < 0) {
      return false;
    }
    String error = text.substring(at + 11);
    return error.startsWith("failed to recv, got 0 bytes")
        || error.startsWith("Connection reset by peer")
        || error.startsWith("Broken pipe");
  }

  /**
   * A rank that waited in PyTorch's store for rank 0's NCCL unique id and gave up
   * (ProcessGroupNCCL's broadcastUniqueNCCLID, PyTorch 1.12 on, {@code retreiving} before 2.1):
   * {@code [4] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d
   * key-value store by key '0', but store->get('0') got error: Socket Timeout}.
   */
  private static boolean uniqueIdWait(String text) {
    return text.contains("ncclUniqueId from [") && text.contains("store->get(");
  }

  /**
   * A framework's own check found the ranks' collectives differ before NCCL ran them: PyTorch's
   * ProcessGroupWrapper (TORCH_DISTRIBUTED_DEBUG=DETAIL) {@code Detected mismatch between
   * collectives on ranks.} and {@code Error when verifying shape tensors for collective ALLREDUCE
   * on rank 0.}, Accelerate's debug mode {@code Cannot apply desired operation due to shape
   * mismatches.}
   */
  private static boolean collectivesDiffer(String text) {
    return text.contains("Detected " + Needles.COLLECTIVES_DIFFER)
        || text.contains("Error when " + Needles.SHAPES_DIFFER)
        || text.contains("apply desired operation " + Needles.ACCELERATE_SHAPES);
  }

  /**
   * A build that needs NCCL found none: the compiler's {@code fatal error: nccl.h: No such file or
   * directory} (Horovod's test compile and its nccl_operations.h, other programs' builds), CMake's
   * {@code Could NOT find NCCL (missing: NCCL_INCLUDE_DIR NCCL_LIBRARY)} (Horovod's
   * FindNCCL.cmake), Horovod's setup.py {@code error: NCCL 2.0 library or its later version was not
   * found (see error above).}
   */
  private static boolean buildFoundNone(String text) {
    return text.contains("nccl.h: No such file or directory")
        || text.contains("Could NOT find NCCL")
        || text.contains("NCCL 2.0 library or its later version was not found");
  }

  /**
   * PyTorch built without NCCL (Windows, macOS, CPU-only wheels) asked for the nccl backend:
   * distributed_c10d.py's {@code RuntimeError: Distributed package doesn't have NCCL built in}, the
   * traceback's source line {@code raise RuntimeError("Distributed package doesn't have NCCL "
   * "built in")}, and the warning before it (PyTorch 2.x) {@code UserWarning: Attempted to get
   * default timeout for nccl backend, but NCCL support is not compiled}.
   */
  private static boolean notBuilt(String text) {
    return text.contains("Distributed package doesn't have NCCL")
        || text.contains("but NCCL support is not compiled");
  }

  /**
   * A service mesh's Envoy sidecar in the pod's traffic: its RBAC filter's refusal ({@code
   * rbac_access_denied_matched_policy[none]} in Istio's access log, {@code RBAC: access denied}),
   * or Istio's inbound cluster of one of the pod's ports ({@code TLS cluster inbound|23456||},
   * {@code inbound|29500||} in an access log): a port number between the bars.
   */
  private static boolean serviceMesh(String text) {
    if (text.contains(Needles.MESH_DENIED + "_matched_policy[")
        || text.contains(Needles.ENVOY_DENIED)) {
      return true;
    }
    int at = text.indexOf(Needles.MESH_INBOUND);
    if (at < 0) {
      return false;
    }
    int i = at + Needles.MESH_INBOUND.length();
    int digits = i;
    while (digits < text.length() && Character.isDigit(text.charAt(digits))) {
      digits++;
    }
    return digits > i && text.startsWith("|", digits);
  }

  /**
   * TensorFlow has no NCCL kernel or op for the NCCL collective a tf.distribute strategy asked for
   * (its Windows, macOS and CPU-only builds): {@code InvalidArgumentError: No OpKernel was
   * registered to support Op 'NcclAllReduce' used by {{node Adam/NcclAllReduce}} with these attrs:
   * ...} (TF 1.x: {@code ... 'NcclAllReduce' with these attrs. Registered devices: [CPU,GPU]}), and
   * {@code Op type not registered 'NcclAllReduce' in binary running on HOST.} Other lines that name
   * the op ({@code [[Adam/NcclAllReduce]]}, {@code Caused by op u'NcclAllReduce_30'}) are not.
   */
  private static boolean tensorflowWithoutNccl(String text) {
    return (text.contains(Needles.TF_NO_NCCL_KERNEL) && text.contains("No OpKernel was registered"))
        || (text.contains(Needles.TF_NO_NCCL_OP) && text.contains("Op type not registered 'Nccl"));
  }

  /**
   * The framework found no NCCL library it could load at run time: XLA's (JAX's) {@code NCCL
   * operation ncclGetUniqueId(&id) failed: Unable to load NCCL library. Multi-GPU collectives will
   * not work.} (jaxlib's local-CUDA install without NCCL), vLLM's pynccl {@code Failed to load NCCL
   * library from libnccl.so.2 ...}, the loader's {@code libnccl.so.2: cannot open shared object
   * file: No such file or directory} (PyTorch's {@code import torch}, Lua torch's {@code
   * libnccl.so.1}) and vLLM's {@code Cannot find libnccl.so.2 in the system}. A network plugin that
   * is not installed ({@code libnccl-net.so: cannot open shared object file}) is not this: NCCL
   * goes on without it.
   */
  private static boolean notLoadable(String text) {
    if (text.contains("load NCCL library")) {
      return true;
    }
    int at = text.indexOf("libnccl.so");
    return at >= 0
        && (text.indexOf("cannot open shared object file", at) > 0
            || text.lastIndexOf("Cannot find ", at) >= 0);
  }

  /**
   * PyTorch's TCPStore server could not listen on the master port because another process holds it:
   * c10d's socket ({@code [W socket.cpp:401] [c10d] The server socket has failed to bind to
   * 0.0.0.0:29500 (errno: 98 - Address already in use).}, the exception {@code RuntimeError: The
   * server socket has failed to listen on any local network address. ...}, 2.2 on {@code ... port:
   * 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use}), and PyTorch
   * 1.x's bare {@code RuntimeError: Address already in use} (c10d's SYSCHECK throws errno 98 as a
   * {@code std::system_error}, which pybind11 raises as a RuntimeError with only strerror's words;
   * Python's own socket raises {@code OSError: [Errno 98]} instead, so a RuntimeError with nothing
   * after these words is c10d's), also quoted in a title ({@code "RuntimeError: Address already in
   * use" when running ...}), and the old THD's {@code RuntimeError: Address already in use at
   * /pytorch/torch/lib/THD/process_group/General.cpp:17} (torch 0.4-1.0, {@code :20} in 1.0's
   * torch.distributed.deprecated). Other programs' {@code Address already in use} are not taken:
   * gloo's pair bind ({@code pair.cc:176] bind: Address already in use}), Rust's {@code
   * RuntimeError: Address already in use (os error 98)}, Python's {@code OSError: [Errno 98]}.
   */
  private static boolean portInUse(String text) {
    if (!text.contains(Needles.ADDRESS_IN_USE)) {
      return storeListenFailed(text);
    }
    return text.contains("server socket has failed to")
        || text.contains("EADDRINUSE")
        || storeBindError(text, "RuntimeError: ")
        || storeBindError(text, "DistNetworkError: ");
  }

  private static final String IN_USE = "Address already in use";

  /**
   * The loader's refusal of libnccl, libcuda or libnvidia-ml ({@link LoaderLine}), but not a
   * libnccl missing an NCCL function, which is an older library than the program's headers ({@link
   * WarningClassifier#olderLibrary}).
   */
  private static io.topolens.model.NcclWarning.Detail.LoaderFailure loaderRefused(String text) {
    if (!(text.contains(Needles.LOADER_ERROR)
        || text.contains(Needles.NO_SHARED_OBJECT)
        || text.contains(Needles.WRONG_ELF_CLASS)
        || text.contains(Needles.MAP_SEGMENT)
        || text.contains(Needles.REQUIRED_BY))) {
      return null;
    }
    // only where the refusal ended the program: the loader's own error, or Python raising it (a
    // library probed and passed over, as ollama's NVML search does, is not)
    if (!(text.contains(Needles.LOADER_ERROR)
        || text.contains("ImportError: ")
        || text.contains("OSError: "))) {
      return null;
    }
    io.topolens.model.NcclWarning.Detail.LoaderFailure f = LoaderLine.read(text);
    return f == null || (f.what() != null && f.what().startsWith("nccl")) ? null : f;
  }

  /**
   * c10d's SocketListenOp quoted without its errno: {@code The server socket has failed to listen
   * on any local network address} (thrown once every address's bind failed) or {@code ... failed to
   * bind to [::]:19936} / {@code 0.0.0.0:PORT}. The store binds the wildcard addresses, where bind
   * fails with EADDRINUSE (98) unless the port is privileged (EACCES) or the family is missing (97,
   * which socket.cpp words as {@code cannot be initialized}): the port is taken. A line that names
   * another errno is not this.
   */
  private static boolean storeListenFailed(String text) {
    if (!text.contains(Needles.SERVER_SOCKET_FAILED) || text.contains("(errno:")) {
      return false;
    }
    return text.contains("failed to listen on any local network address")
        || text.contains("failed to bind to [::]:")
        || text.contains("failed to bind to 0.0.0.0:");
  }

  /**
   * Whether {@code error} + {@code Address already in use} ends the line, is closed by a quote (a
   * title or prose quoting it), or is followed by THD's {@code at .../General.cpp:N}.
   */
  private static boolean storeBindError(String text, String error) {
    int at = text.indexOf(error + IN_USE);
    if (at < 0) {
      return false;
    }
    String rest = text.substring(at + error.length() + IN_USE.length()).strip();
    return rest.isEmpty()
        || rest.startsWith(".")
        || rest.startsWith("\"")
        || rest.startsWith("'")
        || rest.startsWith("`")
        || (rest.startsWith("at ") && rest.contains("process_group/General.cpp:"));
  }

  /**
   * A process that died of SIGBUS, as a runtime or launcher prints it: torchrun's {@code failed
   * (exitcode: -7)} and {@code Signal 7 (SIGBUS) received by PID}, {@code <Signals.SIGBUS: 7>},
   * DeepSpeed's {@code return code = -7}, UCX's {@code Caught signal 7 (Bus error: nonexistent
   * physical address)}, gdb's {@code received signal SIGBUS, Bus error.}, {@code Signal: Bus error
   * (7)}, PyTorch DataLoader's {@code Unexpected bus error encountered in worker}.
   */
  private static boolean busError(String text) {
    return endedBy(text, 7, "SIGBUS")
        || srunTask(text, "Bus error")
        || text.contains("(Bus error")
        || text.contains("SIGBUS, Bus error")
        || text.contains("Bus error (7)")
        || text.contains("Unexpected bus error encountered");
  }

  /**
   * A rank killed by SIGKILL or an out-of-memory killer: the launchers' forms of {@link #endedBy},
   * Open MPI's {@code exited on signal 9 (Killed)}, Slurm's {@code oom-kill event(s)}, the kernel's
   * {@code Out of memory: Killed process}, its memory cgroup's {@code Memory cgroup out of memory:
   * Killed process} and {@code oom-kill:constraint=CONSTRAINT_MEMCG,...,task=python,pid=1234,uid=0}
   * (Linux 4.19 on), Ray's memory monitor {@code Task was killed due to the node running low on
   * memory}, srun's {@code task 0: Out Of Memory}.
   */
  private static boolean killed(String text) {
    return endedBy(text, 9, "SIGKILL")
        || text.contains(Needles.MPI_KILLED + " (Killed)")
        || text.contains(Needles.OOM_KILL + " event")
        || text.contains(Needles.OOM_KILL + ":constraint=")
        || kernelOom(text)
        || (text.contains(Needles.RAY_OOM) && text.contains("running low on memory"))
        || srunTask(text, "Killed")
        || srunTask(text, "Out Of Memory");
  }

  /**
   * A rank that crashed with SIGSEGV: the launchers' forms of {@link #endedBy} (torchrun's {@code
   * failed (exitcode: -11)} and {@code Signal 11 (SIGSEGV) received by PID}, {@code
   * <Signals.SIGSEGV: 11>}, DeepSpeed's {@code exits with return code = -11}), Open MPI's {@code
   * exited on signal 11 (Segmentation fault)} and srun's {@code task 0: Segmentation fault}.
   */
  private static boolean segfault(String text) {
    return endedBy(text, 11, "SIGSEGV")
        || text.contains(Needles.MPI_SEGFAULT + " (Segmentation fault)")
        || srunTask(text, "Segmentation fault");
  }

  /**
   * srun's line for tasks that ended this way: {@code srun: error: gpu001: task 0: Out Of Memory},
   * {@code srun: error: node12: tasks 0-3: Killed} (strsignal's words for the signal).
   */
  private static boolean srunTask(String text, String how) {
    int at = text.indexOf(Needles.SRUN_ERROR);
    return at >= 0 && text.indexOf(": task", at) > 0 && text.strip().endsWith(": " + how);
  }

  /**
   * Whether a launcher says a rank ended by this signal: torchrun's agent {@code failed (exitcode:
   * -9)} and summary {@code Signal 9 (SIGKILL) received by PID}, Python's {@code subprocess}
   * (accelerate, DeepSpeed's runner) {@code died with <Signals.SIGKILL: 9>}, DeepSpeed's launch.py
   * {@code exits with return code = -9}.
   */
  static boolean endedBy(String text, int signal, String name) {
    return numberAfter(text, Needles.EXIT_SIGNAL, signal)
        || numberAfter(text, Needles.RETURN_CODE_SIGNAL, signal)
        || text.contains(" " + signal + " (" + name + Needles.SIGNAL_RECEIVED)
        || text.contains("<Signals." + name + ": " + signal + ">");
  }

  /** Whether {@code prefix} occurs followed by exactly the number {@code n}. */
  private static boolean numberAfter(String text, String prefix, int n) {
    String digits = Integer.toString(n);
    for (int at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
      int end = at + prefix.length();
      if (text.startsWith(digits, end)
          && (end + digits.length() == text.length()
              || !Character.isDigit(text.charAt(end + digits.length())))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Slurm ended the job or step, not a failure of its own: slurmstepd's {@code *** JOB 1234 ON n1
   * CANCELLED AT 2024-04-23T12:18:08 DUE TO TIME LIMIT ***} (also {@code PREEMPTION}, {@code NODE
   * FAILURE, SEE SLURMCTLD LOG FOR DETAILS}, {@code JOB REQUEUE}), srun's {@code *** STEP 12.0
   * CANCELLED AT ... DUE TO TIME LIMIT ***}, and the form without a reason (scancel).
   */
  private static boolean cancelled(String text) {
    int srun = text.indexOf(Needles.SRUN_ERROR);
    if (srun >= 0 && text.indexOf("Node failure on ", srun) > 0) {
      return true;
    }
    int at = text.indexOf(Needles.SLURM_CANCELLED);
    return at > 0
        && text.lastIndexOf("*** ", at) >= 0
        && (text.contains("*** JOB ") || text.contains("*** STEP "));
  }

  /**
   * torchrun's agent found its elastic rendezvous closed (dynamic_rendezvous.py,
   * etcd_rendezvous.py, torch 1.9-2.11): {@code
   * torch.distributed.elastic.rendezvous.api.RendezvousClosedError}, its error file's {@code
   * "message": "RendezvousClosedError: "}; not the {@code raise} statement a traceback quotes nor
   * the name in prose.
   */
  private static boolean rendezvousClosed(String text) {
    String name = Needles.ELASTIC_RENDEZVOUS + "ClosedError";
    return !text.contains("raise ")
        && (text.contains("api." + name)
            || text.contains(name + ":")
            || text.strip().endsWith(name));
  }

  /**
   * A process started without the variables of PyTorch's env:// rendezvous: {@code ValueError:
   * Error initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR
   * expected, but not set} (rendezvous.py, torch 1.0-2.11), and torch.distributed.elastic's {@code
   * ValueError: Environment variable RANK expected, but not set}.
   */
  private static boolean envNotSet(String text) {
    int at = text.indexOf(Needles.ENV_NOT_SET);
    if (at > 0) {
      return text.toLowerCase(Locale.ROOT).lastIndexOf("environment variable ", at) >= 0;
    }
    // tcp:// or file:// without rank= or world_size= (not the raise statement a traceback quotes)
    at = text.indexOf(Needles.PARAMETER_MISSING);
    return at > 0
        && !text.contains("_error(")
        && text.lastIndexOf(" rendezvous: ", at) > 0
        && (text.startsWith("rank ", at - 5) || text.startsWith("world size ", at - 11));
  }

  /**
   * A rank ended by SIGABRT (exit code -6): the launchers' forms of {@link #endedBy}, Open MPI's
   * {@code exited on signal 6 (Aborted)}, srun's {@code task 1: Aborted}, and C++'s {@code
   * terminate called after throwing an instance of 'T'} (PyTorch's watchdog throwing on a timeout
   * or an NCCL error, or any uncaught C++ exception).
   */
  private static boolean aborted(String text) {
    return endedBy(text, 6, "SIGABRT")
        || text.contains("on signal 6 (Aborted)")
        || srunTask(text, "Aborted")
        || text.contains(Needles.TERMINATE + " an instance of '");
  }

  /**
   * torchrun's agent itself received a signal from outside (a scheduler, an operator, a closed
   * terminal): {@code torch.distributed.elastic.multiprocessing.api.SignalException: Process 4044
   * got signal: 15}, {@code Received 15 death signal, shutting down workers} (under Python before
   * 3.11 {@code Received Signals.SIGTERM death signal}; torch 1.9-2.11); not the raise statement a
   * traceback quotes.
   */
  private static boolean agentSignalled(String text) {
    int at = text.indexOf(Needles.AGENT_SIGNAL);
    if (at > 0) {
      return text.lastIndexOf("SignalException: Process ", at) >= 0
          && Character.isDigit(text.charAt(Math.min(at + 12, text.length() - 1)));
    }
    at = text.indexOf(Needles.DEATH_SIGNAL);
    return at > 0 && text.lastIndexOf("Received ", at) >= 0;
  }

  /** The exception C++'s terminate names: {@code throwing an instance of 'T'}. */
  private static final Pattern THROWN = Pattern.compile("throwing an instance of '([^']+)'");

  /** The exception an aborted rank's line names, or null for a line that names none. */
  static NcclWarning.Detail thrown(String text) {
    Matcher m = THROWN.matcher(text);
    return m.find() ? new NcclWarning.Detail.Thrown(m.group(1)) : null;
  }

  /**
   * The signal of the agent's two lines: a number, or under Python before 3.11 the enum's name
   * ({@code Received Signals.SIGTERM death signal}).
   */
  private static final Pattern AGENT_SIGNAL =
      Pattern.compile(
          "got signal: (?:Signals\\.)?(\\w+)|Received (?:Signals\\.)?(\\w+) death signal");

  /** The signal torchrun's agent says it got, or null where the line does not say. */
  static NcclWarning.Detail agentSignal(String text) {
    Matcher m = AGENT_SIGNAL.matcher(text);
    if (!m.find()) {
      return null;
    }
    String signal = m.group(1) != null ? m.group(1) : m.group(2);
    return new NcclWarning.Detail.Signal(
        switch (signal) {
          case "SIGHUP" -> "1";
          case "SIGINT" -> "2";
          case "SIGTERM" -> "15";
          default -> signal;
        });
  }

  private static final Pattern ENV_VARIABLE =
      Pattern.compile("(?i)environment variable (\\w+) expected, but not set");

  /** rendezvous.py's words for a tcp:// or file:// rendezvous given no rank or world size. */
  private static final Pattern PARAMETER =
      Pattern.compile("using (\\w+://) rendezvous: (rank|world size) parameter missing");

  /** The variable or parameter a rendezvous line says is missing, or null. */
  static NcclWarning.Detail rendezvousMissing(String text) {
    Matcher m = ENV_VARIABLE.matcher(text);
    if (m.find()) {
      return new NcclWarning.Detail.EnvNotSet(m.group(1));
    }
    m = PARAMETER.matcher(text);
    return m.find()
        ? new NcclWarning.Detail.ParameterMissing(m.group(1), m.group(2).equals("rank"))
        : null;
  }

  /**
   * Ranks a framework names as not having reached a collective: PyTorch's desync report
   * (TORCH_NCCL_DESYNC_DEBUG=1, TraceUtils.h, torch 1.13-2.11) {@code To our best knowledge, ranks
   * [47] are the lagging ranks that caused this timeout. They never joined any collectives}, {@code
   * - [47] joined but didn't finish collective #41207 (count from 1)}, {@code [0, 1] finished
   * collective #41207, but didn't join collective #41208 (count from 1)}; Horovod's stall inspector
   * {@code One or more tensors were submitted to be reduced, gathered or broadcasted by subset of
   * ranks and are waiting for remainder of ranks ...}; PyTorch's monitored_barrier on rank 0 {@code
   * Rank 1 failed to pass monitoredBarrier in 2000 ms}.
   */
  private static boolean lagging(String text) {
    return (text.contains(Needles.DESYNC_MISSING) && text.contains("caused this timeout"))
        || (text.contains(Needles.DESYNC_LAGGING)
            && (text.contains("joined but didn't finish collective #")
                || text.contains("but didn't join collective #")))
        || (text.contains(Needles.HOROVOD_STALL) && text.contains("waiting for remainder of ranks"))
        || HOROVOD_MISSING.matcher(text).find()
        || text.contains("failed " + Needles.MONITORED_BARRIER);
  }

  /** Horovod 0.16-0.19's stall list on a line of its own: {@code TENSOR [missing ranks: 1, 3]}. */
  private static final Pattern HOROVOD_MISSING =
      Pattern.compile("\\w \\[missing ranks: [0-9, ]+\\]\\s*$");

  /**
   * The kernel's out-of-memory kill (mm/oom_kill.c): {@code [Memory cgroup ]Out of memory: Killed
   * process PID (NAME) ...}, before Linux 5.0 {@code Kill process PID (NAME) score N or sacrifice
   * child}; PyTorch's {@code CUDA out of memory} is not this.
   */
  private static boolean kernelOom(String text) {
    int at = text.indexOf(Needles.KERNEL_OOM);
    if (at < 0) {
      return false;
    }
    int from = at + Needles.KERNEL_OOM.length();
    return (text.startsWith("ed process ", from) || text.startsWith(" process ", from))
        && (text.startsWith("Out", at - 4) || text.startsWith("out", at - 4));
  }

  /**
   * NCCL's warning before 2.4, without the word NCCL: {@code [host:pid:tid [dev] ]FILE.EXT:LINE
   * WARN message}. The token before {@code WARN} must be a source location (a dotted file name, a
   * colon, digits), so that other loggers' {@code WARN} lines are not taken.
   */
  private static NcclEvent oldWarning(String text) {
    int at = text.indexOf(Needles.OLD_WARN);
    if (at <= 0) {
      return null;
    }
    int start = text.lastIndexOf(' ', at - 1) + 1;
    String location = text.substring(start, at);
    if (!sourceLocation(location)) {
      return null;
    }
    String m = text.substring(at + Needles.OLD_WARN.length()).strip();
    return m.isEmpty() ? null : WarningClassifier.warning(location, m);
  }

  /**
   * Whether a token is a source location: a dotted file name, a colon, digits ({@code shm.h:28}).
   */
  private static boolean sourceLocation(String location) {
    int colon = location.lastIndexOf(':');
    if (colon <= 0
        || colon == location.length() - 1
        || location.lastIndexOf('.', colon) <= 0
        || location.startsWith("[")) {
      return false;
    }
    for (int i = colon + 1; i < location.length(); i++) {
      if (!Character.isDigit(location.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * nccl-tests' CUDACHECK failure, {@code [host: ]Test CUDA failure FILE:LINE 'REASON'} (older:
   * {@code Cuda failure FILE:LINE 'REASON'}): CUDA's error string, classified like NCCL's own
   * {@code Cuda failure 'REASON'} warnings. The token after the words must be a source location, so
   * NCCL's {@code Cuda failure 2 'out of memory'} and prose are not taken here.
   */
  private static NcclEvent testCudaFailure(String text) {
    int at = text.indexOf(Needles.TEST_CUDA_FAILURE);
    int from = at + Needles.TEST_CUDA_FAILURE.length();
    if (at < 0) {
      at = text.indexOf(Needles.OLD_TEST_CUDA_FAILURE);
      from = at + Needles.OLD_TEST_CUDA_FAILURE.length();
    }
    if (at < 0) {
      return null;
    }
    int quote = text.indexOf(" '", from);
    if (quote < 0 || !sourceLocation(text.substring(from, quote))) {
      return null;
    }
    String m = text.substring(at).strip();
    return new NcclEvent.Warning(
        WarningClassifier.classify(text.substring(from, quote), text.substring(quote + 2)),
        m,
        null);
  }

  /**
   * NCCL's result as a caller's check prints it: nccl-tests' NCCLCHECK {@code [host: ]Test NCCL
   * failure FILE:LINE 'REASON[ / LAST ERROR]'} (the last error since nccl-tests 2.13; older tests
   * {@code NCCL failure FILE:LINE 'REASON'}), and {@code NCCL Error N: REASON} or {@code NCCL error
   * N: REASON} (PyTorch 1.x's torch.cuda.nccl, JAX, PETSc): REASON in ncclGetErrorString's words.
   */
  private static NcclEvent ncclFailure(String text) {
    int at = text.indexOf("NCCL failure ");
    if (at >= 0) {
      int from = at + 13;
      int quote = text.indexOf(" '", from);
      if (quote > 0 && sourceLocation(text.substring(from, quote))) {
        String reason = text.substring(quote + 2).strip();
        if (reason.endsWith("'")) {
          reason = reason.substring(0, reason.length() - 1);
        }
        // "unhandled cuda error (run with NCCL_DEBUG=INFO for details) / LAST ERROR", the last
        // error empty where NCCL kept none
        String last = "";
        int slash = reason.indexOf(" / ");
        if (slash >= 0) {
          last = reason.substring(slash + 3).strip();
          reason = reason.substring(0, slash);
        }
        int paren = reason.indexOf(" (run with");
        if (paren >= 0) {
          reason = reason.substring(0, paren);
        }
        reason = reason.strip() + (last.isEmpty() ? "" : " / " + last);
        Result r = bySaying(reason);
        if (r != null) {
          return new NcclEvent.Failure(rank(text, at), r.name(), reason, null);
        }
      }
    }
    at = text.indexOf("NCCL Error ");
    if (at < 0) {
      at = text.indexOf("NCCL error ");
    }
    if (at >= 0) {
      int colon = text.indexOf(": ", at + 11);
      if (colon > at + 11 && text.substring(at + 11, colon).chars().allMatch(Character::isDigit)) {
        String reason = text.substring(colon + 2).strip();
        Result r = bySaying(reason);
        if (r != null) {
          return new NcclEvent.Failure(rank(text, at), r.name(), reason, null);
        }
      }
    }
    return wrapperError(text);
  }

  /**
   * NCCL's result as wrappers of the C library raise it, ncclGetErrorString's words after {@code
   * NCCL error}: vLLM's and SGLang's pynccl ({@code RuntimeError: NCCL error: unhandled cuda error
   * (run with NCCL_DEBUG=INFO for details)}, with torchrun's {@code [rank0]:} or Ray's {@code
   * [repeated 6x across cluster]} around it), and the NCCLCHECK macro of TensorRT-LLM, Paddle and
   * many C++ programs ({@code Failed, NCCL error FILE:LINE 'internal error - please report this
   * issue to the NCCL developers'}), CuPy's {@code NcclError: NCCL_ERROR_INVALID_USAGE: invalid
   * usage} and Caffe's {@code Check failed: result == ncclSuccess (1 vs. 0) unhandled cuda error}.
   * Words NCCL has no result for ({@code 'unknown result code'}) are not a failure.
   */
  private static NcclEvent wrapperError(String text) {
    int at = text.indexOf("NCCL error: ");
    if (at >= 0) {
      String words = reason(text.substring(at + 12));
      Result r = bySaying(words);
      return r == null ? null : new NcclEvent.Failure(rank(text, at), r.name(), words, null);
    }
    at = text.indexOf("NCCL error ");
    if (at >= 0) {
      int from = at + 11;
      int quote = text.indexOf(" '", from);
      if (quote > 0 && sourceLocation(text.substring(from, quote))) {
        String words = reason(text.substring(quote + 2));
        Result r = bySaying(words);
        if (r != null) {
          return new NcclEvent.Failure(rank(text, at), r.name(), words, null);
        }
      }
    }
    // CuPy's "cupy_backends.cuda.libs.nccl.NcclError: NCCL_ERROR_INTERNAL_ERROR: internal error",
    // Caffe's "Check failed: result == ncclSuccess (1 vs. 0) unhandled cuda error"
    at = text.indexOf("NCCL_ERROR_");
    int from = at < 0 ? -1 : text.indexOf(": ", at);
    if (from < 0 || text.substring(at, from).indexOf(' ') >= 0) {
      at = text.indexOf("== ncclSuccess (");
      from = at < 0 ? -1 : text.indexOf(") ", at);
    }
    if (from > at && at >= 0) {
      String words = reason(text.substring(from + 2));
      Result r = bySaying(words);
      if (r != null) {
        return new NcclEvent.Failure(rank(text, at), r.name(), words, null);
      }
    }
    return paddleError(text);
  }

  /**
   * PaddlePaddle's check of an NCCL result (PADDLE_ENFORCE_GPU_SUCCESS, enforce.h): 1.8-2.1's
   * {@code ExternalError: Nccl error, unhandled cuda error (at
   * /paddle/paddle/fluid/platform/collective_helper.cc:83)} (2.1: {@code OSError: (External) Nccl
   * error, ...}), 2.2 on {@code OSError: (External) NCCL error(1), unhandled cuda error.} (a {@code
   * [Hint: 'ncclUnhandledCudaError'. ...]} line after it), and 1.5's {@code what(): unhandled cuda
   * error at [/.../paddle/fluid/platform/nccl_helper.h:70]}: ncclGetErrorString's words.
   */
  private static NcclEvent paddleError(String text) {
    int at = text.indexOf(Needles.PADDLE_NCCL);
    int from = -1;
    if (at >= 0 && text.startsWith(", ", at + Needles.PADDLE_NCCL.length())) {
      from = at + Needles.PADDLE_NCCL.length() + 2;
    } else {
      at = text.indexOf("NCCL error(");
      int close = at < 0 ? -1 : text.indexOf("), ", at);
      if (close > at + 11 && text.substring(at + 11, close).chars().allMatch(Character::isDigit)) {
        from = close + 3;
      }
    }
    if (from >= 0) {
      String words = text.substring(from);
      int cut = words.indexOf(" (at ");
      if (cut >= 0) {
        words = words.substring(0, cut);
      }
      words = words.strip();
      if (words.endsWith(".")) {
        words = words.substring(0, words.length() - 1);
      }
      Result r = bySaying(words);
      return r == null ? null : new NcclEvent.Failure(rank(text, at), r.name(), words, null);
    }
    for (Result r : RESULTS) {
      at = text.indexOf(r.says() + " at [");
      if (at >= 0 && text.indexOf("nccl", at) > at) {
        return new NcclEvent.Failure(rank(text, at), r.name(), r.says(), null);
      }
    }
    return null;
  }

  /**
   * XLA's (and JAX's) report of NCCL's last error, after the result: {@code Last NCCL
   * warning(error) log entry (may be unrelated) 'Cuda failure 2 'out of memory''.} (XLA's
   * nccl_errors), {@code ...(may be unrelated): TEXT} (its collective memory allocator), or
   * shortened by users to {@code Last NCCL warning(error): 'TEXT'}.
   */
  static final String XLA_LAST_WARNING = "Last NCCL warning(error)";

  /**
   * NCCL's last error as XLA quotes it on this line ({@link #XLA_LAST_WARNING}), a warning of NCCL
   * classified like one, or null when the line quotes none.
   */
  static NcclEvent lastWarning(String text) {
    int at = text.indexOf(XLA_LAST_WARNING);
    if (at < 0) {
      return null;
    }
    int from = at + XLA_LAST_WARNING.length();
    String unrelated = " log entry (may be unrelated)";
    if (text.startsWith(unrelated, from)) {
      from += unrelated.length();
    }
    String m = text.substring(from).strip();
    if (m.startsWith(":")) {
      m = m.substring(1).strip();
    }
    // "'TEXT'." or "'TEXT'.; current tracing scope: ..." (XLA adds its scope after the status)
    int scope = m.indexOf(".; current");
    if (scope >= 0) {
      m = m.substring(0, scope + 1);
    }
    if (m.endsWith(".")) {
      m = m.substring(0, m.length() - 1);
    }
    if (m.length() >= 2 && m.startsWith("'") && m.endsWith("'")) {
      m = m.substring(1, m.length() - 1);
    }
    m = m.strip();
    return m.isEmpty() ? null : WarningClassifier.warning("", m);
  }

  /**
   * NCCL's words as a caller quoted them, without what callers add around them: the quotes of
   * {@code 'WORDS'} (or a user's {@code "..."}), NCCL's {@code (run with NCCL_DEBUG=INFO for
   * details)}, Ray's {@code [repeated 6x across cluster]}, XLA's {@code . Last NCCL warning(error)
   * ...}.
   */
  private static String reason(String words) {
    String w = words;
    for (String tail : List.of(" [repeated ", " (run with", ". " + XLA_LAST_WARNING)) {
      int cut = w.indexOf(tail);
      if (cut >= 0) {
        w = w.substring(0, cut);
      }
    }
    w = w.strip();
    if (w.startsWith("'") || w.startsWith("\"")) {
      w = w.substring(1);
    }
    if (w.endsWith("'") || w.endsWith("\"")) {
      w = w.substring(0, w.length() - 1);
    }
    return w.strip();
  }

  /** Where the text after {@code Last error:} starts on this line, or -1 when it is not one. */
  static int lastError(String text) {
    int at = text.indexOf(Needles.LAST_ERROR);
    return at < 0 ? -1 : at + Needles.LAST_ERROR.length();
  }

  /**
   * NCCL's last error as PyTorch prints it on the line after {@code Last error:}: a WARN message of
   * NCCL, classified like one. {@code prefix} is what the launcher put before {@code Last error:},
   * and is dropped from the continuation too.
   */
  static NcclEvent lastErrorText(String prefix, String continuation) {
    String m = continuation;
    if (!prefix.isEmpty() && m.startsWith(prefix)) {
      m = m.substring(prefix.length());
    }
    m = m.strip();
    if (m.isEmpty()) {
      return null;
    }
    return WarningClassifier.warning("", m);
  }

  private static NcclEvent errorIn(String text, int from) {
    // ".../ProcessGroupNCCL.cpp:1691, unhandled system error (run with ...), NCCL version 2.19.3"
    int comma = text.indexOf(", ", from);
    if (comma < 0) {
      return null;
    }
    String rest = text.substring(comma + 2);
    String version = null;
    int v = rest.lastIndexOf("NCCL version ");
    if (v >= 0) {
      version = new Cursor(rest, v + 13).word();
      rest = rest.substring(0, v);
    }
    int paren = rest.indexOf(" (run with");
    if (paren >= 0) {
      rest = rest.substring(0, paren);
    }
    rest = rest.strip();
    if (rest.endsWith(",")) {
      rest = rest.substring(0, rest.length() - 1).strip();
    }
    Result r = bySaying(rest);
    return new NcclEvent.Failure(rank(text, from), r == null ? rest : r.name(), rest, version);
  }

  /**
   * The error that ended PyTorch's watchdog: NCCL's (its result, said in ncclGetErrorString's
   * words) or CUDA's (its text, classified like NCCL's {@code Cuda failure} warnings).
   */
  private static NcclEvent watchdogDied(String text, int at, String error) {
    if (error.startsWith("NCCL error: ")) {
      String words = error.substring(12);
      Result r = bySaying(words);
      return r == null
          ? null
          : new NcclEvent.Failure(rank(text, at), r.name(), words.strip(), null);
    }
    if (error.startsWith(Needles.CUDA_ERROR)) {
      String m = error.strip();
      return new NcclEvent.Warning(PlatformLine.cudaKind(m, 0), m, null);
    }
    return null;
  }

  private static Result bySaying(String words) {
    String w = words.strip();
    for (Result r : RESULTS) {
      if (w.startsWith(r.says())) {
        return r;
      }
    }
    return null;
  }

  /**
   * A watchdog timeout line without a call number: PyTorch 1.8-1.9's {@code WorkNCCL(OpType=...,
   * Timeout(ms)=...)} (SeqNum came in 1.10), or the line cut before its fields.
   */
  private static NcclEvent unnumbered(String text, int at) {
    int fields = text.indexOf("WorkNCCL(", at);
    boolean old = fields > 0 && text.indexOf("OpType=", fields) > 0;
    return new NcclEvent.Watchdog(
        old ? WatchdogReport.Kind.TIMEOUT_UNNUMBERED : WatchdogReport.Kind.TIMEOUT_HEADER,
        rank(text, at),
        -1,
        -1,
        -1,
        -1,
        old ? field(text.substring(fields), "Timeout(ms)=") : -1);
  }

  /**
   * {@code [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5,
   * OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600013 milliseconds}.
   */
  private static NcclEvent timeout(String text, int at) {
    int open = at + WATCHDOG.length();
    int close = text.indexOf(") ran for", open);
    String fields = close > 0 ? text.substring(open, close) : text.substring(open);
    return timeout(text, at, fields, close > 0 ? number(text, close + 10) : -1);
  }

  /** A timeout of the work whose {@code WorkNCCL(...)} fields are given, or null without them. */
  private static NcclEvent timeout(String text, int at, String fields, long ranFor) {
    long seq = field(fields, "SeqNum=");
    String op = word(fields, "OpType=");
    if (seq < 0 || op == null) {
      return null;
    }
    return new NcclEvent.CollectiveTimeout(
        rank(text, at),
        seq,
        op,
        field(fields, "NumelIn="),
        field(fields, "NumelOut="),
        field(fields, "Timeout(ms)="),
        ranFor);
  }

  private static long field(String fields, String key) {
    int k = fields.indexOf(key);
    if (k < 0) {
      return -1;
    }
    return number(fields, k + key.length());
  }

  private static String word(String fields, String key) {
    int k = fields.indexOf(key);
    if (k < 0) {
      return null;
    }
    int end = k + key.length();
    while (end < fields.length() && fields.charAt(end) != ',' && fields.charAt(end) != ')') {
      end++;
    }
    String w = fields.substring(k + key.length(), end).strip();
    return w.isEmpty() ? null : w;
  }

  /**
   * The rank the framework names before {@code at}: PyTorch's {@code [Rank 3]} or {@code [PG 1 Rank
   * 3]}, torchrun's {@code [rank3]:} prefix, or {@code on rank 3}; -1 when none.
   */
  static int rank(String text, int at) {
    int r = text.lastIndexOf("Rank ", at);
    if (r >= 0 && (r == 0 || text.charAt(r - 1) == '[' || text.charAt(r - 1) == ' ')) {
      long l = number(text, r + 5);
      if (l >= 0) {
        return (int) l;
      }
    }
    r = text.indexOf("[rank");
    if (r >= 0 && r < Math.max(at, 1)) {
      long l = number(text, r + 5);
      if (l >= 0) {
        return (int) l;
      }
    }
    r = text.indexOf(" on rank ", at);
    if (r >= 0) {
      long l = number(text, r + 9);
      if (l >= 0) {
        return (int) l;
      }
    }
    return -1;
  }

  /** The non-negative integer at {@code at}, or -1. */
  private static long number(String s, int at) {
    long l = new Cursor(s, at).integer();
    return l < 0 ? -1 : l;
  }
}
