package io.topolens.model;

/**
 * How far one process's NCCL lines go: the init stage of the last line it printed that shows one (a
 * process stops there when it hangs, and an excerpt ends there when it was cut).
 *
 * @param process host:pid
 * @param stage the stage of that line
 * @param last the line
 */
public record Progress(String process, Stage stage, Evidence last) {

  /** NCCL's init stages in the order it goes through them, as its INFO lines show them. */
  public enum Stage {
    /**
     * Before any communicator: the version, bootstrap and socket interfaces, the network chosen.
     */
    BOOTSTRAP("bootstrap and network selection"),
    /** A communicator started: Init START, topology, affinity, rings and trees computed. */
    TOPOLOGY("topology and channel search"),
    /** Channels being connected over P2P (CUDA IPC, NVLink or PCIe peer memory). */
    CONNECT_P2P("channel setup over P2P"),
    /** Channels being connected over SHM (host shared memory). */
    CONNECT_SHM("channel setup over SHM"),
    /** Channels being connected over the network (IB/RoCE, sockets, a plugin). */
    CONNECT_NET("channel setup over the network"),
    /** NVLink SHARP buffers being created and bound to the multicast object. */
    NVLS("NVLS (NVLink SHARP) buffer binding"),
    /** {@code Connected all rings/trees}: transports up, init finishing. */
    CONNECTED("the end of init (all channels connected)"),
    /** {@code Init COMPLETE} (or a communicator destroyed): the process finished init. */
    COMPLETE("init complete");

    private final String words;

    Stage(String words) {
      this.words = words;
    }

    /** The stage in a few plain words. */
    public String words() {
      return words;
    }
  }
}
