package io.topolens.nccl;

import java.util.List;

/**
 * NCCL INFO lines whose form is known and whose content the model does not keep (proxy threads,
 * tuning tables, topology search traces, per-call COLL traces...). A line that neither a parser nor
 * this list recognises is reported as unrecognized.
 */
final class KnownLines {
  private KnownLines() {}

  private static final List<String> PREFIXES =
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
          "NET/Plugin :");

  static boolean isKnown(String message) {
    if (message.isEmpty()) {
      return true;
    }
    for (String prefix : PREFIXES) {
      if (message.startsWith(prefix)) {
        return true;
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
    return message.matches("NCCL_[A-Z0-9_]+ .*");
  }
}
