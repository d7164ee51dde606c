package io.topolens.nccl;

import io.topolens.model.PathDetail;
import io.topolens.model.PathDetail.P2pMode;
import io.topolens.model.Transport;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads the text after {@code via} in a connection line, in every form NCCL 2.4 to 2.28 prints:
 * {@code P2P/IPC}, {@code P2P/direct pointer}, {@code P2P/CUMEM/read}, {@code P2P/indirect/2[2]},
 * {@code direct shared memory}, {@code SHM/direct/direct}, {@code NET/Socket/0}, {@code
 * NET/IB/0/GDRDMA}, {@code NET/AWS Libfabric/2(4)/GDRDMA/Shared}, {@code NVLS}, {@code CollNet}.
 */
public final class PathParser {
  private PathParser() {}

  /** How many distinct texts {@link #shared} keeps; a job prints a handful. */
  static final int SHARED_MAX = 512;

  private static final Map<String, PathDetail> SHARED = new ConcurrentHashMap<>();

  /**
   * {@link #parse}, answered from the paths already read where the same text came before: a big
   * job's connection lines name a handful of paths millions of times, each of which {@code parse}
   * would split and allocate again; its edges then share one path object per text. Paths are
   * immutable records, equal by their text; past {@link #SHARED_MAX} texts new ones are parsed.
   */
  static PathDetail shared(String raw) {
    PathDetail known = SHARED.get(raw);
    if (known != null) {
      return known;
    }
    PathDetail path = parse(raw);
    if (SHARED.size() < SHARED_MAX) {
      SHARED.putIfAbsent(raw, path);
    }
    return path;
  }

  /**
   * The path a connection line names after {@code via}; text it cannot place is {@link
   * PathDetail.Unknown}.
   */
  public static PathDetail parse(String raw) {
    String text = raw.strip();
    if (text.startsWith("P2P/") || text.equals("P2P")) {
      return p2p(text);
    }
    if (text.startsWith("SHM")
        || text.equals("direct shared memory")
        || text.startsWith("shared memory")) {
      return new PathDetail.Shm(text);
    }
    if (text.startsWith("NET/")) {
      return net(text);
    }
    if (text.startsWith("NVLS")) {
      return new PathDetail.Collective(text, Transport.NVLS);
    }
    if (text.startsWith("CollNet") || text.startsWith("COLLNET") || text.startsWith("SHARP")) {
      return new PathDetail.Collective(text, Transport.COLLNET);
    }
    return new PathDetail.Unknown(text);
  }

  private static PathDetail p2p(String text) {
    String[] parts = text.split("/");
    P2pMode mode = P2pMode.OTHER;
    boolean read = false;
    boolean ce = false;
    Integer via = null;
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i];
      switch (p) {
        case "direct pointer" -> mode = P2pMode.DIRECT_POINTER;
        case "CUMEM" -> mode = P2pMode.CUMEM;
        case "IPC" -> mode = P2pMode.IPC;
        case "MNNVL" -> mode = P2pMode.MNNVL;
        case "indirect" -> mode = P2pMode.INDIRECT;
        case "read" -> read = true;
        case "CE" -> ce = true;
        default -> {
          if (mode == P2pMode.INDIRECT && via == null) {
            via = leadingInt(p);
          }
        }
      }
    }
    return new PathDetail.P2p(text, mode, read, ce, via);
  }

  /** {@code NET/<plugin>/<dev>[(<proxy>)][/GDRDMA][/Shared]}; the plugin name may hold spaces. */
  private static PathDetail net(String text) {
    String body = text.substring(4);
    String[] parts = body.split("/");
    if (parts.length == 0 || parts[0].isEmpty()) {
      return new PathDetail.Unknown(text);
    }
    String plugin = parts[0];
    Integer device = null;
    Integer proxy = null;
    boolean gdr = false;
    boolean shared = false;
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i];
      if (p.equals("GDRDMA")) {
        gdr = true;
      } else if (p.equals("Shared")) {
        shared = true;
      } else if (device == null && !p.isEmpty() && Character.isDigit(p.charAt(0))) {
        device = leadingInt(p);
        int open = p.indexOf('(');
        if (open > 0 && p.endsWith(")")) {
          proxy = leadingInt(p.substring(open + 1, p.length() - 1));
        }
      }
    }
    return new PathDetail.Net(text, plugin, device, proxy, gdr, shared);
  }

  private static Integer leadingInt(String s) {
    int i = 0;
    while (i < s.length() && Character.isDigit(s.charAt(i))) {
      i++;
    }
    return i == 0 ? null : Integer.parseInt(s, 0, Math.min(i, 9), 10);
  }
}
