package io.topolens.model;

/**
 * A WARN line, or an INFO line that reports a failure, with the kind the reader recognised.
 *
 * @param process host:pid
 * @param kind what the message is about
 * @param message the text after {@code NCCL WARN}/{@code NCCL INFO}
 * @param count how many lines said the same (numbers aside)
 * @param processes how many processes said it
 * @param detail what the first line names beyond its kind, read by the reader, or null
 * @param ncclWarn whether the first line is NCCL's own WARN line ({@code NCCL WARN} in it), as the
 *     reader read it, not a framework's or a launcher's line
 */
public record NcclWarning(
    String process,
    Kind kind,
    String message,
    long count,
    int processes,
    Evidence evidence,
    Detail detail,
    boolean ncclWarn) {

  /** A warning whose first line is not NCCL's own WARN line. */
  public NcclWarning(
      String process,
      Kind kind,
      String message,
      long count,
      int processes,
      Evidence evidence,
      Detail detail) {
    this(process, kind, message, count, processes, evidence, detail, false);
  }

  /** What a line of some kinds names beyond its kind, so rules judge it without reading text. */
  public sealed interface Detail {

    /**
     * NCCL found no verbs library ({@link Kind#OTHER}: {@code Failed to open libibverbs.so[.1]},
     * ibvwrap.cu/.cc of NCCL 2.1-2.10 as a WARN, misc/ibvwrap.cc and misc/ibvsymbols.cc of later
     * versions (2.18.3 on, at least) as an INFO line): the process has no IB/RoCE transport (NCCL's
     * IB, and the IB-based plugins) and goes on with what else it has, sockets between nodes.
     *
     * @param warned whether NCCL printed it as a WARN (2.1-2.10), not as the INFO line of later
     *     versions
     */
    record NoVerbsLibrary(boolean warned) implements Detail {}

    /**
     * The signal torchrun's agent got ({@link Kind#CANCELLED}): its number as written ({@code got
     * signal: 15}), or the number of SIGHUP, SIGINT and SIGTERM where Python printed the name
     * ({@code Received Signals.SIGTERM death signal}); other names as written. Text, as a number
     * past what an int holds is a malformed line's, not a failure to read it.
     */
    record Signal(String signal) implements Detail {}

    /**
     * Which of MPI's transports failed ({@link Kind#MPI_TRANSPORT}): Open MPI's own TCP transport
     * (btl tcp, {@code btl_tcp_endpoint.c}) when {@code btlTcp}, else UCX (pml ucx).
     */
    record MpiTransport(boolean btlTcp) implements Detail {}

    /**
     * The store's bind failure ({@link Kind#PORT_IN_USE}): whether the line names its errno ({@code
     * Address already in use}, {@code EADDRINUSE}) or quotes c10d without it ({@code The server
     * socket has failed to listen on any local network address.}).
     */
    record PortInUse(boolean errnoNamed) implements Detail {}

    /**
     * A process that died of SIGBUS ({@link Kind#SHM}), as a runtime or launcher prints it: {@code
     * Bus error}, {@code Signal 7 (SIGBUS)}, {@code <Signals.SIGBUS: 7>}, {@code exitcode: -7}.
     */
    record BusError() implements Detail {}

    /**
     * Which of the socket reports that are no failure of their own a line is ({@link Kind#SOCKET}).
     */
    record SocketReport(SocketSource source) implements Detail {}

    /**
     * NCCL's root check refusing a call ({@link Kind#ARGUMENT}: argcheck.cc's {@code Reduce :
     * invalid root 8 (root should be in the 0..7 range)}). argcheck.cc prints the communicator's
     * rank count ({@code comm->nRanks}) as the range's top, so 0 names a communicator whose init
     * had not run and -1 one that was freed (init.cc's commPoison).
     *
     * @param root the root the call passed
     * @param top the range's top as printed
     */
    record InvalidRoot(int root, int top) implements Detail {}

    /**
     * NCCL's pointer check refusing a NULL argument ({@link Kind#ARGUMENT}: argcheck.cc's {@code
     * AllReduce : comm argument is NULL}).
     *
     * @param call the call as printed ({@code AllReduce})
     * @param argument the argument as printed ({@code comm}, {@code sendbuff})
     */
    record NullArgument(String call, String argument) implements Detail {

      /** Whether the argument is the communicator: the call had no communicator at all. */
      public boolean communicator() {
        return argument.equals("comm");
      }
    }

    /**
     * What the peer answered a TCP connect with, as a socket failure line names it ({@link
     * Kind#SOCKET}: {@code Call to connect returned Connection refused, retrying}, {@code Connect
     * to 10.0.0.2<43567> failed : Connection timed out}, {@code Call to connect timeout :
     * Connection refused}).
     *
     * @param errno ECONNREFUSED (111) or ETIMEDOUT (110), as the line's error text stands for
     */
    record ConnectError(int errno) implements Detail {

      /** ETIMEDOUT: no answer; packets were dropped on the way. */
      public static final int TIMED_OUT = 110;

      /** ECONNREFUSED: the peer's host answered that nothing listened on the port. */
      public static final int REFUSED = 111;

      /** Whether the peer's host refused the connection. */
      public boolean refused() {
        return errno == REFUSED;
      }

      /** Whether the connection got no answer. */
      public boolean timedOut() {
        return errno == TIMED_OUT;
      }
    }

    /**
     * The exception C++'s terminate names ({@link Kind#ABORTED}: {@code terminate called after
     * throwing an instance of 'c10::DistBackendError'}).
     */
    record Thrown(String type) implements Detail {

      /** What PyTorch's watchdog throws on a timeout or an NCCL error (torch 2.2 on). */
      public static final String WATCHDOG = "c10::DistBackendError";

      /** Whether it is the watchdog's exception. */
      public boolean watchdog() {
        return type.equals(WATCHDOG);
      }
    }

    /**
     * The variable env:// rendezvous found unset ({@link Kind#RENDEZVOUS_ENV}: {@code environment
     * variable MASTER_ADDR expected, but not set}).
     */
    record EnvNotSet(String variable) implements Detail {}

    /**
     * A tcp:// or file:// rendezvous given no rank or world size ({@link Kind#RENDEZVOUS_ENV}:
     * {@code using tcp:// rendezvous: rank parameter missing}).
     *
     * @param scheme {@code tcp://} or {@code file://}, as printed
     * @param rank true for the rank, false for the world size
     */
    record ParameterMissing(String scheme, boolean rank) implements Detail {}

    /**
     * A model-parallel framework's process group used before its initialize_model_parallel made it
     * ({@link Kind#NO_PROCESS_GROUP}: Megatron-LM's, NeMo's and vLLM's {@code AssertionError:
     * tensor model parallel group is not initialized}).
     *
     * @param group the group as the assertion names it ({@code pipeline_model parallel group})
     */
    record ModelParallelGroup(String group) implements Detail {}

    /**
     * A multi-node launch given no rendezvous address ({@link Kind#RENDEZVOUS_ENV}): torchrun's
     * endpoint without a host or port ({@code The port number of the rendezvous endpoint
     * 'None:None' must be an integer}), accelerate's check of its options ({@code When using
     * multiple machines, you need to specify the main process IP.}).
     *
     * @param named what the line says is missing, as printed: the endpoint ({@code None:None}) or
     *     accelerate's words ({@code main process IP}, {@code main process port})
     */
    record EndpointNotGiven(String named) implements Detail {}

    /**
     * The fabric manager refusing the loaded driver ({@link Kind#NVLS}: {@code fabric manager
     * NVIDIA GPU driver interface version 550.90.07 don't match with driver version 550.54.15}).
     *
     * @param fabricManager the version the fabric manager was built for, as printed
     * @param driver the loaded driver's version, as printed
     * @param branch the loaded driver's branch, its version's first number ({@code 550}), as the
     *     fabric manager's package names it ({@code nvidia-fabricmanager-550})
     */
    record FabricManagerVersion(String fabricManager, String driver, String branch)
        implements Detail {}

    /**
     * The fabric manager failing to start ({@link Kind#NVLS}), in its journal or its service's:
     * {@code request to query NVSwitch device information from NVSwitch driver failed with
     * error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]}, {@code nvidia-fabricmanager.service:
     * Control process exited, code=exited, status=1/FAILURE}, or CUDA 802 named beside it.
     *
     * @param driverError whether the NVSwitch driver answered the fabric manager's query with an
     *     error ({@code failed with error:}); false where the line names only the service's exit
     * @param noSwitch whether that error is {@code NV_WARN_NOTHING_TO_DO}: the NVSwitch driver
     *     found no NVSwitch
     */
    record FabricManagerDown(boolean driverError, boolean noSwitch) implements Detail {}

    /**
     * The dynamic loader refusing a library before NCCL prints anything ({@link
     * Kind#LOADER_REFUSED}; one it did not find is {@link Kind#NCCL_NOT_BUILT}'s for libnccl,
     * {@link Kind#DRIVER_LIBRARY}'s for libcuda and libnvidia-ml): {@code error while loading
     * shared libraries: libnccl.so.2: failed to map segment from shared object: Operation not
     * permitted}, {@code libcuda.so.1: cannot open shared object file: No such file or directory},
     * {@code wrong ELF class: ELFCLASS32}, {@code undefined symbol: X}, {@code version `GLIBC_2.34'
     * not found (required by libnccl.so.2)}.
     *
     * @param library the library as the loader names it ({@code libnccl.so.2})
     * @param reason why the loader refused it
     * @param what the symbol or version the loader did not find, or null
     */
    record LoaderFailure(String library, LoaderReason reason, String what) implements Detail {}

    /**
     * A setting a network plugin's configuration checker refused or would change ({@link
     * Kind#ENV_CHECKED}).
     *
     * @param variable the NCCL_* variable as printed
     * @param value the value the job set
     * @param expected the value the checker expects
     * @param enforced true where the checker enforces it (the workload ends), false where it only
     *     recommends it
     */
    record CheckedSetting(String variable, String value, String expected, boolean enforced)
        implements Detail {}

    /**
     * An NCCL_* setting NCCL refused and failed on ({@link Kind#ENV_REFUSED}): a value out of the
     * range NCCL checks ({@code NET/IB: NCCL_IB_SUBNET_PREFIX_LEN=40 is out of range [1,32]}), or a
     * feature forced on that the device or the peer cannot give ({@code NET/IB: OOO RQ is force
     * enabled but AR is not enabled, which is required for OOO RQ (device=mlx5_0)}).
     *
     * @param variable the NCCL_* variable the message names or stands for
     * @param value the value as printed, or null where the message names none (a feature forced on)
     * @param device the device the message names, or null
     * @param range the range NCCL states ({@code [1,32]}), or null
     */
    record RefusedSetting(String variable, String value, String device, String range)
        implements Detail {}

    /**
     * The two ranks NCCL's duplicate-GPU check found on one device ({@link Kind#DUPLICATE_GPU}:
     * {@code Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1b000}, also quoted
     * without its first words).
     *
     * @param rank the first rank named
     * @param other the second rank named
     * @param device the device's bus id as printed ({@code 1b000})
     */
    record SameDevice(int rank, int other, String device) implements Detail {}

    /**
     * A verbs call NCCL's IB wrapper (ibvwrap) or an IB net plugin reports failed ({@link Kind#IB},
     * {@link Kind#LOCKED_MEMORY}): {@code Call to ibv_reg_mr failed with error Cannot allocate
     * memory}, {@code Call to ibv_modify_qp failed with 110 Connection timed out}, and the older
     * plugins' {@code Call to ibv_reg_mr failed} without an error.
     *
     * @param call the verbs call as printed ({@code ibv_modify_qp})
     * @param errno the error as a positive errno (printed, or the number its text stands for), 0
     *     where the line names none
     * @param gids the local and remote GID the line (or its wrapped continuation) names, as printed
     *     ({@code ::ffff:192.168.100.1}); empty where it names none
     * @param addresses the IPv4 address each of {@code gids} maps (RoCE v2's IPv4-mapped GIDs), in
     *     their order; empty unless both are such
     */
    record VerbsCall(
        String call,
        int errno,
        java.util.List<String> gids,
        java.util.List<java.net.Inet4Address> addresses)
        implements Detail {

      /** ENOMEM: the call could not pin or allocate memory. */
      public static final int NO_MEMORY = 12;

      /** EINVAL: an argument the device refused (a GID index, a port, a link layer). */
      public static final int INVALID_ARGUMENT = 22;

      /** ETIMEDOUT: the queue pair's transition did not reach the peer. */
      public static final int TIMED_OUT = 110;

      public VerbsCall {
        gids = java.util.List.copyOf(gids);
        addresses = java.util.List.copyOf(addresses);
      }

      /** Whether the call registers memory ({@code ibv_reg_mr}, {@code ibv_reg_mr_iova2}). */
      public boolean registersMemory() {
        return call.startsWith("ibv_reg_mr");
      }
    }

    /**
     * A work completion with an error that NCCL's IB transport reports ({@link Kind#IB}: {@code
     * NET/IB: Got completion from peer 10.0.0.12<43567> with status=4 opcode=0 len=0 vendor err 81
     * (Send) ... hca mlx5_0}, before 2.19 {@code with error 4, opcode 0, len 0, vendor err 81}).
     *
     * @param status the ibv_wc_status number (4 IBV_WC_LOC_PROT_ERR, 12 IBV_WC_RETRY_EXC_ERR)
     * @param vendorErr the HCA's vendor syndrome, -1 where not printed
     * @param peer the peer as printed without its port ({@code 10.0.0.12}), or null
     * @param hca the local HCA ({@code mlx5_0}), or null where the line names none
     */
    record IbCompletion(int status, int vendorErr, String peer, String hca) implements Detail {

      /** IBV_WC_LOC_PROT_ERR: the HCA could not access a local buffer under its registration. */
      public static final int LOCAL_PROTECTION = 4;

      /** IBV_WC_REM_ACCESS_ERR: the peer's HCA refused the access to its buffer. */
      public static final int REMOTE_ACCESS = 10;

      /** IBV_WC_RETRY_EXC_ERR: the transport retry counter ran out, the peer did not answer. */
      public static final int RETRY_EXCEEDED = 12;

      /** Whether the status is a memory protection or access error (4, 10), not a link's. */
      public boolean memoryAccess() {
        return status == LOCAL_PROTECTION || status == REMOTE_ACCESS;
      }
    }

    /**
     * What aws-ofi-nccl, or libfabric under it, failed at ({@link Kind#NET_PLUGIN}), read from the
     * words of every release (1.0's single nccl_ofi_net.c to the protocols, ofiutils and CM of
     * 1.7-1.17) and of libfabric's own log: {@code NET/OFI Couldn't open AV. RC: -22, ERROR:
     * Invalid argument}, {@code fi_getinfo: provider efa output empty list}.
     *
     * @param step what failed
     * @param errno the error the line gives as a positive errno (libfabric's {@code RC: -22}, or
     *     the number its error text stands for: {@code Invalid argument} 22), 0 where it names none
     */
    record OfiFailure(OfiStep step, int errno) implements Detail {

      /** EINVAL: an argument libfabric or the EFA driver refused. */
      public static final int INVALID_ARGUMENT = 22;

      /** Whether libfabric refused an argument (EINVAL, -22). */
      public boolean invalidArgument() {
        return errno == INVALID_ARGUMENT;
      }
    }
  }

  /** The step of aws-ofi-nccl's work a failure line names ({@link Detail.OfiFailure}). */
  public enum OfiStep {
    /** The plugin gave up ({@code aws-ofi-nccl initialization failed}). */
    INIT_FAILED,
    /**
     * The transport protocol the plugin chose could not start ({@code Failed to initialize rdma
     * protocol}, {@code ... sendrecv protocol}, 1.7+), the line before its {@code initialization
     * failed}.
     */
    PROTOCOL_FAILED,
    /**
     * libfabric offered no EFA provider ({@code fi_getinfo() call failed: No data available},
     * {@code Couldn't find any optimal provider}, {@code Only EFA provider is supported},
     * libfabric's {@code provider efa returned -61}).
     */
    NO_PROVIDER,
    /**
     * libfabric's EFA provider is there but matched none of what aws-ofi-nccl asked ({@code
     * fi_getinfo: provider efa output empty list}, libfabric 1.2x): no EFA device visible, or the
     * provider lacks a capability asked (FI_HMEM, GPUDirect RDMA).
     */
    EFA_NO_MATCH,
    /**
     * libfabric's tcp, sockets or udp provider stands where EFA should ({@code Selected Provider is
     * tcp}, {@code No viable endpoint found for TCP provider}).
     */
    TCP_PROVIDER,
    /**
     * A peer's EFA address was refused ({@code Unable to insert remote address into address
     * vector}).
     */
    PEER_UNREACHABLE,
    /** A transfer completed with an error ({@code Request 0x... completed with error. RC: 20}). */
    COMPLETION_ERROR,
    /**
     * A transfer or its completion could not be posted or read ({@code Unable to post receive
     * buffer}, {@code Unable to send connect message}, {@code Unable to read from fi_cq_readerr}).
     */
    POST_FAILED,
    /** Registering a buffer failed ({@code Unable to register memory (type = 1) ... RC: -22}). */
    REGISTER_MEMORY,
    /** The plugin refuses to run without GPUDirect RDMA ({@code GDR disabled on GDR-supported}). */
    GDR_REQUIRED,
    /** An endpoint could not be created, enabled or configured. */
    ENDPOINT,
    /**
     * Another libfabric object or setting it needs (fabric, domain, completion queue, address
     * vector, an option, the instance type's file).
     */
    SETUP
  }

  /** The socket reports socket-interface reads beside others ({@link Detail.SocketReport}). */
  public enum SocketSource {
    /**
     * NCCL's trace of its bootstrap returning a system error ({@code bootstrap.cc:270 -> 2}), an
     * INFO line that unwinds a failure.
     */
    BOOTSTRAP_TRACE,
    /**
     * PyTorch's Gloo bound to loopback ({@code Unable to resolve hostname to a (local) address.
     * Using the loopback address as fallback.}).
     */
    GLOO_LOOPBACK,
    /**
     * horovodrun found no interface every host has ({@code Unable to find a set of common
     * task-to-task communication interfaces}).
     */
    HOROVOD_NO_COMMON_INTERFACE
  }

  /** Why the dynamic loader refused a library ({@link Detail.LoaderFailure}). */
  public enum LoaderReason {
    /** {@code cannot open shared object file: No such file or directory}: not found. */
    MISSING,
    /** {@code wrong ELF class}: a 32-bit library for a 64-bit program, or the reverse. */
    WRONG_CLASS,
    /** {@code undefined symbol}: the library found is older (or other) than the one linked. */
    UNDEFINED_SYMBOL,
    /** {@code version `X' not found}: a library it needs is older than it was built for. */
    VERSION_NOT_FOUND,
    /**
     * {@code failed to map segment from shared object}: the file is there but may not be mapped
     * executable (a directory mounted noexec), or memory ran out.
     */
    NOT_MAPPABLE
  }

  /** What a warning is about, as recognised from its text by the reader. */
  public enum Kind {
    /** /dev/shm could not be created or extended. */
    SHM,
    /** InfiniBand/RoCE verbs: completion errors, QP transitions, device open failures. */
    IB,
    /** NVLink SHARP, multicast objects, fabric manager, IMEX. */
    NVLS,
    /** A NET plugin failed to load or initialise. */
    NET_PLUGIN,
    /** No usable socket interface, or a bootstrap connection failed. */
    SOCKET,
    /** Ranks run different NCCL versions (NCCL checks this at init). */
    VERSION,
    /** GPU peer access refused or P2P disabled between devices. */
    P2P,
    /** A GPU memory allocation NCCL made failed ({@code Cuda failure 'out of memory'}). */
    GPU_MEMORY,
    /** Two ranks of one communicator on the same CUDA device ({@code Duplicate GPU detected}). */
    DUPLICATE_GPU,
    /**
     * Peers disagree on what they exchange: {@code collective mismatch error}, {@code message
     * truncated}, {@code Mismatched collective detected}.
     */
    COLLECTIVE_MISMATCH,
    /**
     * PyTorch DDP's reducer found a parameter that received no gradient in the last backward pass
     * ({@code Expected to have finished reduction in the prior iteration before starting a new
     * one}), with the parameters it names ({@code Parameters which did not receive grad for rank 0:
     * a.weight}).
     */
    DDP_UNUSED_PARAMETERS,
    /** The CUDA runtime needs a newer driver ({@code CUDA driver version is insufficient}). */
    CUDA_DRIVER,
    /**
     * CUDA found no kernel of the NCCL build for this GPU's architecture ({@code 'named symbol not
     * found'}, {@code 'no kernel image is available for execution on the device'}).
     */
    CUDA_ARCH,
    /**
     * CUDA refused a feature NCCL uses at init ({@code Cuda failure 'operation not supported'},
     * CUDA 801): the GPU, its driver or its virtualisation lacks it (a vGPU without unified
     * memory).
     */
    CUDA_UNSUPPORTED,
    /**
     * The NCCL build is too old for a CUDA feature the program uses: {@code NCCL cannot be captured
     * in a graph if either it wasn't built with CUDA runtime >= 11.3 or if the installed CUDA
     * driver < R465.} (misc/strongstream.cc).
     */
    NCCL_BUILD,
    /** Ranks computed different rings ({@code ring N does not loop back to start}). */
    TOPOLOGY,
    /**
     * NCCL could not build its topology: an XML file it read (NCCL_TOPO_FILE, NCCL_GRAPH_FILE) or
     * sysfs lacks what it needs ({@code Attribute arch of node cpu not found}, {@code XML Import
     * Channel : dev 1 not found}, {@code Could not find real path of /sys/class/pci_bus/...}).
     */
    TOPOLOGY_DETECTION,
    /** RDMA registration or queue creation refused for lack of lockable memory (ENOMEM). */
    LOCKED_MEMORY,
    /** No algorithm or protocol can run an operation ({@code no algorithm/protocol available}). */
    ALGORITHM,
    /**
     * CollNet (SHARP in-network reductions) could not start ({@code Cannot initialize CollNet}).
     */
    COLLNET,
    /**
     * A CUDA device index that does not exist in the process ({@code 'invalid device ordinal'},
     * CUDA 101): more ranks on a node than GPUs it can see.
     */
    INVALID_DEVICE,
    /**
     * A GPU kernel faulted and CUDA reports it through NCCL ({@code 'an illegal memory access was
     * encountered'}, CUDA 700; 715, 716, 719).
     */
    CUDA_FAULT,
    /** NIC registration of GPU memory through DMA-BUF refused ({@code ibv_reg_dmabuf_mr}). */
    DMABUF,
    /**
     * An IB/RoCE device the process lists but cannot open ({@code NET/IB : Unable to open device
     * mlx5_59}, {@code Call to ibv_open_device failed}): NCCL leaves it out.
     */
    IB_DEVICE,
    /**
     * NCCL's own argument checks ({@code sendbuff (nil) is not a valid pointer}, {@code invalid
     * root}, {@code invalid type}): the caller passed something NCCL cannot use.
     */
    ARGUMENT,
    /**
     * PyTorch's TCPStore rendezvous timed out before NCCL started: ranks never joined the store
     * ({@code DistStoreError: ... N/M clients joined}) or could not reach it.
     */
    RENDEZVOUS,
    /**
     * A rank was killed by SIGKILL (exit code -9), most often by the out-of-memory killer: the
     * other ranks then lose their peer.
     */
    KILLED,
    /**
     * A rank crashed with a segmentation fault (SIGSEGV, exit code -11): a fault in native code of
     * the rank's own process, not a kill from outside.
     */
    SEGFAULT,
    /**
     * A rank ended by SIGABRT (exit code -6, {@code terminate called after throwing an instance of
     * 'T'}): PyTorch's watchdog taking the process down after a collective timeout or an NCCL
     * error, or a C++ exception nothing caught.
     */
    ABORTED,
    /**
     * A torch.distributed call ran in a process that never called {@code init_process_group}
     * ({@code Default process group has not been initialized}).
     */
    NO_PROCESS_GROUP,
    /**
     * torchrun's elastic rendezvous was closed by another agent ({@code RendezvousClosedError}): a
     * node that failed past its restarts, finished or was stopped, or a reused run id.
     */
    RENDEZVOUS_CLOSED,
    /**
     * CUDA was initialised in a process before it forked workers that use CUDA ({@code Cannot
     * re-initialize CUDA in forked subprocess}, Lightning's {@code can't create new processes if
     * CUDA is already initialized}).
     */
    CUDA_BEFORE_FORK,
    /**
     * PyTorch's heartbeat monitor found the ProcessGroupNCCL watchdog thread making no progress
     * ({@code ProcessGroupNCCL's watchdog got stuck for N seconds without making progress in
     * monitoring enqueued collectives}, {@code Heartbeat monitor timed out!}): the thread is
     * blocked in a CUDA or NCCL call, and the monitor kills the process.
     */
    WATCHDOG_STUCK,
    /**
     * CUDA cannot use the GPU at all: {@code 'CUDA-capable device(s) is/are busy or unavailable'}
     * (CUDA 46: exclusive-process compute mode with another process on it, or a GPU in a bad
     * state), {@code 'initialization error'} (CUDA 3).
     */
    GPU_UNAVAILABLE,
    /**
     * The NVIDIA driver's user-space libraries are missing, a stub, or do not match the kernel
     * module: {@code Failed to find CUDA library libcuda.so}, {@code 'CUDA driver is a stub
     * library'}, {@code Failed to open libnvidia-ml.so.1}, NVML's {@code Driver/library version
     * mismatch}.
     */
    DRIVER_LIBRARY,
    /**
     * A process limit refused NCCL a resource: open files ({@code Too many open files}), threads
     * ({@code pthread_create failed: Resource temporarily unavailable}), host memory ({@code Failed
     * to malloc}), or the limits themselves ({@code setrlimit}).
     */
    RESOURCE_LIMIT,
    /**
     * Deregistering a user buffer failed ({@code rank 3 deregister NVLS buffer ... failed}, {@code
     * Deregister: Could not find handle}, register/*.cc); registering one, where a version prints
     * it as a WARN.
     */
    REGISTRATION,
    /**
     * NCCL's proxy thread failed an operation for a local rank or lost it ({@code [Proxy Service 3]
     * Failed to execute operation Connect}, {@code [Service thread] Could not receive type from
     * localRank 2, res=3, closed=1}).
     */
    PROXY,
    /**
     * The framework has no NCCL it can use: this PyTorch has none (a Windows, macOS or CPU-only
     * build) and the job asked for the nccl backend ({@code Distributed package doesn't have NCCL
     * built in}), this TensorFlow has no NCCL kernels ({@code No OpKernel was registered to support
     * Op 'NcclAllReduce'}), or the NCCL library is not there to load ({@code libnccl.so.2: cannot
     * open shared object file}).
     */
    NCCL_NOT_BUILT,
    /**
     * PyTorch's TCPStore (the rendezvous on MASTER_ADDR:MASTER_PORT) could not listen: another
     * process on the host holds the port ({@code Address already in use}, errno 98).
     */
    PORT_IN_USE,
    /**
     * A service mesh's sidecar proxy (Istio's or another Envoy) stands in the job's traffic: it
     * denied a connection ({@code rbac_access_denied_matched_policy[none]}, {@code RBAC: access
     * denied}) or logs the inbound cluster of a port of the pod ({@code TLS cluster
     * inbound|23456||}).
     */
    SERVICE_MESH,
    /**
     * GKE's GPUDirect-TCPX/TCPXO receive-datapath manager (RxDM, the sidecar the FasTrak plugin
     * talks to) failed its checks or was not there ({@code Number of GPUs detected in the PCI tree
     * 7 is not equal to the actual number of GPUs reported by CUDA 8}, {@code Timeout: RxDM not
     * ready on HOST after N seconds}).
     */
    TCPX_RXDM,
    /**
     * The scheduler ended the job or step (Slurm's {@code *** JOB 1234 ON n1 CANCELLED AT ... DUE
     * TO TIME LIMIT ***}, preemption, node failure, scancel): not a failure of the job's own.
     */
    CANCELLED,
    /**
     * A process was started without the variables PyTorch's env:// rendezvous reads ({@code
     * environment variable MASTER_ADDR expected, but not set}): not under a launcher that sets
     * them.
     */
    RENDEZVOUS_ENV,
    /**
     * A framework named ranks that did not reach a collective the others waited in: PyTorch's
     * desync report ({@code ranks [47] are the lagging ranks that caused this timeout}, {@code [47]
     * joined but didn't finish collective #N}), Horovod's stall inspector ({@code [missing ranks:
     * 1]}).
     */
    LAGGING,
    /**
     * Open MPI's runtime (ORTE, PRRTE) lost its daemon on another node or could not start it
     * ({@code PRTE has lost communication with a remote daemon.}, {@code ORTE was unable to
     * reliably start one or more daemons.}), or DeepSpeed's runner could not reach a host of its
     * hostfile over ssh ({@code ... but host=node2 was not reachable via ssh.}): the launcher, not
     * NCCL, lost the node.
     */
    MPI_DAEMON,
    /**
     * MPI's own transport (UCX under Open MPI's {@code pml ucx}) could not connect its ranks:
     * {@code UCX ERROR ibv_create_ah(...) ... failed: No such device}, {@code pml_ucx.c:477 Error:
     * Failed to resolve UCX endpoint for rank 3}: the launcher's MPI, not NCCL, failed.
     */
    MPI_TRANSPORT,
    /**
     * A GPU-sharing CUDA interposer preloaded into the process (HAMi-core's libvgpu.so) failed in
     * its own hooks during CUDA or NCCL init: {@code [HAMI-core ERROR (...)]: Illegal device id:
     * 31069} before its segfault; NCCL never got to fail.
     */
    GPU_INTERPOSER,
    /**
     * A scheduler could not place the job's processes, asked for more than its nodes offer:
     * kube-scheduler's {@code 0/4 nodes are available: 4 Insufficient nvidia.com/gpu.}, the
     * kubelet's {@code Allocate failed due to requested number of devices unavailable for
     * nvidia.com/gpu}, Slurm's {@code Requested node configuration is not available}, Open MPI's
     * {@code There are not enough slots available in the system}: no rank ran there.
     */
    UNSCHEDULABLE,
    /**
     * The job's coordinator lost a worker that stopped answering its heartbeats: Ray's GCS marked a
     * node dead ({@code has been marked dead because the detector has missed too many heartbeats})
     * and the actors on it died with it ({@code The actor died because its node has died}), a
     * task's raylet died ({@code LocalRayletDiedError}), JAX's coordination service found a process
     * silent ({@code Task /job:jax_worker/replica:0/task:1 heartbeat timeout}): the node or process
     * went away (killed, out of memory, preempted, crashed, cut off), not NCCL.
     */
    WORKER_LOST,
    /**
     * The parallel layout a framework was given does not fit the model or the processes launched:
     * TensorRT-LLM's engine built for another world size ({@code Engine world size (2 * 1) !=
     * Runtime world size (1)}, {@code Assertion failed: mpiSize == tp * pp}), vLLM's heads that
     * tensor parallelism cannot split ({@code Total number of attention heads (32) must be
     * divisible by tensor parallel size (3).}), Megatron-LM's world size that tp x pp x cp does not
     * divide, JAX's process id beyond num_processes ({@code Unexpected task registered with
     * task_name=...}).
     */
    PARALLEL_LAYOUT,
    /**
     * A file system full (ENOSPC: {@code OSError: [Errno 28] No space left on device}) where the
     * line does not say which: /dev/shm in a container whose default size was kept is one.
     */
    NO_SPACE,
    /**
     * An NCCL_* value NCCL did not use as given: one it could not parse ({@code Invalid value 20s
     * for NCCL_IB_TIMEOUT, using default 20.}, INFO) or one out of its range that it capped or
     * ignored ({@code NCCL_SOCKET_NTHREADS is greater than the maximum allowed, setting to 16},
     * {@code Ignoring SHM locality, must be 1 (sender side) or 2 (receiver side, default)}).
     */
    ENV_IGNORED,
    /**
     * NCCL_COMM_ID set beside a program that made several unique ids ({@code NCCL_COMM_ID cannot be
     * used with more than one ncclUniqueId}, init.cc 2.23+, INFO, rank 0 only): NCCL used the first
     * id and started one bootstrap root.
     */
    COMM_ID_ONE_ROOT,
    /**
     * A network plugin's configuration checker found an NCCL_* setting other than the one it
     * requires or recommends (Google's gIB guest config checker: {@code NCCL/NET (shim) mismatch
     * enforced: NCCL_P2P_NVL_CHUNKSIZE = 524288 (expected 262144)}).
     */
    ENV_CHECKED,
    /**
     * An NCCL_* setting NCCL refused and failed on, not one it ignored: out of the range it checks
     * ({@code NET/IB: NCCL_IB_SUBNET_PREFIX_LEN=40 is out of range [1,32]}, net_ib/connect.cc 2.29,
     * ncclInvalidArgument) or NCCL_IB_OOO_RQ forced on where adaptive routing is off or the peer
     * lacks it ({@code NET/IB: OOO RQ is force enabled but ...}, ncclInternalError); {@link
     * Detail.RefusedSetting}.
     */
    ENV_REFUSED,
    /**
     * A tuner plugin NCCL loaded failed its init ({@code No NCCL_TUNER_CONFIG_PATH provided. Please
     * populate NCCL_TUNER_CONFIG_PATH to use config-based tuner plugin.}, Google's config-based
     * tuner shipped with gIB and GCP images).
     */
    TUNER_PLUGIN,
    /**
     * The dynamic loader found a library the job needs (libnccl, libcuda, libnvidia-ml) and refused
     * it: not mappable (a noexec mount), the other word size, a symbol or version missing ({@link
     * Detail.LoaderFailure}); a library not found at all is {@link #NCCL_NOT_BUILT}'s or {@link
     * #DRIVER_LIBRARY}'s.
     */
    LOADER_REFUSED,
    /**
     * NCCL failed one of its own consistency checks ({@code P2p schedule creation has bugs.},
     * {@code Internal error : tree already has 3 children}, {@code Proxy append mismatch}, {@code
     * ncclSocketSend: pass NULL socket}, {@code Failed to determine local ranks}): state NCCL built
     * itself is wrong, from a bug of the release or from ranks that exchanged structures of
     * different NCCL builds.
     */
    INTERNAL,
    /**
     * GDRCopy, which NCCL uses only when NCCL_GDRCOPY_ENABLE=1, failed: its library did not load
     * ({@code misc/gdrwrap.cc: Failed to open libgdrapi.so}) or a call into the gdrdrv kernel
     * module failed ({@code gdr_pin_buffer(...) failed: 22}, {@code gdr_map(...) failed}).
     */
    GDRCOPY,
    /**
     * No transport could connect two ranks ({@code No transport found for rank 0[1b000] -> rank
     * 8[1b000]}, transport.cc 2.5+; {@code No transport found !}, init.cu 2.3-2.4): P2P, SHM and
     * the network all refused the pair.
     */
    NO_TRANSPORT,
    /** Anything else. */
    OTHER
  }
}
