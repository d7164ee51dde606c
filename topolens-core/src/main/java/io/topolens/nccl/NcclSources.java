package io.topolens.nccl;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * NCCL's own source files and internal functions, as stack dumps print them beside frames that hold
 * no {@code nccl}: py-spy's {@code doLaunches (group.cc:161)}, gdb's {@code #1 0x... in
 * persistentThread (comm_=0x...) at proxy.cc:456} and {@code ... at misc/ibvwrap.cc:220} (NCCL
 * linked into the framework, so no {@code libnccl} either). The files are those of NCCL's {@code
 * src/} tree (NVIDIA/nccl, 2.4 to 2.28: {@code src/*.cc}, {@code src/misc/}, {@code
 * src/transport/}, {@code src/graph/}), by base name; the functions are those of its threads and
 * launch path that lack the {@code nccl} prefix.
 */
final class NcclSources {
  private NcclSources() {}

  /** NCCL's source files outside {@code src/transport/}, by base name. */
  private static final List<String> SRC =
      List.of(
          // src/
          "bootstrap.cc",
          "enqueue.cc",
          "group.cc",
          "init.cc",
          "proxy.cc",
          "channel.cc",
          "transport.cc",
          "collectives.cc",
          "allocator.cc",
          "mnnvl.cc",
          // src/misc/
          "socket.cc",
          "ipcsocket.cc",
          "ibvwrap.cc",
          "cudawrap.cc",
          "nvmlwrap.cc",
          "gdrwrap.cc",
          "shmutils.cc",
          "strongstream.cc",
          "argcheck.cc",
          // src/graph/
          "connect.cc",
          "paths.cc",
          "rings.cc",
          "trees.cc",
          "tuning.cc");

  /** NCCL's {@code src/transport/} files, printed with their folder ({@code transport/net.cc}). */
  private static final List<String> TRANSPORT =
      List.of(
          "net.cc",
          "net_ib.cc",
          "net_socket.cc",
          "p2p.cc",
          "shm.cc",
          "coll_net.cc",
          "nvls.cc",
          "generic.cc");

  /** NCCL's source files, by base name. */
  static final Set<String> FILES =
      Stream.concat(SRC.stream(), TRANSPORT.stream())
          .collect(java.util.stream.Collectors.toUnmodifiableSet());

  /**
   * NCCL's internal functions without its prefix: the bootstrap's ({@code bootstrapNetAccept},
   * {@code bootstrapRoot}, {@code bootstrapAllGather}, by the prefix), the proxy's and the socket
   * transport's threads, the group launch.
   */
  private static final List<String> FUNCTIONS_LISTED =
      List.of(
          "persistentThread",
          "persistentSocketThread",
          "doLaunches",
          "groupLaunch",
          "initTransportsRank",
          "commReclaim");

  static final Set<String> FUNCTIONS = Set.copyOf(FUNCTIONS_LISTED);

  /**
   * The line filter's needles for these frames ({@link Needles#STACK_FRAMES}): {@code bootstrap}
   * (its functions and file), the other functions, each file outside {@code src/transport/} with
   * its colon ({@code group.cc:}), and {@code transport/} for the transport's files; a needle that
   * holds another is left out (the other finds its lines). All are 8 bytes or more, so the filter's
   * one multi-needle pass finds them without a search of their own.
   */
  static List<String> needles() {
    List<String> all = new ArrayList<>();
    all.add("bootstrap");
    all.addAll(FUNCTIONS_LISTED);
    SRC.forEach(f -> all.add(f + ":"));
    all.add("transport/");
    return all.stream()
        .filter(n -> all.stream().noneMatch(o -> !o.equals(n) && n.contains(o)))
        .distinct()
        .toList();
  }

  /** The folders of NCCL's tree its files sit in ({@code src/}, {@code src/misc/}...). */
  private static final Set<String> FOLDERS = Set.of("src", "misc", "transport", "graph");

  /**
   * Whether a frame's place ({@code group.cc:161}, {@code /src/transport/net_ib.cc:70}) is NCCL's:
   * one of its files by base name, printed alone or in one of NCCL's folders (or under a path that
   * names nccl). Names such as {@code init.cc} and {@code socket.cc} are common: gRPC's {@code
   * src/core/lib/surface/init.cc} or gloo's {@code gloo/transport/tcp/socket.cc} are not NCCL's.
   */
  static boolean file(String source) {
    int colon = source.lastIndexOf(':');
    String path = colon > 0 ? source.substring(0, colon) : source;
    int slash = path.lastIndexOf('/');
    if (!FILES.contains(path.substring(slash + 1))) {
      return false;
    }
    if (slash < 0) {
      return true;
    }
    String folder = path.substring(path.lastIndexOf('/', slash - 1) + 1, slash);
    return FOLDERS.contains(folder) || path.toLowerCase(java.util.Locale.ROOT).contains("nccl");
  }

  /** Whether a function is one of NCCL's internal ones that lack its prefix. */
  static boolean function(String name) {
    return FUNCTIONS.contains(name)
        || (name.length() > 9
            && name.startsWith("bootstrap")
            && Character.isUpperCase(name.charAt(9)));
  }
}
