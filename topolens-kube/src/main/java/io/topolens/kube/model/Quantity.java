package io.topolens.kube.model;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes resource quantity ({@code 64Gi}, {@code 32000Mi}, {@code 500m}, {@code 8}, {@code
 * 1e3}) as its value in base units (bytes, cores, devices), and the text it was written as.
 */
public record Quantity(BigDecimal value, String text) {
  private static final Pattern FORM =
      Pattern.compile(
          "([+-]?(?:\\d+\\.?\\d*|\\.\\d+))(?:([eE][+-]?\\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?");
  private static final Map<String, BigDecimal> SUFFIX =
      Map.ofEntries(
          Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
          Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
          Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
          Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
          Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
          Map.entry("Ei", BigDecimal.valueOf(1L << 60)),
          Map.entry("n", new BigDecimal("1e-9")),
          Map.entry("u", new BigDecimal("1e-6")),
          Map.entry("m", new BigDecimal("1e-3")),
          Map.entry("k", new BigDecimal("1e3")),
          Map.entry("M", new BigDecimal("1e6")),
          Map.entry("G", new BigDecimal("1e9")),
          Map.entry("T", new BigDecimal("1e12")),
          Map.entry("P", new BigDecimal("1e15")),
          Map.entry("E", new BigDecimal("1e18")));

  /** Parses a quantity as Kubernetes does; empty when the text is not one. */
  public static Optional<Quantity> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String t = text.strip();
    Matcher m = FORM.matcher(t);
    if (!m.matches()) {
      return Optional.empty();
    }
    BigDecimal v = new BigDecimal(m.group(1));
    if (m.group(2) != null) {
      v = v.scaleByPowerOfTen(Integer.parseInt(m.group(2).substring(1)));
    } else if (m.group(3) != null) {
      v = v.multiply(SUFFIX.get(m.group(3)));
    }
    return Optional.of(new Quantity(v, t));
  }

  /** A quantity of {@code bytes}, written in the largest binary unit that divides it. */
  public static Quantity ofBytes(long bytes) {
    String[] units = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
    for (int i = 0; i < units.length; i++) {
      long unit = 1L << (10 * (6 - i));
      if (bytes >= unit && bytes % unit == 0) {
        return new Quantity(BigDecimal.valueOf(bytes), bytes / unit + units[i]);
      }
    }
    return new Quantity(BigDecimal.valueOf(bytes), Long.toString(bytes));
  }

  /** A whole number of devices or cores. */
  public static Quantity ofCount(long n) {
    return new Quantity(BigDecimal.valueOf(n), Long.toString(n));
  }

  /** The value rounded down to a long (bytes, devices). */
  public long asLong() {
    return value.setScale(0, RoundingMode.FLOOR).longValueExact();
  }

  /** Whether the value is a whole number (device counts must be). */
  public boolean isWhole() {
    return value.stripTrailingZeros().scale() <= 0;
  }

  /** The value in GiB, for messages. */
  public double gib() {
    return value.doubleValue() / (1L << 30);
  }

  /** {@code 64 GiB} style text for messages. */
  public static String gibText(double bytes) {
    double g = bytes / (1L << 30);
    return (g == Math.rint(g) ? String.valueOf((long) g) : String.format(Locale.ROOT, "%.1f", g))
        + " GiB";
  }

  @Override
  public String toString() {
    return text;
  }
}
