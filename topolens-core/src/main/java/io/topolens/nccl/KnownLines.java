package io.topolens.nccl;

import java.util.List;
import java.util.regex.Pattern;

/**
 * NCCL INFO lines whose form is known and whose content the model does not keep (proxy threads,
 * tuning tables, topology search traces, per-call COLL traces...). A line that neither a parser nor
 * this list recognises is reported as unrecognized.
 */
final class KnownLines {
  private KnownLines() {}

  static final List<String> PREFIXES =
      List.of(
          "[Proxy ",
          "threadThresholds",
          "P2P Chunksize",
          "CC Off",
          "CC On",
          "PROFILER/Plugin",
          "TUNER/Plugin",
          "ENV/Plugin",
          "GIN/Plugin",
          "RAS/Plugin",
          "NET/Plugin",
          "NET/OFI",
          "NET/IB",
          "NET/Socket",
          "MNNVL",
          "Setting affinity",
          "ncclTopoGetCpuAffinity",
          "Check P2P Type",
          "RAS ",
          "Comm config",
          "cudaDriverVersion",
          "Connected to proxy",
          "UDS ",
          "Imported shareable buffer",
          "Allocated shareable buffer",
          "New proxy",
          "Ring ",
          "Tree ",
          "Trees ",
          "Pattern ",
          "=== System",
          "====",
          "CPU/",
          "GPU/",
          "NIC/",
          "NVS/",
          "PCI/",
          "+ ",
          "Topology detection",
          "ncclTopo",
          "TOPO/",
          "Could not get speed",
          "Could not find real path",
          "dlvsym failed",
          "Enabled NCCL Func/Proto/Algo Matrix",
          "Algorithm",
          "Protocol",
          "Max NThreads",
          "ncclP2pSchedule",
          "Using internal",
          "Using non-device net plugin",
          "Launch mode",
          "CUDA Dev ",
          "Assigned NET plugin",
          "Initialized NET plugin",
          "Failed to initialize NET plugin",
          "Successfully loaded external plugin",
          "Plugin Path",
          "Plugin name set by env",
          "Loaded net plugin",
          "Loaded coll plugin",
          "Could not find:",
          "Memory pool",
          "MSCCL",
          "NVLS ",
          "NVLS multicast support",
          "CollNet",
          "Collnet",
          "coll channels",
          "Symmetric",
          "GDR ",
          "DMA-BUF",
          "DMABUF",
          "Graph ",
          "Ignoring",
          "AllReduce:",
          "AllGather:",
          "ReduceScatter:",
          "Broadcast:",
          "Reduce:",
          "Send:",
          "Recv:",
          "AllToAll:",
          "AlltoAll:",
          "Gather:",
          "Scatter:",
          "SendRecv:",
          "PXN",
          "Threads per block",
          "Assigned GIN plugin",
          "Assigned RMA plugin",
          "P2P plugin",
          "rank ",
          "cudaMalloc",
          "Mem Realloc",
          "MemManager",
          "Duplicate GPU",
          "Bootstrap :",
          "Bootstrap:",
          "NCCL_",
          "NET/Plugin :",
          // google/nccl-fastsocket's flow placement (net_fastsocket.cc): each data socket's queue
          // and CPU as it connects or accepts, its thread counts, its byte counts at close
          "connect qid: ",
          "accept qid: ",
          "connect incoming cpu: ",
          "accept incoming cpu: ",
          "Flow placement forcing parameters",
          "All bytes: ",
          "Average throughput: ",
          "This training job might be network bound");

  /**
   * {@link #PREFIXES} by their first character (all ASCII), so a line is compared with the few that
   * can match it rather than with a hundred: the COLL-trace-heavy logs send about one line in ten
   * here.
   */
  private static final String[][] BY_FIRST = byFirst();

  private static final Pattern NCCL_VARIABLE = Pattern.compile("NCCL_[A-Z0-9_]+ .*");

  private static String[][] byFirst() {
    String[][] by = new String[128][];
    for (int c = 0; c < by.length; c++) {
      char first = (char) c;
      by[c] = PREFIXES.stream().filter(p -> p.charAt(0) == first).toArray(String[]::new);
    }
    for (String p : PREFIXES) {
      if (p.charAt(0) >= by.length) {
        throw new IllegalStateException("a known line's prefix starts beyond ASCII: " + p);
      }
    }
    return by;
  }

  static boolean isKnown(String message) {
    if (message.isEmpty()) {
      return true;
    }
    char c0 = message.charAt(0);
    if (c0 < BY_FIRST.length) {
      for (String prefix : BY_FIRST[c0]) {
        if (message.startsWith(prefix)) {
          return true;
        }
      }
    }
    // NCCL source location first: "init.cc:1798 Cuda Host Alloc Size 4 pointer 0x..."
    int colon = message.indexOf(':');
    int space = message.indexOf(' ');
    if (colon > 0
        && (space < 0 || colon < space)
        && (message.startsWith(".cc", colon - 3) || message.startsWith(".h", colon - 2))) {
      return true;
    }
    // tuning tables ("    AllReduce |  ...") and topology dump rows ("  0 : GPU/0-60 GPU/0-70")
    if (message.indexOf('|') >= 0) {
      return true;
    }
    char first = message.charAt(0);
    if (Character.isDigit(first)
        && (message.contains(" coll channels")
            || message.contains(" : GPU/")
            || message.contains(" : NET/")
            || message.contains(" : NVS/"))) {
      return true;
    }
    return NCCL_VARIABLE.matcher(message).matches();
  }
}
