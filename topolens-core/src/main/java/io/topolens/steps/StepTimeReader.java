package io.topolens.steps;

import io.topolens.model.SampleCounter;
import io.topolens.nccl.OtherLines;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads training frameworks' step-time lines as they stream past, file by file, and records the
 * step times they give; {@link #finish} hands them over as {@link StepTimes}. Lines of one file
 * must arrive in order; lines without a needle are ignored at once, so it can see every line of a
 * log (or only those the NCCL reader passes on, which are the same ones). It never judges.
 *
 * <p>Thread-safety: one thread at a time.
 */
public final class StepTimeReader {
  /** Every format, in the order each line is read by them. */
  static final List<StepFormat> FORMATS =
      List.of(
          new HuggingFaceLines(),
          new TqdmLines(),
          new DeepSpeedLines(),
          new MegatronLines(),
          new TorchtitanLines(),
          new JsonStepLines());

  /** Every string one of which a step-time line contains; other lines are not step-time lines. */
  public static final List<String> NEEDLES = needles();

  private static final StepFormat[] FORMAT_ARRAY = FORMATS.toArray(StepFormat[]::new);

  /** Per format, the needles one of which a line must hold for it to be asked (all: -1). */
  private static final long[] ASKED_FOR =
      FORMATS.stream()
          .mapToLong(f -> f.readsEveryWantedLine() ? -1L : StepNeedles.set(f.needles()))
          .toArray();

  private final Map<String, FileSteps> files = new LinkedHashMap<>();
  private final SampleCounter malformed = new SampleCounter();

  /** The file of the previous line. */
  private FileSteps last;

  private static List<String> needles() {
    Set<String> all = new LinkedHashSet<>();
    FORMATS.forEach(f -> all.addAll(f.needles()));
    if (!List.copyOf(all).equals(StepNeedles.ALL)) {
      // the bits the NCCL reader hands over name the needles in this order
      throw new IllegalStateException("StepNeedles.ALL is not the formats' needles: " + all);
    }
    return List.copyOf(all);
  }

  /**
   * {@link #NEEDLES} with those most step-time lines hold first (DeepSpeed's and torchtitan's
   * {@code step}, tqdm's {@code %|}, the timers' {@code time}): {@link #wanted} stops at the first
   * it finds, so most lines are searched once or twice instead of up to seven times.
   */
  private static final List<String> COMMON_FIRST = commonFirst();

  private static List<String> commonFirst() {
    List<String> first = List.of("step", "%|", "time");
    List<String> all = new ArrayList<>(first.stream().filter(NEEDLES::contains).toList());
    NEEDLES.stream().filter(n -> !all.contains(n)).forEach(all::add);
    return List.copyOf(all);
  }

  /** Whether a line holds a needle, i.e. may be a step-time line. */
  public static boolean wanted(String text) {
    for (String n : COMMON_FIRST) {
      if (text.contains(n)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reads one line (escape sequences and carriage returns already removed).
   *
   * @param file the input's name, for evidence
   * @param line its 1-based line number
   */
  public void line(String file, long line, String text) {
    if (!wanted(text)) {
      return;
    }
    FileSteps f = file(file, null);
    StepLine l = StepLine.of(text);
    f.at(line, l);
    read(l, StepNeedles.of(text) | StepNeedles.marks(text), f);
  }

  /**
   * The lines this reader wants from the NCCL reader's pass: their step-time forms are matched on
   * its parse threads ({@link #read}) and applied here in file order.
   */
  public OtherLines lines() {
    return new OtherLines(
        NEEDLES,
        StepNeedles.MARKS,
        new OtherLines.Sink() {
          @Override
          public OtherLines.Slice slice(String view, byte[] bytes) {
            return new StepOps(view, bytes);
          }

          @Override
          public void lines(OtherLines.At at, OtherLines.Slice slice) {
            StepOps ops = (StepOps) slice;
            if (ops.any()) {
              ops.applyTo(file(at.file(), at.again()), at);
            }
          }

          @Override
          public void line(String file, long line, String text) {
            StepTimeReader.this.line(file, line, text);
          }
        });
  }

  /**
   * What the formats find in a line whose needles are known ({@code found}: bit i for the i-th of
   * {@link #NEEDLES}), recorded to be applied to its file later: stateless, so any thread may call
   * it; null for a line without a needle.
   */
  static StepOps read(String text, long found) {
    if (found == 0) {
      return null;
    }
    StepOps ops = new StepOps(null, null);
    ops.line(1, 0, text.length(), text, found | StepNeedles.marks(text));
    return ops;
  }

  /**
   * Tells {@code sink} what the formats find in a line: only the formats that can find something in
   * it are asked, and they search only for what the needles it holds allow.
   */
  static void read(StepLine line, long found, StepSink sink) {
    for (int i = 0; i < FORMAT_ARRAY.length; i++) {
      if ((found & ASKED_FOR[i]) != 0) {
        try {
          FORMAT_ARRAY[i].read(line, found, sink);
        } catch (NumberFormatException | ArithmeticException e) {
          // a number of the form past what a long holds (a step of 20 digits): the line is counted
          // as malformed, not a failure of the whole read
          sink.malformed(FORMAT_ARRAY[i].framework(), "a number too large to read");
        }
      }
    }
  }

  /** The steps of a file ({@code again}: its path when its lines can be read again). */
  private FileSteps file(String file, Path again) {
    FileSteps f = last;
    if (f == null || !f.file.equals(file)) {
      // lines come file by file: the map is asked once per file, not per line
      f = files.computeIfAbsent(file, name -> new FileSteps(name, again, malformed));
      last = f;
    }
    return f;
  }

  /** What every file gave. */
  public StepTimes finish() {
    StepList steps = files.size() == 1 ? null : new StepList();
    Map<Framework, Long> lines = new EnumMap<>(Framework.class);
    for (FileSteps f : files.values()) {
      if (steps == null) {
        steps = f.finish();
      } else {
        steps.putAll(f.finish());
      }
      f.lines().forEach((k, v) -> lines.merge(k, v, Long::sum));
    }
    return new StepTimes(steps, lines, malformed.toSample());
  }
}
