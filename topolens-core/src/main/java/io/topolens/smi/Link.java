package io.topolens.smi;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One cell of a {@code nvidia-smi topo -m} matrix.
 *
 * @param kind the connection class
 * @param nvlinks how many NVLinks are bonded (the # of {@code NV#}); 0 for every other class
 * @param text the cell as printed, trimmed ({@code SOC} stays {@code SOC})
 */
public record Link(LinkKind kind, int nvlinks, String text) {
  private static final Pattern NV = Pattern.compile("NV(\\d{1,4})");

  /**
   * Reads a cell; null when the text is no class nvidia-smi documents (the caller counts the row as
   * malformed rather than guessing).
   */
  public static Link parse(String cell) {
    String t = cell.trim();
    Matcher m = NV.matcher(t);
    if (m.matches()) {
      int n = Integer.parseInt(m.group(1));
      return n > 0 ? new Link(LinkKind.NVLINK, n, t) : null;
    }
    if (t.equals("NV#")) {
      return null;
    }
    if (!t.equals(t.toUpperCase(Locale.ROOT))) {
      return null;
    }
    LinkKind k = LinkKind.ofLegendCode(t);
    return k == null ? null : new Link(k, 0, t);
  }

  /** The class as a short label: {@code NV18}, {@code PIX}, {@code SYS} (for {@code SOC} too). */
  public String label() {
    return kind == LinkKind.NVLINK ? "NV" + nvlinks : kind.code();
  }

  /** True when this is a better peer-to-peer path than {@code other}. */
  public boolean betterThan(Link other) {
    if (kind != other.kind) {
      return kind.betterThan(other.kind);
    }
    return nvlinks > other.nvlinks;
  }

  @Override
  public String toString() {
    return text;
  }
}
