package io.topolens.nccl;

import io.topolens.model.Direction;
import io.topolens.model.Interface;
import io.topolens.model.NcclWarning;
import io.topolens.model.NetPluginEvent;
import io.topolens.model.PathDetail;
import io.topolens.model.Progress;
import java.util.List;

/** One fact a single NCCL line states. The assembler turns a stream of these into a Job. */
sealed interface NcclEvent {

  /** {@code NCCL version 2.27.3+cuda12.9}. */
  record Version(String version) implements NcclEvent {}

  /**
   * NCCL's release as another line names it (a package list, a library path, a framework's query):
   * {@code nvidia-nccl-cu12==2.18.1}, {@code libnccl.so.2.18.1}, torch's {@code (2, 18, 1)}.
   */
  record VersionNamed(String version) implements NcclEvent {}

  /** {@code cudaDriverVersion 12020}: the CUDA the driver supports (major * 1000 + minor * 10). */
  record CudaDriver(int version) implements NcclEvent {}

  /** {@code NCCL_X set by environment to Y}. */
  record EnvSet(String name, String value) implements NcclEvent {}

  /** A network plugin step; {@code Using network X} is {@link NetPluginEvent.Outcome#SELECTED}. */
  record Plugin(String plugin, NetPluginEvent.Outcome outcome, String provider)
      implements NcclEvent {

    Plugin(String plugin, NetPluginEvent.Outcome outcome) {
      this(plugin, outcome, null);
    }
  }

  /**
   * {@code Bootstrap : Using eth0:10.0.0.1<0>}, {@code NET/Socket : Using [0]eth0:...
   * [1]veth..:..}, IB OOB: every interface listed, in NCCL's order (its index is the {@code N} of
   * {@code NET/Socket/N}).
   */
  record Iface(Interface.Role role, List<Named> interfaces) implements NcclEvent {

    /** One interface NCCL listed: {@code eth0} and the address it printed. */
    record Named(String name, String address) {}
  }

  /** {@code GPU Direct RDMA Disabled for HCA 0 'mlx5_0'} and its Enabled twin. */
  record Gdr(String transport, String hca, boolean enabled) implements NcclEvent {}

  /**
   * A communicator lifecycle line: {@code <api> comm 0x.. rank r nranks n cudaDev d nvmlDev m busId
   * b commId 0x.. - Init START|COMPLETE}, or {@code comm 0x.. rank r nRanks n nNodes m localRanks k
   * localRank l} ({@link Phase#INFO}).
   */
  record Comm(
      Phase phase,
      String api,
      String commPtr,
      int rank,
      int nRanks,
      int cudaDev,
      int nvmlDev,
      String busId,
      String commId,
      String parentPtr,
      int nNodes,
      int localRanks)
      implements NcclEvent {}

  /** Lifecycle phase of a {@link Comm} line. */
  enum Phase {
    START,
    INFO,
    COMPLETE,
    DESTROY
  }

  /** {@code Bootstrap timings total T (create .., send .., recv R, ring .., delay ..)}. */
  record BootstrapTimings(double total, double recv) implements NcclEvent {}

  /** {@code Init timings - <api>: rank r nranks n total T (..., bootstrap B, ...)}. */
  record InitTimings(int rank, int nRanks, double total, double bootstrap) implements NcclEvent {}

  /** {@code Channel 00/24 : 0 1 2 3} or the old {@code Ring 00 : 0 1 2 3}. */
  record RingOrder(int channel, List<Integer> ranks) implements NcclEvent {}

  /** {@code Trees [0] a/b/c->r->p [1] ...}: one rank's tree neighbours per channel. */
  record Trees(int rank, List<int[]> channels) implements NcclEvent {}

  /**
   * A connection line: {@code Channel 00/0 : 3[0] -> 0[0] [receive] via NET/Socket/0}.
   *
   * @param fromTag the bracketed device after the sending rank (cudaDev or busId), or null
   */
  record Connection(
      int channel,
      int from,
      String fromTag,
      int to,
      String toTag,
      Direction direction,
      PathDetail path,
      String commPtr)
      implements NcclEvent {}

  /** {@code Connected all rings, use ring PXN 0 GDR 0}; pxn/gdr null when not printed. */
  record Connected(String what, Boolean pxn, Boolean gdr) implements NcclEvent {}

  /**
   * A WARN line, or an INFO line reporting a failure; {@code plugin} when it also reports a plugin
   * outcome, {@code detail} what it names beyond its kind (or null).
   */
  record Warning(NcclWarning.Kind kind, String message, Plugin plugin, NcclWarning.Detail detail)
      implements NcclEvent {

    Warning(NcclWarning.Kind kind, String message, Plugin plugin) {
      this(kind, message, plugin, null);
    }
  }

  /**
   * A framework's report that an NCCL call failed ({@code NCCL error in: ...}, {@code
   * ncclSystemError: ...}, {@code NCCL communicator was aborted}).
   *
   * @param rank the rank the framework named, or -1
   * @param result NCCL's result name ({@code ncclSystemError}...), {@code aborted}, or the words
   *     printed when they name no result
   * @param version the NCCL version printed with it, or null
   */
  record Failure(int rank, String result, String detail, String version) implements OfJob {}

  /**
   * PyTorch's watchdog: {@code [Rank r] Watchdog caught collective operation timeout:
   * WorkNCCL(SeqNum=s, OpType=op, NumelIn=i, NumelOut=o, Timeout(ms)=t) ran for n milliseconds}; -1
   * for what the version did not print.
   */
  record CollectiveTimeout(
      int rank, long seq, String op, long numelIn, long numelOut, long timeoutMs, long ranForMs)
      implements OfJob {}

  /**
   * PyTorch's watchdog around a timeout: {@code Timeout at NCCL work: N, last enqueued NCCL work:
   * E, last completed NCCL work: C}, {@code Received a dump signal due to a collective timeout from
   * rank R ...}, {@code Some NCCL operations have failed or timed out ...}; -1 for what is not
   * printed.
   */
  record Watchdog(
      io.topolens.model.WatchdogReport.Kind kind,
      int rank,
      long seq,
      long lastEnqueued,
      long lastCompleted,
      int fromRank,
      long timeoutMs)
      implements OfJob {

    /** A line that prints no timeout. */
    Watchdog(
        io.topolens.model.WatchdogReport.Kind kind,
        int rank,
        long seq,
        long lastEnqueued,
        long lastCompleted,
        int fromRank) {
      this(kind, rank, seq, lastEnqueued, lastCompleted, fromRank, -1);
    }
  }

  /**
   * A line that states nothing but the init stage its process reached ({@code NVLS Bind mem ...},
   * {@code NVLS comm 0x...}).
   */
  record Stage(Progress.Stage stage) implements NcclEvent {}

  /**
   * A call the host enqueued ({@code AllReduce: opCount 1f ... comm 0x342d8540 [nranks=2] ...}):
   * {@link CollectiveLine}.
   */
  record CollectiveCall(String op, long opCount, String commPtr) implements NcclEvent {}

  /**
   * A rank a launcher announced: Lightning's {@code Initializing distributed: GLOBAL_RANK: 1,
   * MEMBER: 2/8}; {@code stream} is the shape of the logger's prefix before it.
   */
  record Launched(String launcher, int rank, int worldSize, String stream) implements OfJob {}

  /**
   * Lightning's statement that Slurm starts its processes ({@code Multi-processing is handled by
   * Slurm.}).
   */
  record SlurmManaged() implements OfJob {}

  /**
   * A launch command: {@code docker run} with the option that gives its container /dev/shm (empty
   * for none), or {@code mpirun} with its hosts, one per slot, and the processes it starts ({@code
   * -np}; 0 when not given) and its hostfile (empty for none).
   */
  record Launch(
      String launcher,
      List<String> slots,
      boolean byNode,
      String shm,
      int processes,
      String hostfile)
      implements OfJob {}

  /**
   * A GPU model a line names (or null), the compute capability it names (or null), whether the line
   * speaks of a hang, and whether a launcher refused to start on these GPUs because P2P was left
   * on.
   */
  record GpuNamed(
      String model, io.topolens.model.ComputeCapability capability, boolean hang, boolean refused)
      implements OfJob {}

  /**
   * A GPU error the NVIDIA driver or nvidia-smi printed ({@link DriverLine}): the GPU's PCI address
   * as NCCL's busId prints it (or null) and the Xid (or -1).
   */
  record Xid(String pciBus, int xid) implements OfJob {}

  /** A stack frame of NCCL's code ({@link StackFrameLine}). */
  record Frame(String function, String source, int depth) implements OfJob {}

  /**
   * An event that belongs to the job, not to the process that printed it (a failure, a timeout, the
   * watchdog, a launch command, a GPU named, a rank announced, an Xid): kept alike whether or not
   * its line had NCCL's header.
   */
  sealed interface OfJob extends NcclEvent {}

  /** A line of a known form that states nothing the model keeps. */
  record Known() implements NcclEvent {}

  /** An NCCL line of no known form. */
  record Unrecognized() implements NcclEvent {}

  Known KNOWN = new Known();
  Unrecognized UNRECOGNIZED = new Unrecognized();
}
