package io.topolens.model;

import java.util.ArrayList;
import java.util.List;

/** Counts lines (or elements) of one sort and keeps the first few as samples. */
public final class SampleCounter {
  /** How many samples are kept. */
  public static final int KEEP = 20;

  private long count;
  private final List<Evidence> kept = new ArrayList<>();

  public void add(Evidence e) {
    count++;
    if (kept.size() < KEEP) {
      kept.add(e);
    }
  }

  public LineSample toSample() {
    return new LineSample(count, List.copyOf(kept));
  }
}
