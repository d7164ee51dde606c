package io.topolens.report;

import java.util.List;
import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void writes() throws Exception {
    Examples.write("mixed", Examples.report(List.of(Examples.example("h200-mixed")), null));
    Examples.write("bench", Examples.report(List.of(Examples.example("h200-bench")), null));
    Examples.write("efa", Examples.report(List.of(Examples.example("eks-efa-fallback")), null));
    Examples.write(
        "compare", Examples.report(List.of(), Examples.EXAMPLES.resolve("perf/seed-runs.yaml")));
    Examples.write(
        "experiment", Examples.report(List.of("src/test/resources/experiment-h200"), null));
  }
}
