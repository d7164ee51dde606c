package io.topolens.report;

import io.topolens.smi.Link;
import io.topolens.smi.LinkKind;
import io.topolens.smi.NicAffinity;
import io.topolens.smi.TopoMatrix;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code nvidia-smi topo -m} matrix as the report draws it: every device pair's link class as
 * printed, shaded from NVLink (best) to SYS (crossing sockets), and which GPUs each NIC sits
 * closest to.
 */
public record LinkGrid(
    String file, List<String> devices, List<List<Cell>> rows, List<NicAffinity> nics) {

  /** One cell: the class as printed ({@code NV18}, {@code SYS}) and its shade. */
  public record Cell(String text, String css, String title) {}

  public static LinkGrid of(TopoMatrix m) {
    List<String> devices = new ArrayList<>(m.gpus());
    devices.addAll(m.nics());
    List<List<Cell>> rows = new ArrayList<>();
    for (String a : devices) {
      List<Cell> row = new ArrayList<>();
      for (String b : devices) {
        Link l = a.equals(b) ? null : m.link(a, b);
        row.add(
            a.equals(b)
                ? new Cell("X", "l-self", a)
                : l == null
                    ? new Cell("", "l-none", a + " to " + b + ": not read")
                    : new Cell(
                        l.label(), css(l.kind()), a + " to " + b + ": " + l.kind().meaning()));
      }
      rows.add(row);
    }
    return new LinkGrid(m.file(), devices, rows, List.copyOf(m.nicAffinity().values()));
  }

  /** The CSS class of a link class. */
  public static String css(LinkKind k) {
    return "l-" + k.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The legend: every class with what it means. */
  public static List<LinkKind> legend() {
    return List.of(
        LinkKind.NVLINK, LinkKind.PIX, LinkKind.PXB, LinkKind.PHB, LinkKind.NODE, LinkKind.SYS);
  }
}
