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
                  "imex",
                  "mnnvl",
                  "cumemimportfromshareablehandle")),
          // CUDACHECK/CUCHECK print the CUDA error string ("Cuda failure 'out of memory'", "Cuda
          // failure 2
          // 'out of memory'"); alloc.h then "Failed to CUDA calloc|malloc N bytes"
          new Clue(
              Kind.GPU_MEMORY,
              List.of("'out of memory'", "failed to cuda calloc", "failed to cuda malloc")),
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
