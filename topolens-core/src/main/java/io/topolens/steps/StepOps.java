package io.topolens.steps;

import io.topolens.nccl.OtherLines;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the step-time formats told about the wanted lines of one slice of a log, recorded where the
 * slice was read (a parse thread) and applied to its file's {@link FileSteps} later, in file order:
 * so the formats' matching runs on all cores while the file's state changes on one thread, with the
 * result of reading in order. Lines are read on the slice's bytes ({@link StepLine}) unless escapes
 * were removed from them; what is told is kept as numbers in one array (an operation and its
 * arguments), strings and the rare work on the file's state beside it, so a line costs no object of
 * its own.
 *
 * <p>Thread-safety: made and filled by one thread, then handed to the applying thread.
 */
final class StepOps implements StepSink, OtherLines.Slice {
  private static final int LINE = 0;
  private static final int RECOGNIZED = 1;
  private static final int MALFORMED = 2;
  private static final int STEP = 3;
  private static final int BAR = 4;
  private static final int STAMPED = 5;
  private static final int BATCH_RATE = 6;
  private static final int ON_FILE = 7;

  private static final Framework[] FRAMEWORKS = Framework.values();
  private static final Derivation[] DERIVATIONS = Derivation.values();

  private final String view;
  private final byte[] bytes;

  /**
   * Each operation: a head (the operation, framework and derivation in the low bytes, a reference
   * into {@link #refs} plus one in the high half), then its arguments.
   */
  private long[] ops = new long[1024];

  private int size;
  private final List<Object> refs = new ArrayList<>();

  /** The line being read. */
  private StepLine line;

  /** The last key told, and its reference: a series' lines repeat it. */
  private String lastKey;

  private int lastKeyRef;

  /** A record of a slice's lines: {@code view} is its bytes as Latin-1. */
  StepOps(String view, byte[] bytes) {
    this.view = view;
    this.bytes = bytes;
  }

  @Override
  public void line(int number, int start, int end, String text, long needles) {
    int mark = size;
    int refMark = refs.size();
    line = text == null ? StepLine.onBytes(view, bytes, start, end) : StepLine.of(text);
    head(LINE, null, null, text == null ? -1 : ref(text), 3);
    ops[size++] = number;
    ops[size++] = start;
    ops[size++] = end;
    StepTimeReader.read(line, needles, this);
    if (size == mark + 4) {
      // nothing told: the line need not be applied
      size = mark;
      refs.subList(refMark, refs.size()).clear();
      if (lastKeyRef >= refMark) {
        lastKey = null;
      }
    }
  }

  /** Whether any line told something. */
  boolean any() {
    return size > 0;
  }

  /**
   * Applies what was recorded to the file, in the order it was told: {@code at} says where the
   * slice is (the number of the line before it, and its place when the file can be read again).
   */
  void applyTo(FileSteps file, OtherLines.At at) {
    long[] o = ops;
    for (int i = 0; i < size; ) {
      long head = o[i];
      int op = (int) head & 0xFF;
      Framework f = FRAMEWORKS[(int) (head >>> 8) & 0xFF];
      int ref = (int) (head >>> 32) - 1;
      switch (op) {
        case LINE -> {
          int start = (int) o[i + 2];
          int end = (int) o[i + 3];
          StepLine l =
              ref < 0
                  ? StepLine.onBytes(view, bytes, start, end)
                  : StepLine.of((String) refs.get(ref));
          file.at(at.line() + o[i + 1], l);
          if (at.again() != null) {
            file.place(at.offset() + start, bytes, start, end);
          }
          i += 4;
        }
        case RECOGNIZED -> {
          file.recognized(f);
          i += 1;
        }
        case MALFORMED -> {
          file.malformed(f, (String) refs.get(ref));
          i += 1;
        }
        case STEP -> {
          Derivation d = DERIVATIONS[(int) (head >>> 16) & 0xFF];
          file.step((String) refs.get(ref), o[i + 1], Double.longBitsToDouble(o[i + 2]), f, d);
          i += 3;
        }
        case BAR -> {
          file.barStep(
              (String) refs.get(ref), o[i + 1], o[i + 2], Double.longBitsToDouble(o[i + 3]), f);
          i += 4;
        }
        case STAMPED -> {
          file.stamped((String) refs.get(ref), o[i + 1], o[i + 2], f);
          i += 3;
        }
        case BATCH_RATE -> {
          file.batchRate((String) refs.get(ref), o[i + 1], Double.longBitsToDouble(o[i + 2]), f);
          i += 3;
        }
        case ON_FILE -> {
          @SuppressWarnings("unchecked")
          Consumer<FileSteps> c = (Consumer<FileSteps>) refs.get(ref);
          c.accept(file);
          i += 1;
        }
        default -> throw new IllegalStateException("operation " + op);
      }
    }
  }

  private int ref(Object o) {
    refs.add(o);
    return refs.size() - 1;
  }

  private int keyRef(String key) {
    if (!key.equals(lastKey)) {
      lastKey = key;
      lastKeyRef = ref(key);
    }
    return lastKeyRef;
  }

  /** Adds an operation's head, with room for its {@code args} arguments after it. */
  private void head(int op, Framework f, Derivation d, int ref, int args) {
    if (size + 1 + args > ops.length) {
      ops = Arrays.copyOf(ops, Math.max(ops.length * 2, size + 1 + args));
    }
    ops[size++] =
        op
            | (f == null ? 0 : f.ordinal()) << 8
            | (d == null ? 0 : d.ordinal()) << 16
            | (long) (ref + 1) << 32;
  }

  @Override
  public String key(String kind) {
    return FileSteps.key(line, kind);
  }

  @Override
  public void recognized(Framework f) {
    head(RECOGNIZED, f, null, -1, 0);
  }

  @Override
  public void malformed(Framework f, String why) {
    head(MALFORMED, f, null, ref(why), 0);
  }

  @Override
  public void step(String key, long step, double seconds, Framework f, Derivation d) {
    head(STEP, f, d, keyRef(key), 2);
    ops[size++] = step;
    ops[size++] = Double.doubleToRawLongBits(seconds);
  }

  @Override
  public void barStep(String key, long total, long step, double seconds, Framework f) {
    head(BAR, f, null, keyRef(key), 3);
    ops[size++] = total;
    ops[size++] = step;
    ops[size++] = Double.doubleToRawLongBits(seconds);
  }

  @Override
  public void batchRate(String key, long step, double samplesPerSecond, Framework f) {
    head(BATCH_RATE, f, null, keyRef(key), 2);
    ops[size++] = step;
    ops[size++] = Double.doubleToRawLongBits(samplesPerSecond);
  }

  @Override
  public void stamped(String key, long step, long time, Framework f) {
    head(STAMPED, f, null, keyRef(key), 2);
    ops[size++] = step;
    ops[size++] = time;
  }

  @Override
  public void trainRuntime(double seconds, double stepsPerSecond) {
    whenApplied(s -> s.trainRuntime(seconds, stepsPerSecond));
  }

  @Override
  public void totalSteps(long steps) {
    whenApplied(s -> s.totalSteps(steps));
  }

  @Override
  public void globalBatch(long samples) {
    whenApplied(s -> s.globalBatch(samples));
  }

  @Override
  public void tokensPerRankStep(long tokens) {
    whenApplied(s -> s.tokensPerRankStep(tokens));
  }

  @Override
  public void jsonPerStep() {
    whenApplied(FileSteps::jsonPerStep);
  }

  @Override
  public void whenApplied(Consumer<FileSteps> op) {
    head(ON_FILE, null, null, ref(op), 0);
  }
}
