package io.topolens.nccl;

import io.topolens.model.NcclWarning.Kind;
import java.util.List;

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
          new Result("ncclInProgress", "NCCL operation in progress"));

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

  /** The event of a framework line, or null when the line is none of these forms. */
  static NcclEvent parse(String text) {
    int at = text.indexOf(WATCHDOG);
    if (at >= 0) {
      return timeout(text, at);
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
    // Horovod, TensorFlow and C++ callers: "ncclCommInitRank failed: unhandled cuda error"
    at = text.indexOf(" failed: ");
    if (at > 0 && text.lastIndexOf("nccl", at) >= 0) {
      Result r = bySaying(text.substring(at + 9));
      if (r != null) {
        return new NcclEvent.Failure(
            rank(text, at), r.name(), text.substring(at + 9).strip(), null);
      }
    }
    if ((text.contains(Needles.NVLS) && text.contains("Failed to bind"))
        || text.contains("shared memory segment /dev/shm/nccl-")
        || text.contains(Needles.NO_ALGORITHM)
        || text.contains("ncclIbRoceGetVersionNum")
        || text.contains("Got completion from peer")
        || text.contains("Got completion with error")
        // ProcessGroupNCCL's own refusals: no GPU in the process, a tensor not on a GPU
        || text.contains("ProcessGroupNCCL is only supported with GPUs")
        || text.contains("NCCL only supports CUDA tensors")) {
      // NCCL's own failure text pasted alone (the WARN line or PyTorch's "Last error:" text)
      String m = text.strip();
      return new NcclEvent.Warning(WarningClassifier.classify("", m), m, null);
    }
    if (busError(text)) {
      String m = text.strip();
      return new NcclEvent.Warning(Kind.SHM, m, null);
    }
    if (killed(text)) {
      String m = text.strip();
      return new NcclEvent.Warning(Kind.KILLED, m, null);
    }
    if (text.contains(Needles.STORE_CLIENT)
        || uniqueIdWait(text)
        || (text.contains(Needles.STORE)
            && (text.contains("clients joined") || text.contains("workers joined")))) {
      String m = text.strip();
      return new NcclEvent.Warning(Kind.RENDEZVOUS, m, null);
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
    if (text.contains("Some NCCL operations have failed or timed out")
        || text.contains("detected by watchdog at work:")) {
      return NcclEvent.KNOWN;
    }
    return null;
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
   * A process that died of SIGBUS, as a runtime prints it: UCX's {@code Caught signal 7 (Bus error:
   * nonexistent physical address)}, gdb's {@code received signal SIGBUS, Bus error.}, {@code
   * Signal: Bus error (7)}, PyTorch DataLoader's {@code Unexpected bus error encountered in
   * worker}.
   */
  private static boolean busError(String text) {
    return text.contains("(Bus error")
        || text.contains("SIGBUS, Bus error")
        || text.contains("Bus error (7)")
        || text.contains("Unexpected bus error encountered");
  }

  /**
   * A rank killed by SIGKILL or the out-of-memory killer: torchrun's {@code failed (exitcode: -9)}
   * and {@code Signal 9 (SIGKILL) received by PID}, Open MPI's {@code exited on signal 9 (Killed)},
   * Slurm's {@code oom-kill event(s)}, the kernel's {@code Out of memory: Killed process}.
   */
  private static boolean killed(String text) {
    return text.contains(Needles.EXIT_KILLED + " ")
        || text.contains(Needles.EXIT_KILLED + ")")
        || text.contains("9 " + Needles.SIGKILL)
        || text.contains(Needles.MPI_KILLED + " (Killed)")
        || text.contains(Needles.OOM_KILL + " event")
        || text.contains(Needles.KERNEL_OOM);
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
    return m.isEmpty()
        ? null
        : new NcclEvent.Warning(WarningClassifier.classify(location, m), m, null);
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
    return null;
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
    return new NcclEvent.Warning(WarningClassifier.classify("", m), m, null);
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
    if (error.startsWith("CUDA error: ")) {
      String m = error.strip();
      return new NcclEvent.Warning(WarningClassifier.classify("", m), m, null);
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
