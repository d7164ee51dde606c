package io.topolens.smi;

import io.topolens.model.Evidence;
import io.topolens.model.LineSample;
import java.util.ArrayList;
import java.util.List;

/** Counts lines of one sort and keeps the first few as samples. */
final class Samples {
  static final int KEEP = 20;

  private long count;
  private final List<Evidence> kept = new ArrayList<>();

  void add(Evidence e) {
    count++;
    if (kept.size() < KEEP) {
      kept.add(e);
    }
  }

  LineSample toSample() {
    return new LineSample(count, List.copyOf(kept));
  }
}
