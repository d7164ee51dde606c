package io.topolens.steps;

import io.topolens.model.Evidence;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Step times held compactly, as columns of primitives, so that a log of millions of steps costs a
 * few dozen bytes a step. A step's line text is kept only for the first step of each time (per
 * framework, derivation and warm-up), the one a summary cites as its example; every other step
 * reads back with its file and line and an empty text. Read-only once built.
 */
final class StepList extends AbstractList<StepTime> {
  private final List<String> files = new ArrayList<>();
  private final Map<Integer, String> texts = new HashMap<>();
  private final Set<Key> seen = new HashSet<>();
  private long[] step = new long[16];
  private double[] seconds = new double[16];
  private long[] line = new long[16];
  private int[] file = new int[16];
  private byte[] framework = new byte[16];
  private byte[] derivation = new byte[16];
  private boolean[] warmup = new boolean[16];
  private int size;

  /** What makes a step's time the first of its kind, whose line text is kept. */
  private record Key(int framework, int derivation, boolean warmup, long bits) {}

  private static final Framework[] FRAMEWORKS = Framework.values();
  private static final Derivation[] DERIVATIONS = Derivation.values();

  /** Adds a step, keeping its line text when it is the first of its time. */
  void put(StepTime s) {
    Key k =
        new Key(
            s.framework().ordinal(),
            s.derivation().ordinal(),
            s.warmup(),
            Double.doubleToLongBits(s.seconds()));
    append(s, seen.add(k) ? s.evidence().text() : null);
  }

  /** Appends another list's steps, with the line texts it kept. */
  void putAll(StepList other) {
    for (int i = 0; i < other.size; i++) {
      append(other.get(i), other.texts.get(i));
    }
  }

  private void append(StepTime s, String text) {
    if (size == step.length) {
      int n = size * 2;
      step = Arrays.copyOf(step, n);
      seconds = Arrays.copyOf(seconds, n);
      line = Arrays.copyOf(line, n);
      file = Arrays.copyOf(file, n);
      framework = Arrays.copyOf(framework, n);
      derivation = Arrays.copyOf(derivation, n);
      warmup = Arrays.copyOf(warmup, n);
    }
    int f = files.indexOf(s.evidence().file());
    if (f < 0) {
      f = files.size();
      files.add(s.evidence().file());
    }
    step[size] = s.step();
    seconds[size] = s.seconds();
    line[size] = s.evidence().line();
    file[size] = f;
    framework[size] = (byte) s.framework().ordinal();
    derivation[size] = (byte) s.derivation().ordinal();
    warmup[size] = s.warmup();
    if (text != null) {
      texts.put(size, text);
    }
    size++;
  }

  @Override
  public StepTime get(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException(i);
    }
    return new StepTime(
        step[i],
        seconds[i],
        FRAMEWORKS[framework[i]],
        DERIVATIONS[derivation[i]],
        warmup[i],
        new Evidence(files.get(file[i]), line[i], texts.getOrDefault(i, "")));
  }

  @Override
  public int size() {
    return size;
  }

  /** How many line texts are kept: one for each distinct time, not one for each step. */
  int textsKept() {
    return texts.size();
  }
}
