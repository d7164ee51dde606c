package io.topolens.nccl;

import io.topolens.model.NcclWarning;
import io.topolens.model.NcclWarning.Kind;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says what a WARN (or failure) message is about, from the words NCCL and its plugins use. The
 * first matching kind wins, so the most specific kinds come first.
 */
final class WarningClassifier {
  private WarningClassifier() {}

  private record Clue(Kind kind, List<String> words) {}

  private static final List<Clue> CLUES =
      List.of(
          // misc/gdrwrap.cc: GDRCopy, loaded only under NCCL_GDRCOPY_ENABLE=1 (init.cc's
          // initGdrCopy): its library or a gdrdrv call failed; before INTERNAL, whose "lib wrapper
          // not initialized" its own wrapper prints too
          new Clue(
              Kind.GDRCOPY,
              List.of(
                  "gdrwrap",
                  // not the bare word: aws-ofi-nccl and libfabric print their own GDRCopy lines
                  "gdrcopy lib wrapper",
                  "libgdrapi",
                  "gdr_open()",
                  "gdr_close()",
                  "gdr_pin_buffer(",
                  // 2.29's gdrwrap.cc: the v2 calls of GDRCopy 2.5+ and its version and attribute
                  // queries ("gdr_pin_buffer_v2(addr A, size S, flags F) failed: 22",
                  // "gdr_pin_buffer_v2 not available; GDRCopy >= 2.5 required")
                  "gdr_pin_buffer_v2",
                  "gdr_get_info_v2(",
                  "gdr_driver_get_version()",
                  "gdr_get_attribute(",
                  "gdr_unpin_buffer(",
                  "gdr_get_info(",
                  "gdr_map(",
                  "gdr_unmap(",
                  "gdr_copy_to_mapping(",
                  "gdr_copy_from_mapping(")),
          // transport.cc (2.5+) "No transport found for rank %d[%lx] -> rank %d[%lx]", init.cu
          // (2.3-2.4) "No transport found !": every transport refused a pair of ranks; before
          // INTERNAL, whose proxy.cc "has no transport for" is NCCL's own bookkeeping
          new Clue(Kind.NO_TRANSPORT, List.of("no transport found")),
          // NCCL's internal consistency checks (libnccl.so.2.28.3's WARN calls and older
          // releases'; nccl/messages/messages.tsv lists them): state NCCL built itself is wrong,
          // whatever subsystem words they hold
          new Clue(
              Kind.INTERNAL,
              List.of(
                  "called when comm->base.ready",
                  "inside cache of",
                  "->events=",
                  "wc->opcode",
                  "internal error :",
                  "has bugs",
                  "list loop",
                  "inactive op",
                  "pass null socket",
                  "file descriptor is -1",
                  "socket state",
                  ": invalid socket",
                  "test called with null request",
                  "could not find pool of op",
                  "couldn't find opid",
                  "match any expected response",
                  "response size for opid",
                  "already completed opid",
                  "nonexistent async opid",
                  "proxy append",
                  "lib wrapper not initialized",
                  "unknown device code index",
                  "uninitialized netplugin",
                  "number of devices for netplugin",
                  "ncclnetsocketlisten dev=",
                  // net_socket.cc and net_ib.cc (every release): the transport's fixed pool of
                  // in-flight requests (or socket subtasks) is full, and it returns
                  // ncclInternalError.
                  // NCCL's proxy never posts more than the pool holds, so it is bookkeeping, not
                  // the
                  // fabric: one finding for the same words from IB and Socket (before IB's clue)
                  "socket : unable to allocate",
                  "net/ib : unable to allocate requests",
                  "pxn should not use",
                  "collnet sizes",
                  "reqsize is",
                  "respsize is",
                  "net registration invalid algorithm",
                  "unknown pattern for collective",
                  "already connected sendcomm",
                  "ran out of channel space",
                  "unexpected connections are not empty",
                  "has no transport for",
                  "incomplete proxy op chain",
                  "invalid argument comm",
                  "invalid argument desc",
                  "received unknown",
                  "invalid client status",
                  "shadow pool",
                  "no allocation found",
                  "no suitable space found",
                  "non-existent virtual device",
                  "requested properties for vnic",
                  "could not find rev link",
                  "could not find gpu rank",
                  "could not find net id",
                  "could not find id ",
                  "xml export channel",
                  "ranktoindex",
                  "too many topo links",
                  "too many nodes of type",
                  "ran out of room",
                  // init.cc (init.cu before 2.5): a rank not found among the ranks of its own
                  // host or process, which NCCL computed from the hashes all ranks exchanged
                  "failed to determine local ranks",
                  "failed to determine intra",
                  // shm.cu before 2.5
                  "multiple starts found",
                  // net_ib.cu before 2.5: a request's memory region counted below zero
                  "refcount now",
                  // net_ib.cc 2.19-2.20: a connection stage it does not know
                  "in unknown state")),
          // teardown after an earlier failure, optional symbols and fallbacks NCCL goes on from:
          // no cause of their own, whatever subsystem words they hold
          new Clue(
              Kind.OTHER,
              List.of(
                  "dlvsym failed",
                  "not found in graph",
                  "remote flid",
                  "munmap of shared memory",
                  // net_ib.cu before 2.5: a memory region still held when its communicator closes
                  "has non-zero (",
                  // net_ib.cc 2.19-2.20: NIC merging that differs between the peers, which NCCL
                  // goes on with (an INFO line from 2.2x)
                  "has a different number of devices",
                  "call to close failed",
                  // a fallback NCCL takes and goes on (graph/search.cc's simple order, xml.h's
                  // default value, the cuMem host memory of 2.19-2.27)
                  "falling back",
                  // ibvwrap.cc before 2.2x: no verbs library, NCCL goes on with sockets
                  "failed to open libibverbs",
                  "ignoring shm locality")),
          // GKE's GPUDirect-TCPX/TCPXO receive-datapath manager
          // (google/nccl-plugin-gpudirect-tcpxo:
          // buffer_mgmt_daemon's count checks and DXS clients, the FasTrak plugin's wait for it):
          // before SOCKET, whose "connect" words its UDS failure holds
          new Clue(
              Kind.TCPX_RXDM,
              List.of(
                  "gpus detected in the pci tree",
                  "number of nics detected",
                  "rxdm not ready",
                  "failed to initialize dxs client",
                  "dxs client health check failed",
                  "buffer operation client")),
          new Clue(
              Kind.VERSION,
              List.of(
                  "mismatched nccl version",
                  "mismatched nccl git versions",
                  // ras/ras.cc 2.24+
                  "version mismatch with remote peer")),
          // cudawrap.cc "Failed to find CUDA library libcuda.so (NCCL_CUDA_PATH=...)" (2.13-2.18),
          // "CUDA some PFN functions not found in the library", "Retrieve %s version %d failed",
          // CUDA 34 (stub libcuda), nvmlwrap.cc "Failed to open libnvidia-ml.so.1", NVML's
          // "Driver/library version mismatch" and "Driver Not Loaded"
          new Clue(
              Kind.DRIVER_LIBRARY,
              List.of(
                  "libcuda.so",
                  "stub library",
                  "cudaerrorstublibrary",
                  "pfn functions not found",
                  // cudawrap.cc 2.13-2.18: "Failed to load CUDA missing symbol cuInit|..."
                  "cuda missing symbol",
                  "cudrivergetversion failed",
                  "retrieve cu",
                  "libnvidia-ml.so",
                  "driver/library version mismatch",
                  "driver not loaded",
                  // nvidia-smi with no driver loaded
                  "couldn't communicate with the nvidia driver")),
          // CUDA 46 (cudaErrorDevicesUnavailable: exclusive-process compute mode, a GPU another
          // process holds or in a bad state; "all CUDA-capable devices are busy or unavailable"
          // before CUDA 11); CUDA 3 comes after NVLS
          new Clue(
              Kind.GPU_UNAVAILABLE,
              List.of(
                  "busy or unavailable",
                  "cudaerrordevicesunavailable",
                  // NVML_ERROR_UNKNOWN at nvmlInit in a container that lost its GPUs' device
                  // files (a systemd daemon-reload under the systemd cgroup driver)
                  "failed to initialize nvml: unknown error")),
          // a process limit: EMFILE from socket/accept/getifaddrs/open, pthread_create's EAGAIN
          // (bootstrap.cc, group.cc, proxy.cc), bootstrap.cc's setFilesLimit, proxy.cc's "Too many
          // connections", a host malloc (bootstrap.cc, alloc.h, bootstrap.cu) or cudaHostAlloc that
          // failed
          new Clue(
              Kind.RESOURCE_LIMIT,
              List.of(
                  "too many open files",
                  "pthread_create failed",
                  "too many connections",
                  "call to setrlimit failed",
                  "call to getrlimit failed",
                  "failed to malloc",
                  // bootstrap.cu before 2.5: the root thread's calloc for the ranks' handles
                  "thread : failed to allocate memory",
                  "failed to cuda host alloc")),
          // init.cc since 2.4: "Duplicate GPU detected : rank %d and rank %d both on CUDA device
          // %lx"
          new Clue(
              Kind.DUPLICATE_GPU,
              // init.cc's "Duplicate GPU detected : rank %d and rank %d both on CUDA device %lx",
              // also quoted from its second literal on (a blog's "Error: rank 27 and rank 19 both
              // on
              // CUDA device 53000")
              List.of("duplicate gpu detected", "both on cuda device")),
          // net_ib.cc "collective mismatch error, local size %d remote size %d"; net_socket.cc and
          // bootstrap "message truncated : receiving|received %d bytes instead of %d"; 2.4's
          // enqueue check "Mismatched collective detected, please check your collective calls"
          new Clue(
              Kind.COLLECTIVE_MISMATCH,
              List.of(
                  "collective mismatch",
                  "mismatched collective",
                  "message truncated",
                  "truncated message",
                  // net_ib.cc 2.20+: "req %d/%d tag %x peer %s posted incorrect receive info"
                  "posted incorrect receive info")),
          // CUDACHECK's text of cudaErrorInsufficientDriver (35) and of the driver/runtime
          // combination errors (803, 804)
          new Clue(
              Kind.CUDA_DRIVER,
              List.of(
                  "driver version is insufficient",
                  "cudaerrorinsufficientdriver",
                  // PyTorch's own check of the same (c10/cuda): "The NVIDIA driver on your system
                  // is too old (found version 11040)"
                  "driver on your system is too old",
                  // CUDA 222: PTX from a newer toolchain than the driver can compile
                  "unsupported toolchain",
                  "unsupported display driver / cuda driver combination",
                  "forward compatibility was attempted on non supported hw")),
          // CUDA 500 (cudaErrorSymbolNotFound) from cudaFuncGetAttributes in enqueue.cc, 209
          // (cudaErrorNoKernelImageForDevice), 98 (cudaErrorInvalidDeviceFunction): the build has
          // no kernel for this GPU's architecture (NVCC_GENCODE without its sm_XY)
          new Clue(
              Kind.CUDA_ARCH,
              List.of(
                  "'named symbol not found'",
                  "cudaerrorsymbolnotfound",
                  "no kernel image is available",
                  "cudaerrornokernelimagefordevice",
                  "'invalid device function'",
                  "cudaerrorinvaliddevicefunction",
                  // enqueue.cc (2.19+): "[cudaArch %d ]ncclMaxSharedMem %d exceeds device/fn
                  // maxSharedMem %zu", a WARN or (2.25) an INFO line: the kernels of this build
                  // ask for more shared memory than the GPU gives (NCCL 2.25 on sm_120)
                  "exceeds device/fn maxsharedmem")),
          // CUDA 101 (cudaErrorInvalidDevice) from CUDACHECK in any file (transport/p2p.cc,
          // init.cc)
          // and nccl-tests' "Test CUDA failure common.cu:N 'invalid device ordinal'": before P2P,
          // whose clue the source file p2p.cc holds
          new Clue(
              Kind.INVALID_DEVICE,
              List.of(
                  "invalid device ordinal",
                  "cudaerrorinvaliddevice",
                  // CUDA 100 (cudaErrorNoDevice): the process sees no GPU at all
                  "no cuda-capable device is detected",
                  "cudaerrornodevice",
                  // init.cc "Invalid device %d (totalnDev=%d)", PyTorch's "no GPUs found!"
                  "(totalndev=",
                  "no gpus found",
                  // torch/cuda/__init__.py: no driver in this process's view (no GPU passed in)
                  "found no nvidia driver")),
          // CUDA's sticky kernel faults as CUDACHECK prints them: 700 "an illegal memory access was
          // encountered", 715 "an illegal instruction was encountered", 716 "misaligned address",
          // 719 "unspecified launch failure"
          new Clue(
              Kind.CUDA_FAULT,
              List.of(
                  "illegal memory access",
                  "illegal instruction was encountered",
                  "'misaligned address'",
                  "unspecified launch failure",
                  // CUDA 710
                  "device-side assert",
                  // CUDA 214 and 220 (cudaErrorECCUncorrectable, cudaErrorNvlinkUncorrectable):
                  // sticky errors of the same kind, raised by the hardware, not a kernel
                  "uncorrectable ecc error",
                  "uncorrectable nvlink error")),
          // misc/strongstream.cc: "NCCL cannot be captured in a graph if either it wasn't built
          // with CUDA
          // runtime >= 11.3 or if the installed CUDA driver < R465." (before ARGUMENT: it is
          // reported as ncclInvalidUsage, but the cause is the build or the driver)
          new Clue(Kind.NCCL_BUILD, List.of("cannot be captured in a graph")),
          // argcheck.cc: "%s : %s %p is not a valid pointer", "%s : %s argument is NULL", "%s :
          // invalid root %d", "%s : invalid type %d", "%s : invalid reduction operation %d", "%s :
          // %s allocated on device %d mismatchs with NCCL device %d"
          new Clue(
              Kind.ARGUMENT,
              List.of(
                  "is not a valid pointer",
                  "argument is null",
                  ": invalid root",
                  ": invalid type",
                  ": invalid reduction operation",
                  "mismatchs with nccl device",
                  "unknown to this communicator",
                  "corrupted comm object",
                  // usage checks of init.cc, group.cc, enqueue.cc, strongstream.cc
                  // (ncclInvalidUsage)
                  "not initialized via nccl_",
                  "invalid config ",
                  "invalid rank requested",
                  "invalid device count",
                  "exceeds ndev=",
                  "improper usage of",
                  "before the previous operation returned",
                  "has already been destroyed",
                  "not allowed in the same group",
                  "can be cuda graph captured",
                  "not in a group call",
                  "all uncaptured or all captured",
                  "to self without a matching",
                  "user-created ncclredop_t",
                  "ncclredopdestroy",
                  "fp8 reduction support",
                  // PyTorch: "NCCL only supports CUDA tensors, but got a tensor on cpu"
                  "only supports cuda tensors",
                  // dev_runtime.cc, init.cc
                  "suitably aligned",
                  // dev_runtime.cc: symmetric memory asked of a communicator without it
                  "does not support symmetric memory",
                  // CUDA 900 (cudaErrorStreamCaptureUnsupported): a call graph capture forbids,
                  // made while a stream was capturing (NCCL's CUDACHECK, PyTorch's CUDA error)
                  "not permitted when stream is capturing",
                  "cudaerrorstreamcaptureunsupported",
                  "is different from child comm")),
          // register/*.cc and the transports' buffer registration (ncclCommRegister,
          // NCCL_LOCAL_REGISTER, NCCL_GRAPH_REGISTER): before NVLS, P2P, COLLNET, whose words they
          // hold
          new Clue(
              Kind.REGISTRATION, List.of("register userbuff", "register sendbuff", "deregister")),
          // proxy.cc's service and progress threads
          new Clue(
              Kind.PROXY,
              List.of(
                  "[proxy service",
                  "[service thread]",
                  "[proxy progress]",
                  "ncclproxycallblocking",
                  "ncclproxyclient",
                  "polling for opid",
                  // proxy.cc 2.12-2.18: "Proxy Call to rank %d failed (%s)", the call to a local
                  // rank's proxy that the socket under it lost
                  "proxy call to rank")),
          // ibvwrap.cc: "Call to ibv_reg_dmabuf_mr failed with error %s": before IB, whose "ibv_"
          // it holds
          new Clue(Kind.DMABUF, List.of("ibv_reg_dmabuf_mr", "mlx5dv_reg_dmabuf_mr")),
          // net_ib.cc: "NET/IB : Unable to open device %s" after ibvwrap.cc's "Call to
          // ibv_open_device failed": before IB, whose "NET/IB" and "ibv_" they hold
          new Clue(
              Kind.IB_DEVICE,
              List.of(
                  "unable to open device",
                  "ibv_open_device failed",
                  "unable to query device",
                  "unable to query port",
                  // net_ib.cc's ncclIbGetPciPath: the NIC's sysfs entry is missing
                  "could not find real path of /sys/class/infiniband/")),
          // enqueue.cc (2.7+): "Error : no algorithm/protocol available[ for function %s with
          // datatype %s.][ NCCL_ALGO was set to %s.][ NCCL_PROTO was set to %s.]"
          new Clue(
              Kind.ALGORITHM,
              List.of(
                  "no algorithm/protocol available",
                  "no symmetric kernel available",
                  // graph/tuning.cc: NCCL_ALGO / NCCL_PROTO it cannot parse
                  "when parsing",
                  "must have a prefix")),
          // graph/paths.cc: P2P refused between GPUs NVLink joins, before graph/'s clue
          new Clue(Kind.P2P, List.of("p2p is disabled between")),
          // graph/rings.cc: "Error : ring %d does not loop back to start (%d != %d)", "Error : ring
          // %d does not contain rank %d"
          new Clue(Kind.TOPOLOGY, List.of("does not loop back to start", "does not contain rank")),
          // graph/xml.h "Attribute %s of node %s not found" (a node of the topology XML, from
          // NCCL_TOPO_FILE or sysfs), search.cc "XML Import Channel : dev %d not found."
          // (NCCL_GRAPH_FILE), xml.cc "Could not find real path of %s" for a GPU's PCI path (not
          // net_ib.cc's for a NIC, which names /sys/class/infiniband)
          new Clue(
              Kind.TOPOLOGY_DETECTION,
              List.of(
                  "of node cpu not found",
                  "of node pci not found",
                  "of node gpu not found",
                  "of node nic not found",
                  "of node net not found",
                  "of node nvlink not found",
                  "xml import channel",
                  "real path of /sys/class/pci_bus",
                  // graph/topo.h ncclTopoIdToIndex: "Could not find %s with id %lx", a node the
                  // graph names missing from the topology (NCCL 2.25's NET search on some hosts)
                  "could not find net with id",
                  "could not find gpu with id",
                  "could not find nic with id",
                  "could not find cpu with id",
                  "could not find pci with id",
                  "could not find nvs with id",
                  // graph/topo.cc, paths.cc, xml.cc, search.cc: the CPU or NUMA node of a GPU, a
                  // path to the NIC, an XML file NCCL_TOPO_FILE/NCCL_GRAPH_FILE names, NIC fusion
                  "could not find cpu close to gpu",
                  "local path from gpu",
                  "sched_getaffinity failed",
                  "could not find cpu numa id",
                  "xml topology file",
                  "xml graph file",
                  "has wrong version",
                  "xml parse error",
                  "tried merging multiple devices",
                  "could not force merge nics",
                  "add nvlink error",
                  "add pci link error",
                  "could not find node of type",
                  // the same files' texts that name no XML or sysfs word, for a line pasted without
                  // its graph/*.cc location (after PyTorch's "Last error:", a title): paths.cc's
                  // reverse path and intermediate GPU, search.cc's NVLS NIC, topo.cc's NIC fusion
                  // (TOPO/NET), its netDevs policy and host hashes, utils' KV dictionary
                  "failed to find reverse path",
                  "could not find intermediate gpu",
                  "could not find nic for rank",
                  "no path computed to go from",
                  "invalid number of network devices",
                  "which has too many devices",
                  "topo/net :",
                  "unknown netdevs policy",
                  "list of system hosthashes",
                  "kv convert to str",
                  // nvmlwrap.cc: NVML of this process does not see a GPU of its host by its bus id
                  // (graph/xml.cc asks while building the topology; NVML ignores
                  // CUDA_VISIBLE_DEVICES, so the GPU is hidden by device isolation); before the
                  // clue of NVML's other queries, which NCCL goes on without
                  "nvmldevicegethandlebypcibusid() failed: not found",
                  "xml",
                  // any other WARN of graph/*.cc (topology, paths, search): NCCL could not build or
                  // search its topology
                  "graph/")),
          // CUDA refusing peer access, whichever transport asked (p2p.cc's IPC handle, shm.cc's
          // cuMem host buffers): before SHM, whose clue is the source file
          // and CUDA 711 (cudaErrorTooManyPeers) "peer mapping resources exhausted": a GPU mapping
          // more peers than CUDA allows (allocator.cc's cuMem peer mappings, p2p.cc's IPC)
          new Clue(
              Kind.P2P,
              List.of(
                  "peer access is not supported",
                  "peer mapping resources exhausted",
                  "cudaerrortoomanypeers",
                  "cuda_error_too_many_peers")),
          // a config-based tuner plugin (gIB's, GCP images' libnccl-tuner.so) loaded without its
          // config: "No NCCL_TUNER_CONFIG_PATH provided. Please populate NCCL_TUNER_CONFIG_PATH to
          // use config-based tuner plugin."
          new Clue(Kind.TUNER_PLUGIN, List.of("no nccl_tuner_config_path", "config-based tuner")),
          new Clue(
              Kind.SHM,
              List.of(
                  "/dev/shm",
                  "shm_open",
                  "shmutils",
                  "shared memory segment",
                  "posix_fallocate",
                  "ncclshmopen",
                  "failed to extend",
                  "shm.cc")),
          new Clue(
              Kind.NVLS,
              List.of(
                  "nvls",
                  // nvls.cc's "Failed to bind NVLink SHARP (NVLS) Multicast memory", wrapped
                  "nvlink sharp",
                  "multicast",
                  "cumulticast",
                  "fabric manager",
                  "fabricmanager",
                  // CUDA 802 (cudaErrorSystemNotReady): the fabric manager has not initialised the
                  // NVSwitch fabric
                  "system not yet initialized",
                  "imex",
                  "mnnvl",
                  "cumemimportfromshareablehandle")),
          // CUDA 3 (cudaErrorInitializationError) outside nvls.cc, where it means the fabric
          // manager
          // has not set up the NVSwitches
          new Clue(
              Kind.GPU_UNAVAILABLE,
              List.of(
                  "'initialization error'",
                  "cudaerrorinitializationerror",
                  // CUDA 999 as CUDACHECK and nccl-tests quote it (the classifier sees nccl-tests'
                  // text after its opening quote): the driver could not set up the GPU for this
                  // process (nvidia_uvm not loaded, a GPU in a bad state); aws-ofi-nccl's unquoted
                  // "Error: unknown error" is a transfer's
                  "unknown error'")),
          // CUDA 801 (cudaErrorNotSupported) quoted by CUDACHECK: after NVLS, whose nvls.cc lines
          // say the same when multicast is missing
          new Clue(
              Kind.CUDA_UNSUPPORTED, List.of("'operation not supported'", "cudaerrornotsupported")),
          // CUDACHECK/CUCHECK print the CUDA error string ("Cuda failure 'out of memory'", "Cuda
          // failure 2
          // 'out of memory'"); alloc.h then "Failed to CUDA calloc|malloc N bytes"
          new Clue(
              Kind.GPU_MEMORY,
              List.of("'out of memory'", "failed to cuda calloc", "failed to cuda malloc")),
          // transport.cc "Cannot initialize CollNet, using point-to-point network instead" (and
          // "using %s instead"), the SHARP plugin's "SHARP coll init error", "SHARP group create";
          // after NVLS, whose "NVLink SHARP" lines say nvls, and before IB, whose "NET/IB" the
          // SHARP
          // plugin prints
          new Clue(
              Kind.COLLNET,
              List.of(
                  "cannot initialize collnet",
                  // init.cc 2.1x-2.20: "CollNet currently only supports up to %d GPUs per node,
                  // disabling CollNet"
                  "disabling collnet",
                  "sharp coll init",
                  "sharp group create",
                  "sharp resources")),
          // net_ib.cc: IPoIB/RoCE interface missing, NCCL has no address for its IB bootstrap
          new Clue(Kind.SOCKET, List.of("no ip interface found")),
          new Clue(
              Kind.IB,
              List.of(
                  "net/ib",
                  "net_ib.cc",
                  "ibvwrap",
                  "ibv_",
                  "ib_",
                  "mlx5",
                  "/roce",
                  " roce ",
                  "rocev2",
                  "got completion",
                  "completion with error",
                  "queue pair",
                  "local catastrophic",
                  // net_ib.cc's async thread and test: "communicator encountered a fatal error
                  // (detected in ncclIbAsyncThreadMain|ncclIbTest)"
                  "(detected in ncclib",
                  "transport retry counter exceeded",
                  "gid index")),
          new Clue(
              Kind.NET_PLUGIN,
              List.of("net/ofi", "net/plugin", "libfabric", "efa", "net plugin", "aws-ofi-nccl")),
          // NVML queries other than its init (nvmlDeviceGetP2PStatus, ...): NCCL goes on without
          new Clue(Kind.OTHER, List.of("nvmldeviceget")),
          new Clue(
              Kind.P2P,
              List.of(
                  "peer access",
                  "p2p",
                  "cudaipc",
                  "cuda ipc",
                  "ipc handle",
                  "peer query failed",
                  // ipcsocket.cc: the Unix socket cuMem P2P/SHM pass file descriptors over
                  "uds:")),
          new Clue(
              Kind.SOCKET,
              List.of(
                  "socket",
                  "bootstrap",
                  "interface",
                  "ifname",
                  "connection refused",
                  "connection reset",
                  "connection timed out",
                  "connect to",
                  "no route to host",
                  "verify nccl_oob_net_ifname",
                  "nccl_comm_id",
                  "no valid <ipv4",
                  "no valid [ipv6]",
                  "getting address info",
                  "cannot assign requested address",
                  "address family not supported",
                  // socket.cc "Net : unsupported IP family"; 2.12-2.18's matchSubnet "Net :
                  // Unsupported address family type" (its file names the socket only with its
                  // header)
                  "unsupported ip family",
                  "unsupported address family",
                  "sockettryaccept",
                  "broken pipe",
                  // net_socket.cc/socket.cc before 2.19: "Net : Connection closed by remote peer"
                  "closed by remote peer")));

  /**
   * The warning a failure text is: its kind, and for a network plugin's (aws-ofi-nccl, libfabric)
   * what failed ({@link OfiFailures}), so every path that reads a failure text reads the same.
   */
  static NcclEvent.Warning warning(String location, String message) {
    Kind kind = classify(location, message);
    return new NcclEvent.Warning(kind, message, null, detail(kind, message));
  }

  /** What a failure text of this kind names beyond its kind, or null. */
  static NcclWarning.Detail detail(Kind kind, String message) {
    return switch (kind) {
      case NET_PLUGIN -> OfiFailures.read(message);
      case IB, LOCKED_MEMORY -> IbFailures.read(message);
      case DUPLICATE_GPU -> sameDevice(message);
      case ENV_CHECKED -> checkedSetting(message);
      case ENV_REFUSED -> refusedSetting(message);
      case SOCKET -> connectError(message);
      case ARGUMENT -> argumentCheck(message);
      case OTHER -> noVerbsLibrary(message, true);
      default -> null;
    };
  }

  private static final Pattern INVALID_ROOT =
      Pattern.compile(
          "invalid root (-?\\d{1,9}) \\(root should be in the 0\\.\\.(-?\\d{1,9}) range\\)");

  private static final Pattern NULL_ARGUMENT = Pattern.compile("(\\w+) : (\\w+) argument is NULL");

  /**
   * What argcheck.cc's root or pointer check names ({@code Reduce : invalid root 0 (root should be
   * in the 0..0 range)}, {@code AllReduce : comm argument is NULL}), or null.
   */
  static NcclWarning.Detail argumentCheck(String message) {
    Matcher root = INVALID_ROOT.matcher(message);
    if (root.find()) {
      return new NcclWarning.Detail.InvalidRoot(
          Integer.parseInt(root.group(1)), Integer.parseInt(root.group(2)));
    }
    Matcher nul = NULL_ARGUMENT.matcher(message);
    return nul.find() ? new NcclWarning.Detail.NullArgument(nul.group(1), nul.group(2)) : null;
  }

  /**
   * The peer's answer a socket failure names ({@code Connection refused}, {@code Connection timed
   * out}, also {@code connect timeout : Connection refused} of the versions before 2.4), or null.
   */
  static NcclWarning.Detail connectError(String message) {
    String m = message.toLowerCase(Locale.ROOT);
    if (m.contains("refused")) {
      return new NcclWarning.Detail.ConnectError(NcclWarning.Detail.ConnectError.REFUSED);
    }
    return m.contains("timed out")
        ? new NcclWarning.Detail.ConnectError(NcclWarning.Detail.ConnectError.TIMED_OUT)
        : null;
  }

  /**
   * NCCL's {@code Failed to open libibverbs.so[.1]} (misc/ibvwrap.cu, ibvwrap.cc and ibvsymbols.cc
   * of every version; a WARN through 2.10, INFO by 2.18), or null for another message.
   */
  static NcclWarning.Detail noVerbsLibrary(String message, boolean warned) {
    return message.startsWith(NO_VERBS_LIBRARY)
        ? new NcclWarning.Detail.NoVerbsLibrary(warned)
        : null;
  }

  /** What every NCCL version prints when dlopen finds neither libibverbs.so nor .so.1. */
  static final String NO_VERBS_LIBRARY = "Failed to open libibverbs.so";

  static Kind classify(String location, String message) {
    String text = (location + " " + message).toLowerCase(Locale.ROOT);
    if (olderLibrary(text)) {
      return Kind.VERSION;
    }
    // ibvwrap's "Call to ibv_reg_mr|ibv_create_cq|ibv_create_qp failed with error Cannot allocate
    // memory" (ENOMEM): the locked-memory limit, not the fabric
    if (text.contains("cannot allocate memory")
        && (text.contains("ibv_") || text.contains("net/ib"))
        && !text.contains("ibv_post_send")) {
      return Kind.LOCKED_MEMORY;
    }
    // "Call to ibv_reg_mr failed with error Operation not permitted" (EPERM): the kernel's
    // ib_umem_get refuses to pin anything when the locked-memory limit is 0 and the process lacks
    // CAP_IPC_LOCK (can_do_mlock); over a non-zero limit it is ENOMEM, above
    if (text.contains("operation not permitted") && text.contains("ibv_reg_mr")) {
      return Kind.LOCKED_MEMORY;
    }
    // libfabric's EFA provider in its own words (not aws-ofi-nccl's NET/OFI lines, which
    // ofi-plugin-error reads): ENOMEM (-12) registering or posting its buffers, the same limit
    if ((text.contains("cannot allocate memory") || text.contains("error -12 (-12)"))
        && (text.contains("libfabric error: (")
            || text.contains("unable to register mr")
            || text.contains("unable to write to eq"))) {
      return Kind.LOCKED_MEMORY;
    }
    if (text.contains(" mismatch enforced:") || text.contains(" mismatch recommended:")) {
      // gIB's guest config checker (NCCL/NET (shim)): an NCCL_* setting it enforces or
      // recommends; before the clues, whose words the variable's name may hold (P2P, IB)
      return Kind.ENV_CHECKED;
    }
    if ((text.contains("nccl_ib_subnet_prefix_len=") && text.contains(" is out of range"))
        || text.contains("ooo rq is force enabled but")) {
      // net_ib/connect.cc 2.29's checks of a user's setting (before the clues, whose "net/ib"
      // would make them the fabric's): a prefix length outside [1,32], NCCL_IB_OOO_RQ forced on
      // where the NIC has no adaptive routing or the peer no OOO RQ; NCCL fails on both
      return Kind.ENV_REFUSED;
    }
    if (text.contains("nccl_comm_id cannot be used with more than one")) {
      // init.cc's INFO line pasted without its header (MessageParser reads it with one)
      return Kind.COMM_ID_ONE_ROOT;
    }
    if (text.contains("is greater than the maximum allowed, setting")
        || text.contains("ignoring shm locality, must be")
        // init.cc 2.19-2.20: "NCCL_WORK_FIFO_DEPTH=%d is being ignored because it is not a power
        // of 2."
        || (text.contains("nccl_") && text.contains(" is being ignored because"))
        // init.cc's envConfigOverride, a WARN before 2.2x (INFO in 2.28): NCCL_CGA_CLUSTER_SIZE,
        // NCCL_MIN_CTAS / NCCL_MAX_CTAS or NCCL_COMM_SPLIT_SHARE_RESOURCES out of range, capped
        || text.contains("is too big. limiting value to")
        || (text.contains("upper limit") && text.contains(", cap it to"))
        || text.contains(", set both to")
        || text.contains("is not a valid value 0/1")
        || (text.contains("invalid nccl_") && threadsOutOfBounds(text))
        // init.cc 2.14+: "Invalid NCCL_COMM_BLOCKING value 2" (not 0/1: NCCL keeps the
        // program's config); gin 2.28+: "NCCL_GIN_SIGNAL_POOL_SIZE has invalid value." (default)
        || text.contains("invalid nccl_comm_blocking value")
        || (text.contains("nccl_gin_") && text.contains("_pool_size has invalid value"))
        || (text.contains("invalid value ") && text.contains(", using default"))
        || text.contains("unable to create thread context")
        || text.contains("failed to create cuda context on device")
        || text.contains("failed to set cuda context on device")) {
      // net_socket.cc's caps on NCCL_SOCKET_NTHREADS and NCCL_NSOCKS_PERTHREAD, shm.cc's
      // NCCL_SHM_LOCALITY outside 1..2, param.cc's value it could not parse (pasted without its
      // INFO header), proxy.cc's NCCL_CREATE_THREAD_CONTEXT=1 whose context it could not create
      // (it turns the setting off and goes on): a setting NCCL did not apply as given
      return Kind.ENV_IGNORED;
    }
    for (Clue clue : CLUES) {
      for (String word : clue.words()) {
        if (text.contains(word)) {
          return clue.kind();
        }
      }
    }
    return Kind.OTHER;
  }

  private static final Pattern SAME_DEVICE =
      Pattern.compile("rank (\\d+) and rank (\\d+) both on CUDA device ([0-9a-fA-F]+)");

  private static final Pattern CHECKED =
      Pattern.compile(
          "mismatch (enforced|recommended):\\s*(NCCL_\\w+)\\s*=\\s*(\\S*)\\s*\\(\\s*expected\\s*([^)\\s]*)\\s*\\)");

  /** The variable, its value and the expected one of gIB's config checker's line, or null. */
  private static io.topolens.model.NcclWarning.Detail checkedSetting(String message) {
    Matcher m = CHECKED.matcher(message);
    return m.find()
        ? new io.topolens.model.NcclWarning.Detail.CheckedSetting(
            m.group(2), m.group(3), m.group(4), m.group(1).equals("enforced"))
        : null;
  }

  private static final Pattern OUT_OF_RANGE =
      Pattern.compile("(NCCL_\\w+)=(\\S+) is out of range (\\[[^\\]]*\\])");

  private static final Pattern DEVICE = Pattern.compile("\\(device=([^,)\\s]+)");

  /**
   * The variable, value, device and range of NCCL's refusal of a setting: a value out of range
   * names all but the device; OOO RQ forced on names the device and stands for NCCL_IB_OOO_RQ.
   */
  private static io.topolens.model.NcclWarning.Detail refusedSetting(String message) {
    Matcher range = OUT_OF_RANGE.matcher(message);
    if (range.find()) {
      return new io.topolens.model.NcclWarning.Detail.RefusedSetting(
          range.group(1), range.group(2), null, range.group(3));
    }
    Matcher device = DEVICE.matcher(message);
    return new io.topolens.model.NcclWarning.Detail.RefusedSetting(
        "NCCL_IB_OOO_RQ", null, device.find() ? device.group(1) : null, null);
  }

  /**
   * graph/tuning.cc's getNthreads on NCCL_NTHREADS / NCCL_LL128_NTHREADS it could not use ({@code
   * Invalid NCCL_NTHREADS 100 (must be a multiple of 32)}, {@code (maximum 512).}, {@code (minimum
   * 64).}): the bound it used instead; either case of the text.
   */
  static boolean threadsOutOfBounds(String message) {
    String text = message.toLowerCase(Locale.ROOT);
    return text.contains("nthreads ")
        && (text.contains(" (must be a multiple of ")
            || text.contains(" (maximum ")
            || text.contains(" (minimum "));
  }

  /** The two ranks and the device of NCCL's duplicate-GPU text, or null. */
  private static io.topolens.model.NcclWarning.Detail sameDevice(String message) {
    Matcher m = SAME_DEVICE.matcher(message);
    return m.find()
        ? new io.topolens.model.NcclWarning.Detail.SameDevice(
            Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), m.group(3))
        : null;
  }

  /**
   * A program built against newer NCCL headers than the libnccl it loaded (lower-cased text): the
   * loader's {@code undefined symbol: ncclCommRegister} for an NCCL function (not a plugin's {@code
   * ncclNetPlugin_v5}, {@code ncclCollNetPlugin_v8}, {@code ncclTunerPlugin_v2}, {@code
   * ncclProfiler_v1}, which NCCL looks up in the plugin), and NCCL 2.14's config check refusing
   * {@code -2147483648}, the "not set" value newer headers' NCCL_CONFIG_INITIALIZER write ({@code
   * Invalid config blocking attribute value -2147483648}).
   */
  static boolean olderLibrary(String text) {
    if (text.contains(Needles.CONFIG_UNDEF)) {
      return true;
    }
    int at = text.indexOf(UNDEFINED_NCCL);
    if (at < 0) {
      return false;
    }
    String symbol = text.substring(at + UNDEFINED_NCCL.length() - 4);
    return !(symbol.startsWith("ncclnet")
        || symbol.startsWith("ncclcollnet")
        || symbol.startsWith("nccltuner")
        || symbol.startsWith("ncclprofiler")
        || symbol.startsWith("ncclgin")
        || symbol.startsWith("ncclenv"));
  }

  private static final String UNDEFINED_NCCL = "undefined symbol: nccl";
}
