package io.topolens.present;

import io.topolens.bench.BenchRow;
import io.topolens.bench.BenchRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs side by side: the out-of-place busbw of each run at every size all of them measured, and
 * each run's ratio to the first (the baseline).
 */
public record BenchComparison(List<BenchRun> runs, List<Line> lines) {

  /** One size: busbw per run, and busbw over the baseline's (1.0 for the baseline). */
  public record Line(long bytes, List<Double> busBw, List<Double> ratio) {}

  public static BenchComparison of(List<BenchRun> runs) {
    Map<Long, List<Double>> bySize = new LinkedHashMap<>();
    for (BenchRow r : runs.get(0).rows()) {
      bySize.putIfAbsent(r.bytes(), new ArrayList<>());
    }
    for (BenchRun run : runs) {
      Map<Long, Double> mine = new LinkedHashMap<>();
      for (BenchRow r : run.rows()) {
        mine.putIfAbsent(r.bytes(), r.outOfPlace().busBw());
      }
      bySize.entrySet().removeIf(e -> !mine.containsKey(e.getKey()));
      bySize.forEach((k, v) -> v.add(mine.get(k)));
    }
    List<Line> lines = new ArrayList<>();
    bySize.forEach(
        (bytes, bw) -> {
          if (bytes == 0) {
            return;
          }
          List<Double> ratio = new ArrayList<>();
          for (double b : bw) {
            ratio.add(bw.get(0) == 0 ? null : b / bw.get(0));
          }
          lines.add(new Line(bytes, List.copyOf(bw), ratio));
        });
    return new BenchComparison(List.copyOf(runs), List.copyOf(lines));
  }
}
