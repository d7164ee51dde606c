package io.topolens.steps;

import io.topolens.model.Evidence;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Step times held compactly, as columns of primitives, so that a log of millions of steps costs a
 * few dozen bytes a step rather than objects and a String each; the line texts are deflated in
 * blocks ({@link LineTexts}) and a step's {@link Evidence} is made only when it is read. Read-only
 * once built.
 */
final class StepList extends AbstractList<StepTime> {
  private final List<String> files = new ArrayList<>();
  private final LineTexts texts = new LineTexts();
  private long[] step = new long[16];
  private double[] seconds = new double[16];
  private long[] line = new long[16];
  private int[] file = new int[16];
  private long[] text = new long[16];
  private byte[] framework = new byte[16];
  private byte[] derivation = new byte[16];
  private boolean[] warmup = new boolean[16];
  private int size;

  private static final Framework[] FRAMEWORKS = Framework.values();
  private static final Derivation[] DERIVATIONS = Derivation.values();

  /** The steps of a list, held compactly. */
  static StepList of(List<StepTime> steps) {
    StepList l = new StepList();
    steps.forEach(l::put);
    return l;
  }

  /** Adds a step. */
  void put(StepTime s) {
    append(s, texts.put(s.evidence().text()));
  }

  /** Appends another list's steps, taking over its line texts. */
  void putAll(StepList other) {
    long shift = texts.adopt(other.texts);
    for (int i = 0; i < other.size; i++) {
      append(
          other.step[i],
          other.seconds[i],
          other.line[i],
          other.files.get(other.file[i]),
          other.framework[i],
          other.derivation[i],
          other.warmup[i],
          other.text[i] + shift);
    }
  }

  private void append(StepTime s, long textRef) {
    append(
        s.step(),
        s.seconds(),
        s.evidence().line(),
        s.evidence().file(),
        (byte) s.framework().ordinal(),
        (byte) s.derivation().ordinal(),
        s.warmup(),
        textRef);
  }

  private void append(
      long st, double sec, long ln, String name, byte fw, byte der, boolean warm, long textRef) {
    if (size == step.length) {
      int n = size * 2;
      step = Arrays.copyOf(step, n);
      seconds = Arrays.copyOf(seconds, n);
      line = Arrays.copyOf(line, n);
      file = Arrays.copyOf(file, n);
      framework = Arrays.copyOf(framework, n);
      derivation = Arrays.copyOf(derivation, n);
      warmup = Arrays.copyOf(warmup, n);
      text = Arrays.copyOf(text, n);
    }
    int f = files.indexOf(name);
    if (f < 0) {
      f = files.size();
      files.add(name);
    }
    step[size] = st;
    seconds[size] = sec;
    line[size] = ln;
    file[size] = f;
    framework[size] = fw;
    derivation[size] = der;
    warmup[size] = warm;
    text[size] = textRef;
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
        evidence(i));
  }

  @Override
  public int size() {
    return size;
  }

  /** The line of step i, its text read back from the deflated blocks. */
  Evidence evidence(int i) {
    return new Evidence(files.get(file[i]), line[i], texts.get(text[i]));
  }

  double seconds(int i) {
    return seconds[i];
  }

  boolean warmup(int i) {
    return warmup[i];
  }

  /** The summary's group of step i: its derivation and framework. */
  int group(int i) {
    return derivation[i] * 100 + framework[i];
  }

  Framework framework(int i) {
    return FRAMEWORKS[framework[i]];
  }

  Derivation derivation(int i) {
    return DERIVATIONS[derivation[i]];
  }
}
