package io.topolens.nccl;

import io.topolens.model.ComputeCapability;
import io.topolens.model.Direction;
import io.topolens.model.Interface;
import io.topolens.model.NcclWarning;
import io.topolens.model.NetPluginEvent.Outcome;
import io.topolens.model.Progress;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the message of one NCCL line (the text after {@code NCCL INFO}) into an {@link NcclEvent}.
 * Hand-written rather than regular expressions: this runs on every line of gigabyte logs.
 */
final class MessageParser {
  private MessageParser() {}

  private static final NcclEvent NVLS_STAGE = new NcclEvent.Stage(Progress.Stage.NVLS);

  private static final NcclEvent TOPOLOGY_STAGE = new NcclEvent.Stage(Progress.Stage.TOPOLOGY);

  /** init.cc's INFO line when NCCL_COMM_ID overrides the program's several unique ids. */
  static final String COMM_ID_ONE_ROOT = "NCCL_COMM_ID cannot be used with more than one";

  private static final String MIN_COMP_CAP = " threads, Min Comp Cap ";

  static NcclEvent parse(LineHeader h) {
    String m = h.message();
    if (starts(m, first(m), "[Rank ")) {
      // NCCL 2.28+ tags some init lines with the rank: "[Rank 5] ncclCommInitRankConfig comm ..."
      int close = m.indexOf("] ");
      if (close > 0) {
        m = m.substring(close + 2);
      }
    }
    if (h.level() != LineHeader.Level.INFO && h.level() != LineHeader.Level.TRACE) {
      return warning(h, m);
    }
    char first = first(m);
    // every test below needs a word that most lines lack: " returned " (which "connect returned "
    // holds too), "Using " at the start, " Cuda failure " at the first space; so one search of the
    // whole message, not four, on most lines (docs/performance.md, tenth pass)
    int returned = m.indexOf(" returned ");
    if (returned >= 0
        && (m.indexOf("connect returned ", returned - 7) >= 0 || m.contains("connect to "))
        && m.contains("retrying")) {
      // "Call to connect returned Connection timed out, retrying" (2.4-2.23), "socketPollConnect:
      // connect returned Connection refused, retrying (1/34) after sleep for 100 msec" (2.24+),
      // "socketPollConnect: connect to 10.0.0.2<43567> returned ..., retrying (1/34) ..." (2.28)
      return new NcclEvent.Warning(
          NcclWarning.Kind.SOCKET, m, null, WarningClassifier.connectError(m));
    }
    if (starts(m, first, "Invalid value ") && m.contains(" using default ")) {
      // misc/param.cc (INFO): "Invalid value %s for %s, using default %lld." - an NCCL_* value
      // NCCL could not parse and ignored
      return new NcclEvent.Warning(NcclWarning.Kind.ENV_IGNORED, m, null);
    }
    if (starts(m, first, "Invalid NCCL_") && WarningClassifier.threadsOutOfBounds(m)) {
      // graph/tuning.cc 2.2x+ (INFO; a WARN before): "Invalid NCCL_NTHREADS 100 (must be a
      // multiple of 32)", "... (maximum 512).", "... (minimum 64).": NCCL used its bound instead
      return new NcclEvent.Warning(NcclWarning.Kind.ENV_IGNORED, m, null);
    }
    if (starts(m, first, COMM_ID_ONE_ROOT)) {
      // init.cc (2.23+, INFO): NCCL_COMM_ID set beside the several unique ids of
      // ncclCommInitRankScalable, of which NCCL then uses only the first
      return new NcclEvent.Warning(NcclWarning.Kind.COMM_ID_ONE_ROOT, m, null);
    }
    int cap = starts(m, first, "Using ") ? m.indexOf(MIN_COMP_CAP) : -1;
    if (cap > 0) {
      // init.cc 2.3-2.6: "Using 256 threads, Min Comp Cap 8, Trees disabled": the lowest compute
      // capability of the communicator's GPUs
      int from = cap + MIN_COMP_CAP.length();
      int to = from;
      while (to < m.length() && Character.isDigit(m.charAt(to))) {
        to++;
      }
      if (to > from && to - from <= 3) {
        return new NcclEvent.GpuNamed(
            null, new ComputeCapability(Integer.parseInt(m.substring(from, to)), -1), false, false);
      }
    }
    int cuda = m.indexOf(' ');
    if (cuda > 0 && m.startsWith(" Cuda failure ", cuda) && m.lastIndexOf(':', cuda) > 0) {
      // 2.2x prints some CUDA failures at INFO, behind the file and line that saw them
      // (init.cc's ncclCommInitRankFunc, dev_runtime.cc): "init.cc:1650 Cuda failure 'out of
      // memory'"
      return WarningClassifier.warning(m.substring(0, cuda), m.substring(cuda + 1));
    }
    if (starts(m, first, "RAS ")
        && (m.contains(" timeout error (") || m.contains("connect retry timeout ("))) {
      // ras/rasnet.cc, ras/collectives.cc (2.24+, INFO): NCCL's RAS gave up on a peer that
      // stopped answering its keep-alive, connects or collectives
      return new NcclEvent.Warning(NcclWarning.Kind.SOCKET, m, null);
    }
    if (starts(m, first, "socketProgress: Connection closed by remote peer")
        || starts(m, first, "Cannot initialize CollNet")
        || (starts(m, first, "External network plugin ") && m.endsWith(" is unsupported"))) {
      // INFO in 2.19+ (misc/socket.cc, transport.cc, plugin/net.cc), failures all the same
      return WarningClassifier.warning("", m);
    }
    if (first == 'A' || first == 'R' || first == 'B' || first == 'S' || first == 'G') {
      NcclEvent.CollectiveCall call = CollectiveLine.parse(m);
      if (call != null) {
        return call;
      }
    }
    try {
      NcclEvent e = info(m);
      if (e == null && isErrorTrace(m)) {
        // bootstrap.cc returning ncclSystemError (2): NCCL's bootstrap could not reach or accept a
        // peer, often with no WARN of its own; the other traces unwind an error already printed
        return m.startsWith("bootstrap.cc:") && m.endsWith(" -> 2")
            ? new NcclEvent.Warning(
                NcclWarning.Kind.SOCKET,
                m,
                null,
                new NcclWarning.Detail.SocketReport(NcclWarning.SocketSource.BOOTSTRAP_TRACE))
            : NcclEvent.KNOWN;
      }
      return e != null ? e : (KnownLines.isKnown(m) ? NcclEvent.KNOWN : NcclEvent.UNRECOGNIZED);
    } catch (RuntimeException malformedNumber) {
      return NcclEvent.UNRECOGNIZED;
    }
  }

  /** The message's first character, 0 for an empty one. */
  private static char first(String m) {
    return m.isEmpty() ? 0 : m.charAt(0);
  }

  /**
   * Whether {@code m}, whose first character is {@code first}, starts with {@code prefix}: the
   * first characters compared before the call. Every INFO message was asked for eight prefixes
   * before its own reading, one {@link String#startsWith} after another, and most start with none
   * of their letters (4 % of the parse threads' samples on a verbose log, eleventh pass).
   */
  private static boolean starts(String m, char first, String prefix) {
    return first == prefix.charAt(0) && m.startsWith(prefix);
  }

  private static NcclEvent warning(LineHeader h, String m) {
    NcclEvent.Plugin plugin = null;
    if (m.startsWith("NET/OFI")) {
      plugin = ofi(m) instanceof NcclEvent.Plugin p ? p : null;
    } else if (m.startsWith("NET/Plugin")) {
      plugin = plugin(m) instanceof NcclEvent.Plugin p ? p : null;
    } else if (m.startsWith("Failed to initialize NET plugin ")) {
      plugin = new NcclEvent.Plugin(m.substring(32).strip(), Outcome.FAILED);
    }
    NcclEvent.Warning w = WarningClassifier.warning(h.location(), m);
    return plugin == null ? w : new NcclEvent.Warning(w.kind(), m, plugin, w.detail());
  }

  /** NCCL's error unwinding: {@code transport/net_ib.cc:395 -> 2} (file:line -> result code). */
  static boolean isErrorTrace(String m) {
    int arrow = m.indexOf(" -> ");
    if (arrow <= 0) {
      return false;
    }
    int colon = m.lastIndexOf(':', arrow);
    if (colon <= 0 || colon + 1 == arrow) {
      return false;
    }
    for (int i = colon + 1; i < arrow; i++) {
      if (!Character.isDigit(m.charAt(i))) {
        return false;
      }
    }
    return m.indexOf(' ') >= arrow;
  }

  private static NcclEvent info(String m) {
    if (m.isEmpty()) {
      return NcclEvent.KNOWN;
    }
    switch (m.charAt(0)) {
      case 'C' -> {
        if (m.startsWith("Channel ")) {
          return channel(m, "Channel ".length());
        }
        if (m.startsWith("Could not enable P2P between")) {
          return new NcclEvent.Warning(NcclWarning.Kind.P2P, m, null);
        }
        if (m.startsWith("Connected ")) {
          return connected(m);
        }
      }
      case 'R' -> {
        if (m.startsWith("Ring ")) {
          return channel(m, "Ring ".length());
        }
      }
      case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> {
        // NCCL 2.0's connection line names no ring: "0 -> 1 via P2P/IPC" (read as channel 0)
        if (m.indexOf(" -> ") > 0 && m.indexOf(" via ") > 0) {
          return channel("0 : " + m, 0);
        }
      }
      case 'T' -> {
        if (m.startsWith("Trees ")) {
          return trees(m);
        }
      }
      case 'c' -> {
        if (m.startsWith("cudaDriverVersion ")) {
          String v = new Cursor(m, 18).word();
          return v == null || !v.chars().allMatch(Character::isDigit) || v.length() > 7
              ? null
              : new NcclEvent.CudaDriver(Integer.parseInt(v));
        }
      }
      case 'N' -> {
        if (m.startsWith("NCCL version ")) {
          String v = new Cursor(m, 13).word();
          return v == null ? null : new NcclEvent.Version(v);
        }
        if (m.startsWith("NCCL_")) {
          return envSet(m);
        }
        if (m.startsWith("NET/")) {
          return net(m);
        }
        if (m.startsWith("NVLS Bind mem ") || m.startsWith("NVLS comm 0x")) {
          // transport/nvls.cc (2.17+): the NVLS buffers of a communicator being created and bound
          // to the multicast object, where init waits on every local rank and the fabric manager
          return NVLS_STAGE;
        }
        if (m.startsWith("NET : Using interface ")) {
          return iface(Interface.Role.SOCKET, m.substring(22));
        }
      }
      case 'U' -> {
        if (m.startsWith("Using network ")) {
          return new NcclEvent.Plugin(m.substring(14).strip(), Outcome.SELECTED);
        }
        if (m.startsWith("Using internal Network ")) {
          // NCCL 2.1-2.3's choice (init.cu): "Using internal Network IB", "... Socket"
          return new NcclEvent.Plugin(m.substring(23).strip(), Outcome.SELECTED);
        }
      }
      case 'B' -> {
        if (m.startsWith("Bootstrap timings total ")) {
          return bootstrapTimings(m);
        }
        if (m.startsWith("Bootstrap : Using ") || m.startsWith("Bootstrap: Using ")) {
          return iface(Interface.Role.BOOTSTRAP, m.substring(m.indexOf("Using ") + 6));
        }
      }
      case 'I' -> {
        if (m.startsWith("Init timings - ") || m.startsWith("Init timings: ")) {
          return initTimings(m);
        }
        if (m.startsWith("Initialized NET plugin ")) {
          return new NcclEvent.Plugin(m.substring(23).strip(), Outcome.INITIALIZED);
        }
      }
      case 'F' -> {
        if (m.startsWith("Failed to initialize NET plugin ")) {
          return new NcclEvent.Plugin(m.substring(32).strip(), Outcome.FAILED);
        }
        if (m.startsWith(WarningClassifier.NO_VERBS_LIBRARY)) {
          // misc/ibvwrap.cc and ibvsymbols.cc of later versions (INFO by 2.18; a WARN to 2.10): no
          // verbs library,
          // no IB/RoCE for this process; kept as a fact, no failure (kind OTHER)
          return new NcclEvent.Warning(
              NcclWarning.Kind.OTHER, m, null, WarningClassifier.noVerbsLibrary(m, false));
        }
      }
      case 'n' -> {
        // enqueue.cc of 2.25 at INFO level (a WARN before and after): "ncclMaxSharedMem 82240
        // exceeds device/fn maxSharedMem 79856", the kernels need more shared memory than the GPU
        if (m.startsWith("ncclMaxSharedMem ") && m.contains(" exceeds device/fn maxSharedMem")) {
          return new NcclEvent.Warning(NcclWarning.Kind.CUDA_ARCH, m, null);
        }
      }
      case 'S' -> {
        if (m.startsWith("Setting affinity for GPU ")) {
          // init.cc: the communicator's topology is known and its CPU affinity set
          return TOPOLOGY_STAGE;
        }
        if (m.startsWith("Successfully loaded external plugin ")) {
          return new NcclEvent.Plugin(m.substring(36).strip(), Outcome.LOADED);
        }
      }
      default -> {}
    }
    int comm = m.indexOf("comm 0x");
    if (comm >= 0 && (comm == 0 || m.startsWith("nccl"))) {
      return comm(m, comm);
    }
    return null;
  }

  /**
   * {@code NCCL_X set by environment to Y} (older versions end with a dot), and net_ib.cc's {@code
   * NCCL_IB_HCA set to Y} (the variable as the environment gave it).
   */
  private static NcclEvent envSet(String m) {
    int at = m.indexOf(" set by environment to ");
    int valueAt = at + 23;
    if (at < 0 && m.startsWith(IB_HCA_SET)) {
      at = IB_HCA_SET.length() - 8;
      valueAt = IB_HCA_SET.length();
    }
    if (at < 0) {
      return null;
    }
    String name = m.substring(0, at);
    String value = m.substring(valueAt).strip();
    if (value.endsWith(".")) {
      value = value.substring(0, value.length() - 1);
    }
    return new NcclEvent.EnvSet(name, value);
  }

  private static final String IB_HCA_SET = "NCCL_IB_HCA set to ";

  private static NcclEvent net(String m) {
    if (m.length() > 4 && Character.isDigit(m.charAt(4))) {
      // GRAPH path dump: "NET/0-0 :GPU/0-60 (3/1.2/PHB) ..."
      return NcclEvent.KNOWN;
    }
    if (m.startsWith("NET/Plugin")) {
      return plugin(m);
    }
    if (m.startsWith("NET/FastSocket")) {
      // google/nccl-fastsocket, GCP's TCP plugin (net_fastsocket.cc): its settings, interfaces and
      // one line per data socket it connects; only its init is a fact the model keeps
      return m.startsWith("NET/FastSocket plugin initialized")
          ? new NcclEvent.Plugin("FastSocket", Outcome.INITIALIZED)
          : NcclEvent.KNOWN;
    }
    if (m.startsWith("NET/OFI")) {
      return ofi(m);
    }
    if (m.startsWith("NET/IB")) {
      if (m.contains("No device found")) {
        return new NcclEvent.Plugin("IB", Outcome.NO_DEVICE);
      }
      if (m.contains("GPU Direct RDMA")) {
        return gdr("IB", m);
      }
      int using = m.indexOf(": Using ");
      if (using > 0) {
        String rest = m.substring(using + 8);
        int oob = rest.indexOf("OOB ");
        if (oob >= 0) {
          return iface(Interface.Role.OOB, rest.substring(oob + 4));
        }
      }
      return null;
    }
    if (m.startsWith("NET/Socket")) {
      if (m.contains("GPU Direct RDMA")) {
        return gdr("Socket", m);
      }
      int using = m.indexOf(": Using ");
      if (using > 0) {
        return iface(Interface.Role.SOCKET, m.substring(using + 8));
      }
      return null;
    }
    return null;
  }

  private static NcclEvent plugin(String m) {
    if (m.contains("Plugin name set by env to ")) {
      return new NcclEvent.Plugin(m.substring(m.indexOf(" to ") + 4).strip(), Outcome.REQUESTED);
    }
    int loaded = m.indexOf("Loaded net plugin ");
    if (loaded >= 0) {
      String name = m.substring(loaded + 18).strip();
      int paren = name.lastIndexOf(" (");
      return new NcclEvent.Plugin(paren > 0 ? name.substring(0, paren) : name, Outcome.LOADED);
    }
    // NCCL prints dlopen's reason: "dlerror=REASON No plugin found (LIB), ..." (2.4-2.11), "Plugin
    // load
    // (LIB) returned N : REASON" (2.12-2.18), "Plugin load returned N : REASON : when loading LIB"
    // (2.19+). Only "No such file or directory" says the library is absent; any other reason (a
    // symbol or a library version not found, a wrong ELF class) says it is there and did not load.
    if ((m.contains("dlerror=") || m.contains("Plugin load"))
        && !m.contains("No such file or directory")) {
      return new NcclEvent.Plugin(loadedFile(m), Outcome.FAILED);
    }
    if (m.contains("Could not find:") || m.contains("No plugin found")) {
      return new NcclEvent.Plugin(pluginFile(m), Outcome.NOT_FOUND);
    }
    if (m.contains("Failed to find ncclCollNetPlugin")
        || m.contains("Failed to find ncclNetPlugin")) {
      return NcclEvent.KNOWN;
    }
    return null;
  }

  /** The plugin library a failed load names ({@code (LIB)} or {@code when loading LIB}). */
  private static String loadedFile(String m) {
    for (String before : List.of("No plugin found (", "Plugin load (")) {
      int at = m.indexOf(before);
      int close = at < 0 ? -1 : m.indexOf(')', at);
      if (close > 0) {
        return m.substring(at + before.length(), close);
      }
    }
    int when = m.lastIndexOf("when loading ");
    if (when >= 0) {
      return m.substring(when + 13).strip();
    }
    return "libnccl-net.so";
  }

  private static String pluginFile(String m) {
    int so = m.indexOf(".so");
    if (so < 0) {
      return "libnccl-net.so";
    }
    int start = so;
    while (start > 0
        && m.charAt(start - 1) != ' '
        && m.charAt(start - 1) != '('
        && m.charAt(start - 1) != '=') {
      start--;
    }
    return m.substring(start, so + 3);
  }

  /** aws-ofi-nccl's lines: only outcome lines become events; the rest are known. */
  private static NcclEvent ofi(String m) {
    if (m.contains("No eligible providers")
        || m.contains("Unable to find a protocol that worked")) {
      return new NcclEvent.Plugin("OFI", Outcome.NO_DEVICE);
    }
    if (m.contains("initialization failed") || m.contains("Initializing plugin failed")) {
      return new NcclEvent.Plugin("OFI", Outcome.FAILED);
    }
    int selected = m.indexOf("elected Provider is ");
    if (selected < 0) {
      selected = m.indexOf("elected provider is ");
    }
    if (selected > 0) {
      String provider = new Cursor(m, selected + 20).word();
      NcclEvent.Plugin initialized =
          new NcclEvent.Plugin("OFI", Outcome.INITIALIZED, providerName(provider));
      if (provider != null
          && (provider.startsWith("tcp")
              || provider.startsWith("sockets")
              || provider.startsWith("udp"))) {
        // libfabric found no EFA device: a fact worth a finding, kept as a warning
        return new NcclEvent.Warning(
            NcclWarning.Kind.NET_PLUGIN, m, initialized, OfiFailures.read(m));
      }
      return initialized;
    }
    if (m.contains("GPU Direct RDMA") || m.contains("GPUDirect RDMA")) {
      return gdr("OFI", m);
    }
    return NcclEvent.KNOWN;
  }

  /**
   * The provider's name in {@code Selected Provider is X}: {@code efa;ofi_rxr} (libfabric 1.1x's
   * layered name), {@code cxi,} ({@code , fabric is cxi}), {@code efa} (1.x, end of line).
   */
  private static String providerName(String word) {
    if (word == null) {
      return null;
    }
    int end = 0;
    while (end < word.length()
        && (Character.isLetterOrDigit(word.charAt(end)) || word.charAt(end) == '_')) {
      end++;
    }
    return end == 0 ? null : word.substring(0, end).toLowerCase(java.util.Locale.ROOT);
  }

  private static NcclEvent gdr(String transport, String m) {
    boolean enabled = m.contains("Enabled") || m.contains("enabled") && !m.contains("not enabled");
    String hca = "";
    int q = m.indexOf('\'');
    if (q >= 0) {
      int end = m.indexOf('\'', q + 1);
      if (end > q) {
        hca = m.substring(q + 1, end);
      }
    }
    return new NcclEvent.Gdr(transport, hca, enabled && !m.contains("Disabled"));
  }

  /** {@code eth0:10.0.4.51<0>} or {@code [0]eth0:10.0.4.51<0> [1]eth1:...}: every one listed. */
  private static NcclEvent iface(Interface.Role role, String text) {
    List<NcclEvent.Iface.Named> named = new ArrayList<>(2);
    for (String part : text.strip().split(" ")) {
      String t = part;
      if (t.startsWith("[")) {
        int close = t.indexOf(']');
        if (close < 0) {
          break;
        }
        t = t.substring(close + 1);
      } else if (!named.isEmpty()) {
        break;
      }
      int colon = t.indexOf(':');
      if (colon <= 0) {
        break;
      }
      String address = t.substring(colon + 1);
      int lt = address.lastIndexOf('<');
      if (lt > 0) {
        address = address.substring(0, lt);
      }
      named.add(new NcclEvent.Iface.Named(t.substring(0, colon), address));
    }
    return named.isEmpty() ? null : new NcclEvent.Iface(role, List.copyOf(named));
  }

  private static NcclEvent bootstrapTimings(String m) {
    Cursor c = new Cursor(m, 24);
    double total = c.decimal();
    double recv = Double.NaN;
    int at = m.indexOf("recv ");
    if (at > 0) {
      recv = new Cursor(m, at + 5).decimal();
    }
    return Double.isNaN(total) ? null : new NcclEvent.BootstrapTimings(total, recv);
  }

  /**
   * {@code Init timings - ncclCommInitRankConfig: rank 0 nranks 4 total 59.98 (..., bootstrap
   * 59.83, ...)}.
   */
  private static NcclEvent initTimings(String m) {
    int rankAt = m.indexOf(" rank ");
    int nranksAt = m.indexOf(" nranks ");
    int totalAt = m.indexOf(" total ");
    if (rankAt < 0 || nranksAt < 0 || totalAt < 0) {
      return null;
    }
    int rank = (int) new Cursor(m, rankAt + 6).integer();
    int nranks = (int) new Cursor(m, nranksAt + 8).integer();
    double total = new Cursor(m, totalAt + 7).decimal();
    int bootAt = m.indexOf("bootstrap ");
    double boot = bootAt > 0 ? new Cursor(m, bootAt + 10).decimal() : Double.NaN;
    return new NcclEvent.InitTimings(rank, nranks, total, boot);
  }

  /**
   * {@code Channel 00/24 : 0 1 2 3}, {@code Channel 00 : 0[0] -> 1[1] via P2P/IPC}, {@code Channel
   * 00/0 : 3[0] -> 0[0] [receive] via NET/Socket/0}, {@code Ring 00 : 0 1 2 3}, {@code Ring 00 : 3
   * -> 0 [receive] via NET/IB/0}. {@code Ring 00 : 1 -> 2 -> 3} (a GRAPH trace) is known but kept
   * out.
   */
  private static NcclEvent channel(String m, int start) {
    Cursor c = new Cursor(m, start);
    c.skipSpaces();
    long channel = c.integer();
    if (channel < 0) {
      return null;
    }
    if (c.skip('/')) {
      c.integer();
    }
    c.skipSpaces();
    if (!c.skip(':')) {
      return null;
    }
    c.skipSpaces();
    int via = m.indexOf(" via ", c.pos());
    if (via < 0) {
      if (m.indexOf("->", c.pos()) >= 0) {
        return NcclEvent.KNOWN;
      }
      List<Integer> ranks = new ArrayList<>();
      while (!c.atEnd()) {
        long r = c.integer();
        if (r == Long.MIN_VALUE) {
          return null;
        }
        ranks.add((int) r);
        c.skipSpaces();
      }
      return ranks.isEmpty() ? null : new NcclEvent.RingOrder((int) channel, ranks);
    }
    long from = c.integer();
    if (from == Long.MIN_VALUE) {
      return null;
    }
    String fromTag = tag(c);
    c.skipSpaces();
    if (!c.skip("->")) {
      return null;
    }
    c.skipSpaces();
    long to = c.integer();
    if (to == Long.MIN_VALUE) {
      return null;
    }
    String toTag = tag(c);
    c.skipSpaces();
    Direction direction = Direction.NONE;
    if (c.skip("[send]")) {
      direction = Direction.SEND;
    } else if (c.skip("[receive]")) {
      direction = Direction.RECEIVE;
    }
    c.skipSpaces();
    if (c.pos() != via + 1) {
      return null;
    }
    String detail = m.substring(via + 5);
    String commPtr = null;
    int comm = detail.indexOf(" comm 0x");
    if (comm >= 0) {
      commPtr = new Cursor(detail, comm + 6).word();
      detail = detail.substring(0, comm);
    }
    return new NcclEvent.Connection(
        asInt(channel),
        asInt(from),
        fromTag,
        asInt(to),
        toTag,
        direction,
        PathParser.shared(detail),
        commPtr);
  }

  /** The value, or -1 where it does not fit an int (the assembler counts such a line malformed). */
  private static int asInt(long v) {
    return v < Integer.MIN_VALUE || v > Integer.MAX_VALUE ? -1 : (int) v;
  }

  private static String tag(Cursor c) {
    if (!c.skip('[')) {
      return null;
    }
    return c.until(']');
  }

  /**
   * {@code Connected all rings, use ring PXN 0 GDR 0}, {@code Connected all trees}, {@code
   * Connected NVLS}.
   */
  private static NcclEvent connected(String m) {
    String what = m.substring(10);
    int comma = what.indexOf(',');
    if (comma >= 0) {
      what = what.substring(0, comma);
    }
    Boolean pxn = flag(m, "PXN ");
    Boolean gdr = flag(m, "GDR ");
    return new NcclEvent.Connected(what.strip(), pxn, gdr);
  }

  private static Boolean flag(String m, String name) {
    int at = m.indexOf(name);
    if (at < 0) {
      return null;
    }
    long v = new Cursor(m, at + name.length()).integer();
    return v == Long.MIN_VALUE ? null : v != 0;
  }

  /**
   * {@code Trees [0] 2/-1/-1->0->-1 [1] -1/-1/-1->0->1} (children->rank->parent, NCCL 2.7+) or the
   * older {@code Trees [0] -1->0->1/-1/-1} (parent->rank->children). Each channel becomes {@code
   * [parent, child0, child1, child2]}.
   */
  private static NcclEvent trees(String m) {
    NcclEvent fast = TreeLine.read(m);
    return fast != null ? fast : treesSlowly(m);
  }

  /** {@link #trees} for any text: what {@link TreeLine} does not read plainly comes here. */
  static NcclEvent treesSlowly(String m) {
    TreeLine.Channels channels = new TreeLine.Channels();
    int i = m.indexOf('[');
    while (i >= 0) {
      int close = m.indexOf(']', i);
      if (close < 0) {
        return null;
      }
      int next = m.indexOf('[', close);
      String body = m.substring(close + 1, next < 0 ? m.length() : next).strip();
      String[] parts = arrows(body);
      if (parts == null) {
        return null;
      }
      int r = Integer.parseInt(parts[1].strip());
      String left = parts[0].strip();
      String right = parts[2].strip();
      int[] entry;
      if (left.contains("/") || !right.contains("/")) {
        entry = treeEntry(right, left);
      } else {
        entry = treeEntry(left, right);
      }
      if (!channels.add(r, entry)) {
        return null;
      }
      i = next;
    }
    return channels.event();
  }

  /**
   * The three parts of {@code a->b->c}, as {@code body.split("->")} gives them (trailing empty
   * parts dropped), or null where that gives other than three; without the regular expression that
   * {@code split} compiles for a separator of two characters on every call (a tree line per rank
   * and channel).
   */
  static String[] arrows(String body) {
    int first = body.indexOf("->");
    int second = first < 0 ? -1 : body.indexOf("->", first + 2);
    if (second < 0) {
      return null;
    }
    int end = body.length();
    int third = body.indexOf("->", second + 2);
    if (third >= 0) {
      // more arrows: three parts only where everything after the third arrow is arrows
      for (int at = third; at < end; at += 2) {
        if (!body.startsWith("->", at)) {
          return null;
        }
      }
      end = third;
    }
    if (second + 2 == end) {
      return null; // "a->b->", "a->b->->": split drops the empty third part with those after it
    }
    return new String[] {
      body.substring(0, first), body.substring(first + 2, second), body.substring(second + 2, end)
    };
  }

  private static int[] treeEntry(String parent, String children) {
    String[] kids = children.split("/");
    int[] entry = new int[1 + kids.length];
    entry[0] = Integer.parseInt(parent.strip());
    for (int k = 0; k < kids.length; k++) {
      entry[k + 1] = Integer.parseInt(kids[k].strip());
    }
    return entry;
  }

  /**
   * Communicator lifecycle lines, from the key/value pairs after {@code comm 0x..}: {@code rank},
   * {@code nranks}/{@code nRanks}, {@code nNodes}, {@code localRanks}, {@code cudaDev}, {@code
   * nvmlDev}, {@code busId}, {@code commId}, {@code parent}; the phase from the tail.
   */
  private static NcclEvent comm(String m, int commAt) {
    String api = commAt == 0 ? "" : m.substring(0, commAt).strip();
    Cursor c = new Cursor(m, commAt + 5);
    String ptr = c.word();
    int rank = -1;
    int nRanks = -1;
    int cudaDev = -1;
    int nvmlDev = -1;
    int nNodes = -1;
    int localRanks = -1;
    String busId = null;
    String commId = null;
    String parent = null;
    while (!c.atEnd()) {
      c.skipSpaces();
      String key = c.word();
      if (key == null || key.startsWith("-")) {
        break;
      }
      c.skipSpaces();
      String value = c.word();
      if (value == null) {
        break;
      }
      if (value.endsWith("-")) {
        value = value.substring(0, value.length() - 1);
      }
      switch (key) {
        case "rank" -> rank = Integer.parseInt(value);
        case "nranks", "nRanks" -> nRanks = Integer.parseInt(value);
        case "cudaDev" -> cudaDev = Integer.parseInt(value);
        case "nvmlDev" -> nvmlDev = Integer.parseInt(value);
        case "nNodes" -> nNodes = Integer.parseInt(value);
        case "localRanks" -> localRanks = Integer.parseInt(value);
        case "busId" -> busId = value;
        case "commId" -> commId = value;
        case "parent" -> parent = value;
        default -> {}
      }
    }
    NcclEvent.Phase phase;
    if (m.endsWith("Init START")) {
      phase = NcclEvent.Phase.START;
    } else if (m.endsWith("Init COMPLETE")) {
      phase = NcclEvent.Phase.COMPLETE;
    } else if (m.contains("Destroy COMPLETE") || m.contains("Abort COMPLETE")) {
      phase = NcclEvent.Phase.DESTROY;
    } else if (nNodes >= 0 || localRanks >= 0) {
      phase = NcclEvent.Phase.INFO;
    } else {
      return null;
    }
    if (ptr == null || rank < 0) {
      return null;
    }
    return new NcclEvent.Comm(
        phase, api, ptr, rank, nRanks, cudaDev, nvmlDev, busId, commId, parent, nNodes, localRanks);
  }
}
