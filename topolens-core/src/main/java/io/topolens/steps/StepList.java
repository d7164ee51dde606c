package io.topolens.steps;

import io.topolens.model.Evidence;
import io.topolens.model.LineTexts;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;

/**
 * Step times held compactly, so that a log of millions of steps costs 32 to 40 bytes a step rather
 * than objects and a String each: four longs a step (step, seconds, line with file and kind, text
 * reference or place) in chunks of 8192 steps, so the list grows without copying or huge arrays. A
 * step of a file that can be read again keeps its line's place and a check of its bytes (a fifth
 * long, {@link LinePlace}), and its text is read again when it is cited; the other steps' line
 * texts are deflated in blocks ({@link LineTexts}). A step's {@link Evidence} is made only when it
 * is read. Read-only once built.
 */
final class StepList extends AbstractList<StepTime> {
  private static final int CHUNK = 8192;
  private static final int LINE_BITS = 40;
  private static final long LINE_MASK = (1L << LINE_BITS) - 1;
  private static final Framework[] FRAMEWORKS = Framework.values();
  private static final Derivation[] DERIVATIONS = Derivation.values();

  /** The kind's bit of a step kept by its line's place. */
  private static final int PLACED = 1 << 7;

  private final List<String> files = new ArrayList<>();

  /** Per file, its path when its lines can be read again, else null. */
  private final List<Path> paths = new ArrayList<>();

  private final LineTexts texts = new LineTexts();
  private final List<long[]> chunks = new ArrayList<>();

  /** Per chunk, the checks of the placed steps' lines ({@link LinePlace#check}), made at need. */
  private final List<long[]> checks = new ArrayList<>();

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
        null,
        -1,
        0,
        s.evidence().text());
  }

  /**
   * Adds a step, its evidence given by its parts (none made for a step of millions): where the file
   * can be read again ({@code path} not null), its line's place there and a check of its bytes
   * ({@link LinePlace#check}), else its text.
   */
  void put(
      long step,
      double seconds,
      Framework framework,
      Derivation derivation,
      boolean warmup,
      String file,
      long line,
      Path path,
      long place,
      long check,
      String text) {
    boolean placed = path != null;
    append(
        step,
        Double.doubleToRawLongBits(seconds),
        meta(framework, derivation, warmup, file(file, path), line, placed ? PLACED : 0),
        placed ? place : texts.put(text));
    if (placed) {
      checks(size - 1)[(size - 1) % CHUNK] = check;
    }
  }

  /** The index of a file (and its path, null when its lines are not kept by place). */
  private int file(String name, Path path) {
    int last = files.size() - 1;
    if (last >= 0 && files.get(last) == name && paths.get(last) == path) {
      return last; // a file's steps come together, told with the same name and path
    }
    for (int i = 0; i < files.size(); i++) {
      if (files.get(i).equals(name) && java.util.Objects.equals(paths.get(i), path)) {
        return i;
      }
    }
    files.add(name);
    paths.add(path);
    return files.size() - 1;
  }

  private static long meta(
      Framework framework, Derivation derivation, boolean warmup, int f, long line, int placed) {
    if (f > 0xFFFF || line > LINE_MASK) {
      throw new IllegalStateException("more than 65536 files or 2^40 lines of step times");
    }
    // kind: placed (1 bit), framework (3 bits), derivation (3 bits), warm-up (1 bit); then the
    // file (16 bits)
    long kind = placed | framework.ordinal() << 4 | derivation.ordinal() << 1 | (warmup ? 1 : 0);
    return (long) f << (LINE_BITS + 8) | kind << LINE_BITS | line;
  }

  /** The checks of step i's chunk, made when a placed step is first put there. */
  private long[] checks(int i) {
    while (checks.size() <= i / CHUNK) {
      checks.add(null);
    }
    long[] c = checks.get(i / CHUNK);
    if (c == null) {
      c = new long[CHUNK];
      checks.set(i / CHUNK, c);
    }
    return c;
  }

  /** Appends another list's steps, taking over its line texts. */
  void putAll(StepList other) {
    long shift = texts.adopt(other.texts);
    // the other list's files by their index here, looked up once each, not once per step
    int[] index = new int[other.files.size()];
    for (int k = 0; k < index.length; k++) {
      index[k] = file(other.files.get(k), other.paths.get(k));
    }
    for (int i = 0; i < other.size; i++) {
      long meta = other.field(i, 2);
      int f = index[(int) (meta >>> (LINE_BITS + 8))];
      boolean placed = other.placed(i);
      append(
          other.field(i, 0),
          other.field(i, 1),
          (long) f << (LINE_BITS + 8) | (meta & ((1L << (LINE_BITS + 8)) - 1)),
          placed ? other.field(i, 3) : other.field(i, 3) + shift);
      if (placed) {
        checks(size - 1)[(size - 1) % CHUNK] = other.checks.get(i / CHUNK)[i % CHUNK];
      }
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

  /**
   * The line of step i, its text read back from the deflated blocks, or read again from its file
   * ({@link LinePlace#read}: a line no longer there, or changed, is said to be so).
   */
  Evidence evidence(int i) {
    long meta = field(i, 2);
    int f = (int) (meta >>> (LINE_BITS + 8));
    String text =
        placed(i)
            ? LinePlace.read(paths.get(f), field(i, 3), checks.get(i / CHUNK)[i % CHUNK])
            : texts.get(field(i, 3));
    return new Evidence(files.get(f), meta & LINE_MASK, text);
  }

  private boolean placed(int i) {
    return (kind(i) & PLACED) != 0;
  }

  double seconds(int i) {
    return Double.longBitsToDouble(field(i, 1));
  }

  boolean warmup(int i) {
    return (kind(i) & 1) != 0;
  }

  /** How many groups {@link #summaryKinds} tells apart. */
  static final int GROUPS = 64;

  /**
   * Per step, its group (derivation and framework: {@link #groupDerivation}, {@link
   * #groupFramework}) shifted left by one, and its warm-up bit: read in one pass over the chunks.
   */
  byte[] summaryKinds() {
    byte[] kinds = new byte[size];
    for (int c = 0; c < chunks.size(); c++) {
      long[] chunk = chunks.get(c);
      int from = c * CHUNK;
      int n = Math.min(CHUNK, size - from);
      for (int k = 0; k < n; k++) {
        kinds[from + k] = (byte) ((chunk[k * 4 + 2] >>> LINE_BITS) & 0x7F);
      }
    }
    return kinds;
  }

  /** The framework of a group of {@link #summaryKinds}. */
  static Framework groupFramework(int group) {
    return FRAMEWORKS[group >>> 3 & 7];
  }

  /** The derivation of a group of {@link #summaryKinds}. */
  static Derivation groupDerivation(int group) {
    return DERIVATIONS[group & 7];
  }

  Framework framework(int i) {
    return FRAMEWORKS[kind(i) >>> 4 & 7];
  }

  Derivation derivation(int i) {
    return DERIVATIONS[kind(i) >>> 1 & 7];
  }
}
