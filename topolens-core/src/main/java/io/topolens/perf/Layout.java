package io.topolens.perf;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pods per node and GPUs per pod, written {@code PODSxGPUS} as {@code predict} and {@code compare}
 * take it: {@code 1x4} is one pod with 4 GPUs, {@code 4x1} four pods of one GPU each.
 */
public record Layout(int pods, int gpusPerPod) {

  private static final Pattern FORM = Pattern.compile("(\\d+)\\s*[xX*]\\s*(\\d+)");

  public Layout {
    if (pods < 1 || gpusPerPod < 1) {
      throw new IllegalArgumentException("a layout needs at least 1 pod of 1 GPU");
    }
  }

  /**
   * Parses {@code 2x2}.
   *
   * @throws IllegalArgumentException naming the expected form
   */
  public static Layout parse(String text) {
    Matcher m = FORM.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "layout \"" + text + "\" is not PODSxGPUS (e.g. 1x4 or 4x1)");
    }
    return new Layout(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
  }

  /** Ranks on one node. */
  public int ranksPerNode() {
    return pods * gpusPerPod;
  }

  @Override
  public String toString() {
    return pods + "x" + gpusPerPod;
  }
}
