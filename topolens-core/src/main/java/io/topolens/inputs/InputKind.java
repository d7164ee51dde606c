package io.topolens.inputs;

/** What an input file is, told by its content. */
public enum InputKind {
  /** NCCL debug output (or any log with NCCL lines). */
  NCCL_LOG("NCCL log"),
  /** nvidia-smi output: topo -m, topo -p2p, nvlink, the banner table. */
  NVIDIA_SMI("nvidia-smi output"),
  /** NCCL_TOPO_DUMP_FILE XML. */
  NCCL_TOPOLOGY_XML("NCCL topology dump"),
  /** NCCL_GRAPH_DUMP_FILE XML. */
  NCCL_GRAPH_XML("NCCL graph dump"),
  /** nccl-tests output, text or JSON (-J); its NCCL lines are read as a log too. */
  NCCL_TESTS("nccl-tests output");

  private final String label;

  InputKind(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
