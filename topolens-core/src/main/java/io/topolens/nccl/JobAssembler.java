package io.topolens.nccl;

import io.topolens.model.CollectiveReached;
import io.topolens.model.CollectiveTimeout;
import io.topolens.model.Communicator;
import io.topolens.model.Direction;
import io.topolens.model.Edge;
import io.topolens.model.EnvSetting;
import io.topolens.model.Evidence;
import io.topolens.model.GdrStatus;
import io.topolens.model.GpuMention;
import io.topolens.model.GpuXid;
import io.topolens.model.InputFile;
import io.topolens.model.Interface;
import io.topolens.model.Job;
import io.topolens.model.LaunchCommand;
import io.topolens.model.LaunchedRank;
import io.topolens.model.LineTexts;
import io.topolens.model.Member;
import io.topolens.model.NcclFailure;
import io.topolens.model.NcclWarning;
import io.topolens.model.NetPluginEvent;
import io.topolens.model.PrintedVersion;
import io.topolens.model.Progress;
import io.topolens.model.Rank;
import io.topolens.model.RankId;
import io.topolens.model.SampleCounter;
import io.topolens.model.StackFrame;
import io.topolens.model.TreeList;
import io.topolens.model.WatchdogReport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Applies the events of every line, in input order, and builds the {@link Job}. Memory grows with
 * ranks, communicators and distinct connections, never with the number of lines.
 *
 * <p>A connection line does not name its communicator, so it goes to the newest communicator of the
 * same GPU context in which the printing rank has that rank number (NCCL connects a communicator
 * right after creating it, or lazily on its first collective).
 */
final class JobAssembler {
  static final int MAX_DISTINCT_WARNINGS = 500;

  /** More channels than any NCCL has (MAXCHANNELS is 64 in 2.12 to 2.28): a damaged line. */
  static final int MAX_CHANNELS = 1024;

  /** Every distinct version printed (NCCL's with its build, the driver's), first line of each. */
  private final Map<String, PrintedVersion> printed = new LinkedHashMap<>();

  private final Map<RankId, Ctx> ctxs = new HashMap<>();

  /** Every process ({@code host:pid}) a line named, with what is kept of it. */
  private final Map<String, Proc> procs = new HashMap<>();

  private Proc lastProc;

  /** The processes whose lines showed an init stage, in the order they first did. */
  private final List<Proc> staged = new ArrayList<>();

  private final Map<String, String> words = new HashMap<>();

  /** The context of the line before, asked again by the next line of the same process. */
  private Ctx lastCtx;

  private final Map<Ptr, LocalComm> byPtr = new HashMap<>();

  /** A communicator's pointer in its process: a key of the two Strings kept, none made per key. */
  private record Ptr(String process, String ptr) {
    // the record's own equals and hash, written out: the generated ones are linked at their first
    // call by ObjectMethods (method handles spun at run time, which the AOT cache does not hold)
    @Override
    public boolean equals(Object o) {
      return o instanceof Ptr k && process.equals(k.process) && Objects.equals(ptr, k.ptr);
    }

    @Override
    public int hashCode() {
      return process.hashCode() * 31 + Objects.hashCode(ptr);
    }
  }

  private final List<LocalComm> comms = new ArrayList<>();

  /** Each process's last call on each communicator, updated in place ({@link CollectiveLine}). */
  private final Map<Ptr, CallAcc> calls = new LinkedHashMap<>();

  private static final class CallAcc {
    String commKey;
    int rank = -1;
    String op;
    long opCount;
    boolean pointToPoint;
    String file;
    long line;
    String text;
  }

  private final Map<String, EnvAcc> env = new LinkedHashMap<>();
  private final List<NetPluginEvent> plugins = new ArrayList<>();
  private final List<Interface> interfaces = new ArrayList<>();
  private final List<GdrStatus> gdr = new ArrayList<>();
  private final Map<String, WarnAcc> warnings = new LinkedHashMap<>();
  private final Map<String, FailAcc> failures = new LinkedHashMap<>();
  private final Map<String, CollectiveTimeout> timeouts = new LinkedHashMap<>();
  private final Map<String, WatchdogReport> watchdog = new LinkedHashMap<>();
  private final List<LaunchedRank> launched = new ArrayList<>();
  private final List<io.topolens.model.SlurmManaged> slurmManaged = new ArrayList<>();
  private final List<LaunchCommand> launches = new ArrayList<>();
  private final List<GpuMention> gpuMentions = new ArrayList<>();
  private final List<GpuXid> gpuErrors = new ArrayList<>();
  private final List<StackFrame> stackFrames = new ArrayList<>();
  private final Map<String, int[]> internedRings = new HashMap<>();
  private long extraWarnings;
  private final SampleCounter unrecognized = new SampleCounter();
  private final SampleCounter malformed = new SampleCounter();

  /**
   * The texts of the lines kept once per rank or connection (plugin, interface, GPUDirect,
   * communicator, timing and connection lines, each process's version and last stage), deflated: a
   * String each took most of a 256 MiB heap at 68,000 ranks.
   */
  private final LineTexts texts = new LineTexts();

  /**
   * Texts kept as Strings before {@link #texts} deflates the rest: about 20 MB, what a job of 7,000
   * ranks keeps (13 texts a rank), which so reads at the speed it did (deflating and inflating them
   * took 2-3 % of the 1 GiB nccl shape's CPU); beyond, a text takes tens of bytes, not 200.
   */
  static final int PLAIN_TEXTS = 100_000;

  private int plainTexts;

  private final List<InputFile> inputs = new ArrayList<>();

  private static final class Ctx {
    final RankId id;
    int nvmlDev = -1;
    String busId;
    String network;
    final List<LocalComm> comms = new ArrayList<>();
    LocalComm orphan;

    Ctx(RankId id) {
      this.id = id;
    }

    LocalComm latest() {
      return comms.isEmpty() ? null : comms.get(comms.size() - 1);
    }
  }

  /**
   * What is kept once per process ({@code host:pid}): its name (one String for all that holds it),
   * its version and line, its last stage line (updated in place), and its plugin, interface and
   * GPUDirect facts, to find one again: a few per process, so a scan, not a map entry and key each.
   */
  private static final class Proc {
    final String name;
    String version;
    Evidence versionLine;
    Progress.Stage stage;
    String stageFile;
    long stageLine;
    String stageText;
    Object[] facts = new Object[0];
    int nFacts;

    Proc(String name) {
      this.name = name;
    }

    void fact(Object o) {
      if (nFacts == facts.length) {
        facts = Arrays.copyOf(facts, Math.max(4, nFacts * 2));
      }
      facts[nFacts++] = o;
    }
  }

  private static final class EnvAcc {
    final String name;
    final String value;
    final Evidence evidence;
    final Set<String> processes = new HashSet<>();

    EnvAcc(String name, String value, Evidence evidence) {
      this.name = name;
      this.value = value;
      this.evidence = evidence;
    }
  }

  private static final class WarnAcc {
    final String process;
    final NcclWarning.Kind kind;
    final String message;
    final NcclWarning.Detail detail;
    final Evidence evidence;
    final Set<String> processes = new HashSet<>();
    long count;

    WarnAcc(
        String process,
        NcclWarning.Kind kind,
        String message,
        NcclWarning.Detail detail,
        Evidence evidence) {
      this.process = process;
      this.kind = kind;
      this.message = message;
      this.detail = detail;
      this.evidence = evidence;
    }
  }

  private static final class FailAcc {
    final NcclEvent.Failure failure;
    final Evidence evidence;
    long count;

    FailAcc(NcclEvent.Failure failure, Evidence evidence) {
      this.failure = failure;
      this.evidence = evidence;
    }
  }

  /**
   * {@code host:pid} of a line's process, one String for all that is kept of the process (a slice's
   * parse makes its own).
   */
  private String process(LineHeader h) {
    return proc(h).name;
  }

  /** The line's process. */
  private Proc proc(LineHeader h) {
    Proc last = lastProc;
    String p = h.process();
    if (last != null && last.name.equals(p)) {
      return last;
    }
    lastProc = procs.computeIfAbsent(p, Proc::new);
    return lastProc;
  }

  /**
   * One String for a value every rank prints alike or a host's ranks share (a plugin's name, an
   * interface and its address, a bus id, a version, a communicator's id), not one per rank.
   */
  private String word(String s) {
    return s == null ? null : words.computeIfAbsent(s, k -> k);
  }

  /**
   * The evidence of a line kept per rank or connection: its text as it is for the first {@link
   * #PLAIN_TEXTS}, deflated with the others after them.
   */
  private Evidence kept(String file, long line, String text) {
    if (plainTexts < PLAIN_TEXTS) {
      plainTexts++;
      return new Evidence(file, line, text);
    }
    return texts.evidence(file, line, text);
  }

  void input(InputFile file) {
    inputs.add(file);
  }

  void unrecognized(Evidence e) {
    unrecognized.add(e);
  }

  void malformed(Evidence e) {
    malformed.add(e);
  }

  /**
   * Applies a line a framework printed without NCCL's header (a failure, a watchdog timeout, NCCL's
   * last error text); its process is unknown.
   */
  void acceptFramework(NcclEvent event, String file, long line, String text) {
    switch (event) {
      case NcclEvent.OfJob j -> ofJob(j, new Evidence(file, line, text));
      case NcclEvent.Warning w -> warning("", w, new Evidence(file, line, text));
      case NcclEvent.Version v -> printedNccl(v.version(), new Evidence(file, line, text));
      case NcclEvent.VersionNamed v -> namedNccl(v.version(), new Evidence(file, line, text));
      case NcclEvent.EnvSet s ->
          // a launcher's command line: sent to every process, printed by none
          env.computeIfAbsent(
              s.name() + "=" + s.value(),
              k -> new EnvAcc(s.name(), s.value(), new Evidence(file, line, text)));
      default -> {}
    }
  }

  /**
   * The events that belong to the job, not to the process that printed them (a failure, a timeout,
   * the watchdog, a launch command, a GPU named, a rank announced, an Xid): kept alike whether or
   * not the line had NCCL's header.
   */
  private void ofJob(NcclEvent.OfJob event, Evidence e) {
    switch (event) {
      case NcclEvent.Failure f -> failure(f, e);
      case NcclEvent.CollectiveTimeout t -> timeout(t, e);
      case NcclEvent.Watchdog w -> watchdog(w, e);
      case NcclEvent.Launch l -> launch(l, e);
      case NcclEvent.GpuNamed g ->
          gpuMentions.add(new GpuMention(g.model(), g.capability(), g.hang(), g.refused(), e));
      case NcclEvent.Launched l -> launched(l, e);
      case NcclEvent.SlurmManaged s -> {
        // every process prints it once; the rules need one
        if (slurmManaged.size() < 1_000) {
          slurmManaged.add(new io.topolens.model.SlurmManaged(e));
        }
      }
      case NcclEvent.Xid x -> gpuError(x, e);
      case NcclEvent.Frame f -> {
        if (stackFrames.size() < 10_000) {
          stackFrames.add(new StackFrame(f.function(), f.source(), f.depth(), e));
        }
      }
    }
  }

  /** NCCL's version as printed ({@code 2.19.3+cuda11.0}, {@code 2.18.6}), once per version. */
  private void printedNccl(String version, Evidence e) {
    String key = "nccl|" + version;
    if (printed.size() >= MAX_DISTINCT_WARNINGS || printed.containsKey(key)) {
      return; // kept already (every process prints it): no need to read its CUDA again
    }
    int plus = version.indexOf("+cuda");
    String release = plus < 0 ? version : version.substring(0, plus);
    int cuda = plus < 0 ? -1 : cudaNumber(version.substring(plus + 5));
    printed.put(key, new PrintedVersion(PrintedVersion.Of.NCCL, release, cuda, e));
  }

  /** NCCL's release as a package list, a path or a framework names it, once per release. */
  private void namedNccl(String release, Evidence e) {
    if (printed.size() < MAX_DISTINCT_WARNINGS) {
      printed.putIfAbsent(
          "named|" + release, new PrintedVersion(PrintedVersion.Of.NCCL_NAMED, release, -1, e));
    }
  }

  /** {@code 11.0} as CUDA numbers it (11000), or -1. */
  private static int cudaNumber(String text) {
    int dot = text.indexOf('.');
    try {
      int major = Integer.parseInt(dot < 0 ? text : text.substring(0, dot));
      int minor = dot < 0 ? 0 : Integer.parseInt(text.substring(dot + 1).split("\\D", 2)[0]);
      return major < 100 && minor < 100 ? major * 1000 + minor * 10 : -1;
    } catch (NumberFormatException notANumber) {
      return -1;
    }
  }

  private void failure(NcclEvent.Failure f, Evidence e) {
    if (f.version() != null) {
      printedNccl(f.version(), e);
    }
    String shape = f.result() + "|" + f.detail().replaceAll("0x[0-9a-fA-F]+|[0-9]+", "#");
    FailAcc acc = failures.get(shape);
    if (acc == null) {
      if (failures.size() >= MAX_DISTINCT_WARNINGS) {
        return;
      }
      acc = new FailAcc(f, e);
      failures.put(shape, acc);
    }
    acc.count++;
  }

  private void timeout(NcclEvent.CollectiveTimeout t, Evidence e) {
    // one per rank and call: the same rank repeats it (once per watchdog, once in the exception)
    if (timeouts.size() < 10_000) {
      timeouts.putIfAbsent(
          t.rank() + "|" + t.seq() + "|" + t.op(),
          new CollectiveTimeout(
              t.rank(),
              t.seq(),
              t.op(),
              t.numelIn(),
              t.numelOut(),
              t.timeoutMs(),
              t.ranForMs(),
              e));
    }
  }

  private void launch(NcclEvent.Launch l, Evidence e) {
    launches.add(
        new LaunchCommand(
            l.launcher(), l.slots(), l.byNode(), l.shm(), l.processes(), l.hostfile(), e));
  }

  private void launched(NcclEvent.Launched l, Evidence e) {
    // every line: a rank announced twice is what the rules look for
    if (launched.size() < 10_000) {
      launched.add(new LaunchedRank(l.launcher(), l.rank(), l.worldSize(), l.stream(), e));
    }
  }

  private void gpuError(NcclEvent.Xid x, Evidence e) {
    // every line (a dmesg repeats an Xid per channel), up to a bound
    if (gpuErrors.size() < 10_000) {
      gpuErrors.add(new GpuXid(x.pciBus(), x.xid(), e));
    }
  }

  private void watchdog(NcclEvent.Watchdog w, Evidence e) {
    // one per rank and form: every process group of a rank repeats it
    if (watchdog.size() < 10_000) {
      watchdog.putIfAbsent(
          w.kind() + "|" + w.rank() + "|" + w.seq() + "|" + w.fromRank(),
          new WatchdogReport(
              w.kind(),
              w.rank(),
              w.seq(),
              w.lastEnqueued(),
              w.lastCompleted(),
              w.fromRank(),
              e,
              w.timeoutMs()));
    }
  }

  /** Applies one parsed NCCL line. */
  void accept(LineHeader h, NcclEvent event, String file, long line, String text) {
    Progress.Stage stage = stage(event);
    if (stage != null) {
      Proc p = proc(h);
      if (p.stage == null) {
        staged.add(p);
      }
      p.stage = stage;
      p.stageFile = file;
      p.stageLine = line;
      p.stageText = text;
    }
    switch (event) {
      case NcclEvent.Known k -> {} // nothing, so BlockParser keeps no known line of NCCL's header
      case NcclEvent.Stage st -> {}
      case NcclEvent.CollectiveCall c -> call(h, c, file, line, text);
      case NcclEvent.Unrecognized u -> unrecognized.add(new Evidence(file, line, text));
      case NcclEvent.Version v -> {
        Proc p = proc(h);
        if (p.version == null) {
          p.version = word(v.version());
          p.versionLine = kept(file, line, text);
        }
        printedNccl(v.version(), new Evidence(file, line, text));
      }
      case NcclEvent.VersionNamed v -> namedNccl(v.version(), new Evidence(file, line, text));
      case NcclEvent.CudaDriver d -> {
        if (printed.size() < MAX_DISTINCT_WARNINGS) {
          printed.putIfAbsent(
              "driver|" + d.version(),
              new PrintedVersion(
                  PrintedVersion.Of.CUDA_DRIVER,
                  PrintedVersion.cudaText(d.version()),
                  d.version(),
                  new Evidence(file, line, text)));
        }
      }
      case NcclEvent.EnvSet s -> {
        EnvAcc acc =
            env.computeIfAbsent(
                s.name() + "=" + s.value(),
                k -> new EnvAcc(s.name(), s.value(), new Evidence(file, line, text)));
        acc.processes.add(process(h));
      }
      case NcclEvent.Plugin p -> plugin(h, p, file, line, text);
      case NcclEvent.Iface i -> {
        for (int n = 0; n < i.interfaces().size(); n++) {
          NcclEvent.Iface.Named named = i.interfaces().get(n);
          int index = n;
          Proc p = proc(h);
          if (!hasInterface(p, i.role(), named.name())) {
            Interface kept =
                new Interface(
                    p.name,
                    i.role(),
                    word(named.name()),
                    word(named.address()),
                    index,
                    kept(file, line, text));
            p.fact(kept);
            interfaces.add(kept);
          }
        }
      }
      case NcclEvent.OfJob j -> ofJob(j, new Evidence(file, line, text));
      case NcclEvent.Gdr g -> {
        Proc p = proc(h);
        if (!hasGdr(p, g.transport(), g.hca())) {
          GdrStatus kept =
              new GdrStatus(
                  p.name, word(g.transport()), word(g.hca()), g.enabled(), kept(file, line, text));
          p.fact(kept);
          gdr.add(kept);
        }
      }
      case NcclEvent.Warning w -> {
        warning(process(h), w, new Evidence(file, line, text));
        if (w.plugin() != null) {
          plugin(h, w.plugin(), file, line, text);
        }
      }
      case NcclEvent.Comm c -> comm(h, c, file, line, text);
      case NcclEvent.BootstrapTimings b -> {
        LocalComm lc = ctx(h).latest();
        if (lc != null && Double.isNaN(lc.bootstrapSeconds)) {
          lc.bootstrapSeconds = b.total();
          lc.bootstrapRecvSeconds = b.recv();
          lc.timingLine = kept(file, line, text);
        }
      }
      case NcclEvent.InitTimings t -> {
        LocalComm lc = find(ctx(h), t.rank(), t.nRanks());
        if (lc != null) {
          lc.initSeconds = t.total();
          if (Double.isNaN(lc.bootstrapSeconds)) {
            lc.bootstrapSeconds = t.bootstrap();
          }
          if (lc.timingLine == null) {
            lc.timingLine = kept(file, line, text);
          }
        }
      }
      case NcclEvent.RingOrder r -> {
        LocalComm lc = current(h, file, line, text);
        int[] order = r.ranks().stream().mapToInt(Integer::intValue).toArray();
        lc.rings.putIfAbsent(
            r.channel(), () -> internedRings.computeIfAbsent(Arrays.toString(order), k -> order));
      }
      case NcclEvent.Trees t -> {
        Ctx ctx = ctx(h);
        LocalComm lc = find(ctx, t.rank(), -1);
        if (lc == null) {
          lc = current(h, file, line, text);
        }
        // channels 0, 1, ... in order: a line with more channels than those before adds the rest
        int had = lc.trees.length;
        if (t.channels().size() > had) {
          lc.trees = Arrays.copyOf(lc.trees, t.channels().size());
          for (int i = had; i < lc.trees.length; i++) {
            lc.trees[i] = t.channels().get(i);
          }
        }
      }
      case NcclEvent.Connection c -> connection(h, c, file, line, text);
      case NcclEvent.Connected c -> {
        LocalComm lc = ctx(h).latest();
        if (lc != null) {
          if (c.pxn() != null) {
            lc.pxn = c.pxn();
          }
          if (c.gdr() != null) {
            lc.gdr = c.gdr();
          }
        }
      }
    }
  }

  /** The init stage a line shows, or null when it shows none (warnings, traces, settings). */
  private static Progress.Stage stage(NcclEvent event) {
    return switch (event) {
      case NcclEvent.Version v -> Progress.Stage.BOOTSTRAP;
      case NcclEvent.Iface i -> Progress.Stage.BOOTSTRAP;
      case NcclEvent.Plugin p -> Progress.Stage.BOOTSTRAP;
      case NcclEvent.Comm c ->
          c.phase() == NcclEvent.Phase.COMPLETE || c.phase() == NcclEvent.Phase.DESTROY
              ? Progress.Stage.COMPLETE
              : Progress.Stage.TOPOLOGY;
      case NcclEvent.BootstrapTimings b -> Progress.Stage.TOPOLOGY;
      case NcclEvent.InitTimings t -> Progress.Stage.COMPLETE;
      case NcclEvent.RingOrder r -> Progress.Stage.TOPOLOGY;
      case NcclEvent.Trees t -> Progress.Stage.TOPOLOGY;
      case NcclEvent.Connection c ->
          switch (c.path().transport()) {
            case P2P -> Progress.Stage.CONNECT_P2P;
            case SHM -> Progress.Stage.CONNECT_SHM;
            case NET, COLLNET -> Progress.Stage.CONNECT_NET;
            case NVLS -> Progress.Stage.NVLS;
            case UNKNOWN -> null;
          };
      case NcclEvent.Connected c -> Progress.Stage.CONNECTED;
      case NcclEvent.Stage st -> st.stage();
      default -> null;
    };
  }

  private void plugin(LineHeader h, NcclEvent.Plugin p, String file, long line, String text) {
    if (p.outcome() == NetPluginEvent.Outcome.SELECTED) {
      ctx(h).network = word(p.plugin());
    }
    Proc proc = proc(h);
    for (int i = 0; i < proc.nFacts; i++) {
      if (proc.facts[i] instanceof NetPluginEvent e
          && e.outcome() == p.outcome()
          && Objects.equals(e.plugin(), p.plugin())) {
        return; // the first line of each plugin and outcome of a process is kept
      }
    }
    NetPluginEvent kept =
        new NetPluginEvent(
            proc.name, word(p.plugin()), p.outcome(), kept(file, line, text), word(p.provider()));
    proc.fact(kept);
    plugins.add(kept);
  }

  /** Whether the process has an interface of this role and name already (its first line kept). */
  private static boolean hasInterface(Proc p, Interface.Role role, String name) {
    for (int i = 0; i < p.nFacts; i++) {
      if (p.facts[i] instanceof Interface f && f.role() == role && Objects.equals(f.name(), name)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the process has a GPUDirect report of this transport and NIC already. */
  private static boolean hasGdr(Proc p, String transport, String hca) {
    for (int i = 0; i < p.nFacts; i++) {
      if (p.facts[i] instanceof GdrStatus g
          && Objects.equals(g.transport(), transport)
          && Objects.equals(g.hca(), hca)) {
        return true;
      }
    }
    return false;
  }

  private Ctx ctx(LineHeader h) {
    Ctx last = lastCtx;
    if (last != null
        && last.id.pid() == h.pid()
        && last.id.cudaDev() == h.dev()
        && last.id.host().equals(h.host())) {
      return last; // a process's lines come in runs: no RankId and no lookup per line
    }
    RankId id = new RankId(h.host(), h.pid(), h.dev());
    last = ctxs.get(id);
    if (last == null) {
      // the host's name once for all its ranks
      last = new Ctx(new RankId(word(h.host()), h.pid(), h.dev()));
      ctxs.put(last.id, last);
    }
    lastCtx = last;
    return last;
  }

  /**
   * The newest communicator of this context where it holds {@code rank} (and has {@code nRanks}).
   */
  private static LocalComm find(Ctx ctx, int rank, int nRanks) {
    for (int i = ctx.comms.size() - 1; i >= 0; i--) {
      LocalComm lc = ctx.comms.get(i);
      if (lc.rank == rank && (nRanks < 0 || lc.nRanks < 0 || lc.nRanks == nRanks)) {
        return lc;
      }
    }
    return null;
  }

  /** The newest communicator of the context, or one for lines that come before any comm line. */
  private LocalComm current(LineHeader h, String file, long line, String text) {
    Ctx ctx = ctx(h);
    LocalComm lc = ctx.latest();
    return lc != null ? lc : orphan(ctx, kept(file, line, text));
  }

  private LocalComm orphan(Ctx ctx, Evidence e) {
    if (ctx.orphan == null) {
      ctx.orphan = new LocalComm(ctx.id, null, null, e);
      comms.add(ctx.orphan);
    }
    return ctx.orphan;
  }

  /** A call the host enqueued: kept as the process's last on that communicator. */
  private void call(LineHeader h, NcclEvent.CollectiveCall c, String file, long line, String text) {
    Ptr key = new Ptr(process(h), word(c.commPtr()));
    CallAcc a = calls.get(key);
    if (a == null) {
      a = new CallAcc();
      calls.put(key, a);
    }
    if (a.commKey == null) {
      LocalComm lc = byPtr.get(key);
      if (lc != null) {
        a.commKey = lc.commId != null ? lc.commId : lc.nRanks > 0 ? "nranks=" + lc.nRanks : null;
        a.rank = lc.rank;
      }
    }
    a.op = c.op();
    a.opCount = c.opCount();
    a.pointToPoint |= c.op().equals("Send") || c.op().equals("Recv");
    a.file = file;
    a.line = line;
    a.text = text;
  }

  /**
   * A new communicator at a pointer whose calls were kept (the old one destroyed and its memory
   * reused, or initialised again): the old calls stay under a key of their own, so the new
   * communicator's calls neither take the old one's commId and rank nor hide its last call.
   */
  private void retireCalls(Ptr key, String file, long line) {
    CallAcc old = calls.remove(key);
    if (old != null) {
      calls.put(new Ptr(key.process(), key.ptr() + " before " + file + ":" + line), old);
    }
  }

  private void comm(LineHeader h, NcclEvent.Comm c, String file, long line, String text) {
    Ctx ctx = ctx(h);
    if (c.nvmlDev() >= 0) {
      ctx.nvmlDev = c.nvmlDev();
    }
    if (c.busId() != null) {
      ctx.busId = word(c.busId());
    }
    Ptr key = new Ptr(process(h), c.commPtr());
    LocalComm lc = byPtr.get(key);
    if (c.phase() == NcclEvent.Phase.DESTROY) {
      byPtr.remove(key);
      return;
    }
    if (lc == null || (c.phase() == NcclEvent.Phase.START && lc.started)) {
      LocalComm parent =
          c.parentPtr() == null ? null : byPtr.get(new Ptr(process(h), c.parentPtr()));
      lc = new LocalComm(ctx.id, c.commPtr(), parent, kept(file, line, text));
      byPtr.put(key, lc);
      retireCalls(new Ptr(key.process(), word(c.commPtr())), file, line);
      comms.add(lc);
      ctx.comms.add(lc);
      lc.network = ctx.network;
    }
    lc.rank = c.rank();
    if (c.nRanks() > 0) {
      lc.nRanks = c.nRanks();
    }
    if (c.commId() != null) {
      lc.commId = word(c.commId());
    }
    switch (c.phase()) {
      case START -> lc.started = true;
      case COMPLETE -> lc.completed = true;
      case INFO -> {
        lc.nNodes = c.nNodes();
        lc.localRanks = c.localRanks();
      }
      case DESTROY -> {}
    }
  }

  /** A connection line; its evidence is made only where it is kept (a new edge, a damaged line). */
  private void connection(
      LineHeader h, NcclEvent.Connection c, String file, long line, String text) {
    int top = Math.max(c.from(), c.to());
    // a rank or channel NCCL cannot print (negative, past an int, past MAXCHANNELS): a damaged line
    if (Math.min(c.from(), c.to()) < 0 || c.channel() < 0 || c.channel() >= MAX_CHANNELS) {
      malformed.add(new Evidence(file, line, text));
      return;
    }
    Ctx ctx = ctx(h);
    int printer = c.direction() == Direction.RECEIVE ? c.to() : c.from();
    LocalComm lc = null;
    if (c.commPtr() != null) {
      lc = byPtr.get(new Ptr(process(h), c.commPtr()));
    }
    if (lc != null && lc.nRanks > 0 && top >= lc.nRanks) {
      // the communicator the line names has fewer ranks than the line does
      malformed.add(new Evidence(file, line, text));
      return;
    }
    if (lc == null) {
      for (int i = ctx.comms.size() - 1; i >= 0 && lc == null; i--) {
        LocalComm candidate = ctx.comms.get(i);
        if (candidate.rank == printer && (candidate.nRanks < 0 || top < candidate.nRanks)) {
          lc = candidate;
        }
      }
    }
    if (lc == null) {
      lc = orphan(ctx, kept(file, line, text));
    }
    LocalComm.EdgeKey key = new LocalComm.EdgeKey(c.from(), c.to(), c.direction(), c.path().raw());
    LocalComm.EdgeAcc acc = lc.edges.get(key);
    if (acc == null) {
      acc = new LocalComm.EdgeAcc(c.path(), kept(file, line, text), c.fromTag(), c.toTag(), ctx.id);
      lc.edges.add(key, acc);
    }
    acc.channels.set(c.channel());
  }

  private void warning(String process, NcclEvent.Warning w, Evidence e) {
    // numbers aside, but not what the reader read from them (the signal of one line and another's)
    String shape =
        w.kind() + "|" + w.detail() + "|" + w.message().replaceAll("0x[0-9a-fA-F]+|[0-9]+", "#");
    WarnAcc acc = warnings.get(shape);
    if (acc == null) {
      if (warnings.size() >= MAX_DISTINCT_WARNINGS) {
        extraWarnings++;
        return;
      }
      acc = new WarnAcc(process, w.kind(), w.message(), w.detail(), e);
      warnings.put(shape, acc);
    }
    acc.count++;
    acc.processes.add(process);
  }

  /** The NCCL version the process of a context printed first, or null. */
  private String version(Ctx c) {
    Proc p = procs.get(c.id.host() + ":" + c.id.pid());
    return p == null ? null : p.version;
  }

  /** The line of {@link #version}, or null. */
  private Evidence versionLine(Ctx c) {
    Proc p = procs.get(c.id.host() + ":" + c.id.pid());
    return p == null ? null : p.versionLine;
  }

  /** Merges what was read into the Job. */
  Job finish() {
    List<Rank> ranks =
        ctxs.values().stream()
            .filter(c -> !c.comms.isEmpty() || c.orphan != null || version(c) != null)
            .map(c -> new Rank(c.id, c.nvmlDev, c.busId, version(c), versionLine(c)))
            .sorted(Comparator.comparing(Rank::id))
            .toList();
    // what is merged is let go as it goes, so the job and all that was read are never held twice
    ctxs.clear();
    lastCtx = null;
    List<NcclWarning> warns = new ArrayList<>();
    for (WarnAcc w : warnings.values()) {
      warns.add(
          new NcclWarning(
              w.process,
              w.kind,
              w.message,
              w.count,
              w.processes.size(),
              w.evidence,
              w.detail,
              w.evidence.text().contains("NCCL WARN")));
    }
    if (extraWarnings > 0) {
      warns.add(
          new NcclWarning(
              "",
              NcclWarning.Kind.OTHER,
              extraWarnings + " more warnings of other forms not kept",
              extraWarnings,
              0,
              null,
              null));
    }
    List<EnvSetting> envs =
        env.values().stream()
            .map(a -> new EnvSetting(a.name, a.value, a.processes.size(), a.evidence))
            .toList();
    List<Progress> stages = new ArrayList<>(staged.size());
    for (Proc p : staged) {
      stages.add(new Progress(p.name, p.stage, kept(p.stageFile, p.stageLine, p.stageText)));
      p.stageText = null;
    }
    staged.clear();
    texts.seal();
    Map<String, String> addresses = addresses();
    procs.clear();
    lastProc = null;
    List<NetPluginEvent> pluginList = List.copyOf(plugins);
    plugins.clear();
    List<Interface> interfaceList = List.copyOf(interfaces);
    interfaces.clear();
    List<GdrStatus> gdrList = List.copyOf(gdr);
    gdr.clear();
    byPtr.clear();
    List<CollectiveReached> reached = new ArrayList<>(calls.size());
    for (Map.Entry<Ptr, CallAcc> e : calls.entrySet()) {
      CallAcc a = e.getValue();
      reached.add(
          new CollectiveReached(
              e.getKey().process(),
              a.commKey,
              a.rank,
              a.op,
              a.opCount,
              a.pointToPoint,
              new Evidence(a.file, a.line, a.text)));
    }
    calls.clear();
    words.clear();
    List<Communicator> communicators = communicators();
    comms.clear();
    return new Job(
        List.copyOf(inputs),
        ranks,
        communicators,
        pluginList,
        envs,
        interfaceList,
        gdrList,
        warns,
        unrecognized.toSample(),
        malformed.toSample(),
        addresses,
        Map.of(),
        failures.values().stream()
            .map(
                a ->
                    new NcclFailure(
                        a.failure.rank(),
                        a.failure.result(),
                        a.failure.detail(),
                        a.failure.version(),
                        a.count,
                        a.evidence))
            .toList(),
        List.copyOf(timeouts.values()),
        List.copyOf(watchdog.values()),
        List.copyOf(printed.values()),
        List.copyOf(launched),
        List.copyOf(slurmManaged),
        stages,
        List.copyOf(launches),
        List.copyOf(gpuMentions),
        List.copyOf(gpuErrors),
        List.copyOf(stackFrames),
        List.copyOf(reached));
  }

  /** The bootstrap address each process printed. */
  private Map<String, String> addresses() {
    Map<String, String> out = new HashMap<>();
    for (Interface i : interfaces) {
      if (i.role() == Interface.Role.BOOTSTRAP) {
        out.putIfAbsent(i.process(), i.address());
      }
    }
    return Map.copyOf(out);
  }

  /**
   * Groups the per-process views: by commId where NCCL printed one, otherwise by (nRanks, how many
   * communicators of that size the context had made before) — the k-th communicator of a size in
   * every process is taken to be the same one.
   */
  private List<Communicator> communicators() {
    Map<LocalComm, String> keys = new HashMap<>();
    Map<RankId, Map<Integer, Integer>> ordinals = new HashMap<>();
    for (LocalComm lc : comms) {
      String key;
      if (lc.commId != null) {
        key = lc.commId;
      } else if (lc.ptr == null) {
        key = "unassigned";
      } else {
        int ordinal =
            ordinals
                .computeIfAbsent(lc.ctx, k -> new HashMap<>())
                .merge(lc.nRanks, 1, Integer::sum);
        key = "nranks" + lc.nRanks + "#" + ordinal;
      }
      keys.put(lc, key);
    }
    Map<String, List<LocalComm>> groups = new LinkedHashMap<>();
    for (LocalComm lc : comms) {
      groups.computeIfAbsent(keys.get(lc), k -> new ArrayList<>()).add(lc);
    }
    List<Communicator> out = new ArrayList<>();
    for (Map.Entry<String, List<LocalComm>> g : groups.entrySet()) {
      out.add(merge(g.getKey(), g.getValue(), keys));
    }
    out.sort(
        Comparator.comparingInt(Communicator::nRanks).reversed().thenComparing(Communicator::key));
    return out;
  }

  private static Communicator merge(
      String key, List<LocalComm> parts, Map<LocalComm, String> keys) {
    int nRanks = -1;
    String commId = null;
    String parentKey = null;
    Map<Integer, Member> members = new TreeMap<>();
    Map<Integer, List<Integer>> rings = new TreeMap<>();
    TreeList trees = trees(parts);
    Map<LocalComm.EdgeKey, LocalComm.EdgeAcc> edges = new LinkedHashMap<>();
    Boolean pxn = null;
    Boolean gdr = null;
    for (LocalComm lc : parts) {
      nRanks = Math.max(nRanks, lc.nRanks);
      if (commId == null) {
        commId = lc.commId;
      }
      if (parentKey == null && lc.parent != null) {
        parentKey = keys.get(lc.parent);
      }
      if (lc.rank >= 0) {
        members.putIfAbsent(lc.rank, member(lc));
      }
      addRings(rings, lc);
      addEdges(edges, lc);
      if (lc.pxn != null) {
        pxn = (pxn != null && pxn) || lc.pxn;
      }
      if (lc.gdr != null) {
        gdr = gdr == null ? lc.gdr : gdr && lc.gdr;
      }
      lc.release();
    }
    List<Edge> edgeList = new ArrayList<>();
    for (Map.Entry<LocalComm.EdgeKey, LocalComm.EdgeAcc> e : edges.entrySet()) {
      LocalComm.EdgeKey k = e.getKey();
      LocalComm.EdgeAcc acc = e.getValue();
      edgeList.add(
          new Edge(
              k.from(),
              k.to(),
              k.direction(),
              acc.path,
              acc.channels.stream().boxed().toList(),
              acc.evidence,
              acc.fromTag,
              acc.toTag,
              acc.printer));
    }
    edgeList.sort(JobAssembler::byEnds);
    return new Communicator(
        key, commId, nRanks, parentKey, members, rings, trees, edgeList, pxn, gdr);
  }

  // The pieces of a part merged, each a method of its own: merge runs once, over thousands of
  // parts, so its loop is interpreted until the JIT replaces it while it runs, where a method
  // called
  // per part is compiled after a few hundred calls (docs/performance.md, eleventh pass).

  private static Member member(LocalComm lc) {
    return new Member(
        lc.rank,
        lc.ctx,
        lc.nNodes,
        lc.localRanks,
        lc.started,
        lc.completed,
        lc.bootstrapSeconds,
        lc.bootstrapRecvSeconds,
        lc.initSeconds,
        lc.network,
        lc.firstLine,
        lc.timingLine);
  }

  /** The part's rings, each channel's first order kept. */
  private static void addRings(Map<Integer, List<Integer>> rings, LocalComm lc) {
    for (int i = 0; i < lc.rings.size(); i++) {
      int[] order = lc.rings.order(i);
      rings.computeIfAbsent(lc.rings.channel(i), k -> Arrays.stream(order).boxed().toList());
    }
  }

  /** The part's connections, the channels of one already seen joined to it. */
  private static void addEdges(Map<LocalComm.EdgeKey, LocalComm.EdgeAcc> edges, LocalComm lc) {
    for (int i = 0; i < lc.edges.size(); i++) {
      LocalComm.EdgeKey k = lc.edges.key(i);
      LocalComm.EdgeAcc acc = edges.get(k);
      if (acc == null) {
        edges.put(k, lc.edges.acc(i));
      } else {
        acc.channels.or(lc.edges.acc(i).channels);
      }
    }
  }

  /**
   * The trees of a communicator's parts by rank, then channel, parts of the same rank in the order
   * read (what a stable sort of every tree by rank and channel gives): parts sorted by rank, and
   * those of one rank taken a channel at a time.
   */
  private static TreeList trees(List<LocalComm> parts) {
    List<LocalComm> ranked = new ArrayList<>();
    int count = 0;
    for (LocalComm lc : parts) {
      if (lc.rank >= 0 && lc.trees.length > 0) {
        ranked.add(lc);
        count += lc.trees.length;
      }
    }
    ranked.sort(Comparator.comparingInt(lc -> lc.rank));
    TreeList.Builder trees = new TreeList.Builder(count);
    for (int from = 0; from < ranked.size(); ) {
      int to = from + 1;
      int channels = ranked.get(from).trees.length;
      while (to < ranked.size() && ranked.get(to).rank == ranked.get(from).rank) {
        channels = Math.max(channels, ranked.get(to).trees.length);
        to++;
      }
      addTrees(trees, ranked.subList(from, to), channels);
      from = to;
    }
    return trees.build();
  }

  /** The trees of one rank's parts, a channel at a time, the parts of each in the order read. */
  private static void addTrees(TreeList.Builder trees, List<LocalComm> parts, int channels) {
    for (int ch = 0; ch < channels; ch++) {
      for (LocalComm lc : parts) {
        if (ch < lc.trees.length) {
          trees.add(ch, lc.rank, lc.trees[ch]);
        }
      }
    }
  }

  /**
   * Edges by sender, receiver and direction: the order {@code comparingInt(Edge::from)
   * .thenComparingInt(Edge::to).thenComparing(Edge::direction)} gives, in one call; a big job's
   * communicator sorts thousands of edges once, mostly before the JIT compiles the comparator, so
   * the chain of lambdas it calls per comparison shows.
   */
  private static int byEnds(Edge a, Edge b) {
    int c = Integer.compare(a.from(), b.from());
    if (c == 0) {
      c = Integer.compare(a.to(), b.to());
    }
    return c != 0 ? c : a.direction().compareTo(b.direction());
  }
}
