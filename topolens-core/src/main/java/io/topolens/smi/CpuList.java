package io.topolens.smi;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Linux CPU list text ({@code 0-23,48-71}, {@code 6,14,22,30}) as the CPU numbers it names. */
public final class CpuList {
  private static final Pattern LIST =
      Pattern.compile("\\d{1,6}(?:-\\d{1,6})?(?:,\\d{1,6}(?:-\\d{1,6})?)*");
  private static final Pattern PART = Pattern.compile("(\\d+)(?:-(\\d+))?");
  private static final int MAX_CPUS = 1 << 16;

  private CpuList() {}

  /**
   * The CPUs the text names in ascending order as written, or null when the text is no CPU list
   * ({@code N/A}, empty, a reversed or absurd range).
   */
  public static List<Integer> parse(String text) {
    if (text == null || !LIST.matcher(text.trim()).matches()) {
      return null;
    }
    List<Integer> cpus = new ArrayList<>();
    Matcher m = PART.matcher(text.trim());
    while (m.find()) {
      int lo = Integer.parseInt(m.group(1));
      int hi = m.group(2) == null ? lo : Integer.parseInt(m.group(2));
      if (hi < lo || cpus.size() + (hi - lo + 1) > MAX_CPUS) {
        return null;
      }
      for (int c = lo; c <= hi; c++) {
        cpus.add(c);
      }
    }
    return List.copyOf(cpus);
  }
}
