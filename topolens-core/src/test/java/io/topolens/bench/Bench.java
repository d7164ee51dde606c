package io.topolens.bench;

import io.topolens.Fixtures;
import io.topolens.nccl.InputProblem;
import java.nio.file.Path;

/** Reads bundled nccl-tests outputs for the tests. */
final class Bench {
  private Bench() {}

  static BenchFile read(String resource) {
    Path p = Fixtures.path(resource);
    try {
      return new NcclTestsReader().read(p, p.getFileName().toString());
    } catch (InputProblem e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  static BenchFile read(Path p) throws InputProblem {
    return new NcclTestsReader().read(p, p.getFileName().toString());
  }

  /**
   * A value as nccl-tests 2.19 prints it ({@code getFloatStr} in src/util.cu): two decimals while
   * they fit the column, then one, then none.
   */
  static double printed(double value, int width) {
    int power = 0;
    for (long v = 1; value >= v; v *= 10) {
      power++;
    }
    String s;
    if (power < width - 2) {
      s = String.format(java.util.Locale.ROOT, "%.2f", value);
    } else if (power < width - 1) {
      s = String.format(java.util.Locale.ROOT, "%.1f", value);
    } else {
      s = String.format(java.util.Locale.ROOT, "%.0f", value);
    }
    return Double.parseDouble(s);
  }
}
