package io.topolens.nccl;

import io.topolens.model.NcclWarning.Detail;
import io.topolens.model.NcclWarning.Detail.IbCompletion;
import io.topolens.model.NcclWarning.Detail.VerbsCall;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what an IB verbs failure line names, in the words of NCCL's ibvwrap and net_ib.cc across
 * versions and of the IB net plugins (HPC-X's ib_plugin.c): the verbs call and its errno ({@code
 * Call to ibv_modify_qp failed with 110 Connection timed out, ... local GID ::ffff:10.0.0.11,
 * remote GID ::ffff:10.0.0.12}; {@code Call to ibv_reg_mr failed with error Cannot allocate
 * memory}; before 2.12 and in the plugins {@code Call to ibv_reg_mr failed}), or a completion's
 * status, vendor error, peer and HCA ({@code Got completion from peer 10.0.0.12<43567> with
 * status=4 opcode=0 len=0 vendor err 81 (Send) ... hca mlx5_0}; 2.19 on also {@code
 * status=IBV_WC_LOC_PROT_ERR(4)}, {@code vendor_err=81}; before 2.19 {@code with error 4, opcode 0,
 * len 0, vendor err 81}). Called only for lines already read as IB or locked-memory ones.
 */
final class IbFailures {
  private IbFailures() {}

  private static final Pattern CALL =
      Pattern.compile(
          "Call to (ibv_\\w+|mlx5dv_\\w+)(?:\\(\\))? failed(?: with(?: error)? (-?\\d+)?\\s*([A-Za-z][A-Za-z ]*)?)?");

  private static final Pattern GID =
      Pattern.compile("(?i)(local|remote)\\s?gids?\\s*((?:[0-9a-f]{0,4}:){2,7}[0-9a-f.]*[0-9a-f])");

  private static final Pattern STATUS =
      Pattern.compile("(?:status=(?:IBV_WC_\\w+\\()?|with error )(\\d+)");

  private static final Pattern VENDOR = Pattern.compile("vendor[ _]err(?:=| )(\\d+)");

  private static final Pattern PEER =
      Pattern.compile("from peer (?!with )(\\S+?)(?:<\\d+>)?(?=\\s|,|$)");

  private static final Pattern HCA = Pattern.compile("\\bhca (\\w+)");

  /** The errno each error text of strerror stands for, for the lines that print only the text. */
  private static final Map<String, Integer> ERRNOS =
      Map.ofEntries(
          Map.entry("operation not permitted", 1),
          Map.entry("no such file or directory", 2),
          Map.entry("input/output error", 5),
          Map.entry("cannot allocate memory", VerbsCall.NO_MEMORY),
          Map.entry("permission denied", 13),
          Map.entry("bad address", 14),
          Map.entry("device or resource busy", 16),
          Map.entry("no such device", 19),
          Map.entry("invalid argument", VerbsCall.INVALID_ARGUMENT),
          Map.entry("no data available", 61),
          Map.entry("operation not supported", 95),
          Map.entry("network is unreachable", 101),
          Map.entry("connection timed out", VerbsCall.TIMED_OUT),
          Map.entry("no route to host", 113));

  /** What the line names, or null where it is neither a verbs call's failure nor a completion. */
  static Detail read(String message) {
    Matcher call = CALL.matcher(message);
    if (call.find()) {
      List<String> gids = gids(message);
      return new VerbsCall(
          call.group(1), errno(call.group(2), call.group(3)), gids, addresses(gids));
    }
    if (!message.contains("completion")) {
      return null;
    }
    Matcher status = STATUS.matcher(message);
    if (!status.find()) {
      return null;
    }
    Matcher vendor = VENDOR.matcher(message);
    Matcher peer = PEER.matcher(message);
    Matcher hca = HCA.matcher(message);
    return new IbCompletion(
        Integer.parseInt(status.group(1)),
        vendor.find() ? Integer.parseInt(vendor.group(1)) : -1,
        peer.find() ? peer.group(1) : null,
        hca.find() ? hca.group(1) : null);
  }

  private static int errno(String number, String text) {
    if (number != null) {
      return Math.abs(Integer.parseInt(number));
    }
    if (text == null) {
      return 0;
    }
    String t = text.strip().toLowerCase(java.util.Locale.ROOT);
    for (Map.Entry<String, Integer> e : ERRNOS.entrySet()) {
      if (t.startsWith(e.getKey())) {
        return e.getValue();
      }
    }
    return 0;
  }

  /** The local then the remote GID the line names, where it names both. */
  private static List<String> gids(String message) {
    String local = null;
    String remote = null;
    Matcher m = GID.matcher(message);
    while (m.find()) {
      if (m.group(1).equalsIgnoreCase("local") && local == null) {
        local = m.group(2);
      } else if (m.group(1).equalsIgnoreCase("remote") && remote == null) {
        remote = m.group(2);
      }
    }
    List<String> out = new ArrayList<>(2);
    if (local != null && remote != null) {
      out.add(local);
      out.add(remote);
    }
    return out;
  }

  /** The IPv4 address each GID maps ({@code ::ffff:192.168.100.1}), or none unless all do. */
  static List<Inet4Address> addresses(List<String> gids) {
    List<Inet4Address> out = new ArrayList<>(gids.size());
    for (String g : gids) {
      try {
        if (InetAddress.ofLiteral(g) instanceof Inet4Address v4) {
          out.add(v4);
          continue;
        }
      } catch (IllegalArgumentException e) {
        // not an address: a GID cut short by the line's end
      }
      return List.of();
    }
    return out;
  }
}
