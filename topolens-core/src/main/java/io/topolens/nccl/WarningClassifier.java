package io.topolens.nccl;

import io.topolens.model.NcclWarning.Kind;
import java.util.List;
import java.util.Locale;

/**
 * Says what a WARN (or failure) message is about, from the words NCCL and its plugins use. The
 * first matching kind wins, so the most specific kinds come first.
 */
final class WarningClassifier {
  private WarningClassifier() {}

  private record Clue(Kind kind, List<String> words) {}

  private static final List<Clue> CLUES =
      List.of(
          new Clue(
              Kind.VERSION, List.of("mismatched nccl version", "mismatched nccl git versions")),
          // init.cc since 2.4: "Duplicate GPU detected : rank %d and rank %d both on CUDA device
          // %lx"
          new Clue(Kind.DUPLICATE_GPU, List.of("duplicate gpu detected")),
          // net_ib.cc "collective mismatch error, local size %d remote size %d"; net_socket.cc and
          // bootstrap "message truncated : receiving|received %d bytes instead of %d"; 2.4's
          // enqueue check "Mismatched collective detected, please check your collective calls"
          new Clue(
              Kind.COLLECTIVE_MISMATCH,
              List.of(
                  "collective mismatch",
                  "mismatched collective",
                  "message truncated",
                  "truncated message")),
          // CUDACHECK's text of cudaErrorInsufficientDriver (35) and of the driver/runtime
          // combination errors (803, 804)
          new Clue(
              Kind.CUDA_DRIVER,
              List.of(
                  "driver version is insufficient",
                  "cudaerrorinsufficientdriver",
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
                  "cudaerrornodevice")),
          // CUDA's sticky kernel faults as CUDACHECK prints them: 700 "an illegal memory access was
          // encountered", 715 "an illegal instruction was encountered", 716 "misaligned address",
          // 719 "unspecified launch failure"
          new Clue(
              Kind.CUDA_FAULT,
              List.of(
                  "illegal memory access",
                  "illegal instruction was encountered",
                  "'misaligned address'",
                  "unspecified launch failure")),
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
                  // init.cc (2.4+): "Invalid rank requested : %d/%d", a rank outside 0..nranks-1
                  "invalid rank requested")),
          // ibvwrap.cc: "Call to ibv_reg_dmabuf_mr failed with error %s": before IB, whose "ibv_"
          // it holds
          new Clue(Kind.DMABUF, List.of("ibv_reg_dmabuf_mr")),
          // net_ib.cc: "NET/IB : Unable to open device %s" after ibvwrap.cc's "Call to
          // ibv_open_device failed": before IB, whose "NET/IB" and "ibv_" they hold
          new Clue(Kind.IB_DEVICE, List.of("unable to open device", "ibv_open_device failed")),
          // enqueue.cc (2.7+): "Error : no algorithm/protocol available[ for function %s with
          // datatype %s.][ NCCL_ALGO was set to %s.][ NCCL_PROTO was set to %s.]"
          new Clue(Kind.ALGORITHM, List.of("no algorithm/protocol available")),
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
                  "could not find nvs with id")),
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
              List.of("cannot initialize collnet", "sharp coll init", "sharp group create")),
          new Clue(
              Kind.IB,
              List.of(
                  "net/ib",
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
                  "transport retry counter exceeded",
                  "gid index")),
          new Clue(
              Kind.NET_PLUGIN,
              List.of("net/ofi", "net/plugin", "libfabric", "efa", "net plugin", "aws-ofi-nccl")),
          new Clue(Kind.P2P, List.of("peer access", "p2p", "cudaipc", "cuda ipc", "ipc handle")),
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
                  "no route to host")));

  static Kind classify(String location, String message) {
    String text = (location + " " + message).toLowerCase(Locale.ROOT);
    // ibvwrap's "Call to ibv_reg_mr|ibv_create_cq|ibv_create_qp failed with error Cannot allocate
    // memory" (ENOMEM): the locked-memory limit, not the fabric
    if (text.contains("cannot allocate memory")
        && (text.contains("ibv_") || text.contains("net/ib"))) {
      return Kind.LOCKED_MEMORY;
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
}
