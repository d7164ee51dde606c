package io.topolens.steps;

import io.topolens.model.Evidence;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;

/**
 * Step times held compactly, so that a log of millions of steps costs 32 bytes a step rather than
 * objects and a String each: four longs a step (step, seconds, line with file and kind, text
 * reference) in chunks of 8192 steps, so the list grows without copying or huge arrays; the line
 * texts are deflated in blocks ({@link LineTexts}) and a step's {@link Evidence} is made only when
 * it is read. Read-only once built.
 */
final class StepList extends AbstractList<StepTime> {
  private static final int CHUNK = 8192;
  private static final int LINE_BITS = 40;
  private static final long LINE_MASK = (1L << LINE_BITS) - 1;
  private static final Framework[] FRAMEWORKS = Framework.values();
  private static final Derivation[] DERIVATIONS = Derivation.values();

  private final List<String> files = new ArrayList<>();
  private final LineTexts texts = new LineTexts();
  private final List<long[]> chunks = new ArrayList<>();
  private int size;

  /** The steps of a list, held compactly. */
  static StepList of(List<StepTime> steps) {
    StepList l = new StepList();
    steps.forEach(l::put);
    return l;
  }

  /** Adds a step. */
  void put(StepTime s) {
    put(
        s.step(),
        s.seconds(),
        s.framework(),
        s.derivation(),
        s.warmup(),
        s.evidence().file(),
        s.evidence().line(),
        s.evidence().text());
  }

  /** Adds a step, its evidence given by its parts (none made for a step of millions). */
  void put(
      long step,
      double seconds,
      Framework framework,
      Derivation derivation,
      boolean warmup,
      String file,
      long line,
      String text) {
    int f = files.indexOf(file);
    if (f < 0) {
      f = files.size();
      files.add(file);
    }
    if (f > 0xFFFF || line > LINE_MASK) {
      throw new IllegalStateException("more than 65536 files or 2^40 lines of step times");
    }
    // kind: framework (3 bits), derivation (3 bits), warm-up (1 bit); then the file (16 bits)
    long kind = framework.ordinal() << 4 | derivation.ordinal() << 1 | (warmup ? 1 : 0);
    append(
        step,
        Double.doubleToRawLongBits(seconds),
        (long) f << (LINE_BITS + 8) | kind << LINE_BITS | line,
        texts.put(text));
  }

  /** Appends another list's steps, taking over its line texts. */
  void putAll(StepList other) {
    long shift = texts.adopt(other.texts);
    for (int i = 0; i < other.size; i++) {
      long meta = other.field(i, 2);
      String name = other.files.get((int) (meta >>> (LINE_BITS + 8)));
      int f = files.indexOf(name);
      if (f < 0) {
        f = files.size();
        files.add(name);
      }
      append(
          other.field(i, 0),
          other.field(i, 1),
          (long) f << (LINE_BITS + 8) | (meta & ((1L << (LINE_BITS + 8)) - 1)),
          other.field(i, 3) + shift);
    }
  }

  private void append(long step, long seconds, long meta, long text) {
    if (size % CHUNK == 0) {
      chunks.add(new long[CHUNK * 4]);
    }
    long[] c = chunks.get(size / CHUNK);
    int at = size % CHUNK * 4;
    c[at] = step;
    c[at + 1] = seconds;
    c[at + 2] = meta;
    c[at + 3] = text;
    size++;
  }

  private long field(int i, int f) {
    return chunks.get(i / CHUNK)[i % CHUNK * 4 + f];
  }

  private int kind(int i) {
    return (int) (field(i, 2) >>> LINE_BITS) & 0xFF;
  }

  @Override
  public StepTime get(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException(i);
    }
    return new StepTime(
        field(i, 0), seconds(i), framework(i), derivation(i), warmup(i), evidence(i));
  }

  @Override
  public int size() {
    return size;
  }

  /** The line of step i, its text read back from the deflated blocks. */
  Evidence evidence(int i) {
    long meta = field(i, 2);
    return new Evidence(
        files.get((int) (meta >>> (LINE_BITS + 8))), meta & LINE_MASK, texts.get(field(i, 3)));
  }

  double seconds(int i) {
    return Double.longBitsToDouble(field(i, 1));
  }

  boolean warmup(int i) {
    return (kind(i) & 1) != 0;
  }

  /** The summary's group of step i: its derivation and framework. */
  int group(int i) {
    return derivation(i).ordinal() * 100 + framework(i).ordinal();
  }

  Framework framework(int i) {
    return FRAMEWORKS[kind(i) >>> 4];
  }

  Derivation derivation(int i) {
    return DERIVATIONS[kind(i) >>> 1 & 7];
  }
}
