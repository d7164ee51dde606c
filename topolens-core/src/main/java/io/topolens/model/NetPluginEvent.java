package io.topolens.model;

/**
 * A step in loading or choosing a network plugin, as one process printed it.
 *
 * @param process host:pid of the process
 * @param plugin the plugin's name (Socket, IB, Libfabric, AWS Libfabric, an .so file name...)
 * @param outcome what happened
 * @param provider the libfabric provider aws-ofi-nccl selected ({@code efa}, {@code cxi}, {@code
 *     tcp}...), as its {@code Selected Provider is X} line names it; null for other lines
 */
public record NetPluginEvent(
    String process, String plugin, Outcome outcome, Evidence evidence, String provider) {

  public NetPluginEvent(String process, String plugin, Outcome outcome, Evidence evidence) {
    this(process, plugin, outcome, evidence, null);
  }

  /** The libfabric provider of AWS's EFA (aws-ofi-nccl's own platform). */
  public static final String EFA = "efa";

  /** What a plugin line says happened. */
  public enum Outcome {
    /** An external plugin library was requested (NCCL_NET_PLUGIN) or searched for. */
    REQUESTED,
    /** The library was not found; NCCL uses its internal transports. */
    NOT_FOUND,
    /** The library was loaded. */
    LOADED,
    /** The plugin initialised. */
    INITIALIZED,
    /** The plugin found no usable device (NET/IB : No device found; OFI: no eligible providers). */
    NO_DEVICE,
    /** The plugin failed to initialise. */
    FAILED,
    /** NCCL chose this network for a communicator ({@code Using network X}). */
    SELECTED
  }
}
