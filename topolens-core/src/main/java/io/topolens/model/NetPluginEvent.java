package io.topolens.model;

/**
 * A step in loading or choosing a network plugin, as one process printed it.
 *
 * @param process host:pid of the process
 * @param plugin the plugin's name (Socket, IB, Libfabric, AWS Libfabric, an .so file name...)
 * @param outcome what happened
 */
public record NetPluginEvent(String process, String plugin, Outcome outcome, Evidence evidence) {

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
