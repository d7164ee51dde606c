package io.topolens.steps;

import io.topolens.model.Evidence;
import io.topolens.model.SampleCounter;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the step-time lines of one input say so far: the step times of each series (one framework's
 * lines of one kind and rank), what the lines tell about the job (total steps, batch sizes), and
 * the malformed lines. Formats write here as lines arrive; {@link #finish} settles what needs the
 * whole file.
 */
final class FileSteps implements StepSink {
  /** Evidence text is clipped to this many characters (progress bars can be long). */
  static final int CLIP = 300;

  private static final Pattern RANK_PREFIX = Pattern.compile("^\\[rank(\\d+)\\]:");

  final String file;

  /** The file's path when it can be read again at a line's place, else null. */
  private final Path again;

  private long line;
  private StepLine text = StepLine.of("");

  /**
   * The line's place in the file and its bytes, when it can be read again: a stored step keeps its
   * place instead of its text ({@link StepList}).
   */
  private long place = -1;

  private byte[] raw;
  private int rawFrom;
  private int rawTo;

  /** Hugging Face's "Total optimization steps = N", when printed. */
  long totalSteps = -1;

  /** The global batch in samples (Hugging Face's total train batch size, DeepSpeed's config). */
  long globalBatch = -1;

  /** Tokens one rank processes in a step (torchtitan: local batch x sequence length). */
  long tokensPerRankStep = -1;

  /** Whether a JSON line gave a single step's time (then summary lists are not read again). */
  boolean jsonPerStep;

  private final Map<String, Series> series = new LinkedHashMap<>();
  private final Map<Long, StepList> bars = new HashMap<>();
  private final StepList steps = new StepList();

  /**
   * Lines read per framework, by ordinal: a count per line of millions, without a boxed Long each.
   */
  private final long[] lines = new long[Framework.values().length];

  private final SampleCounter malformed;
  private long largestBar = -1;
  private TrainRuntime runtime;

  /** Hugging Face's closing train_runtime and train_steps_per_second, settled at the end. */
  record TrainRuntime(double seconds, double stepsPerSecond, Evidence evidence) {}

  private static final class Series {
    long lastStep = -1;
    long lastTime = LogTimestamp.NONE;

    /** Whether the next time is the first of a run. */
    boolean fresh = true;

    /** Whether a time for {@code step} starts a run (a step below the last one restarts). */
    boolean starts(long step) {
      boolean first = fresh || (step >= 0 && lastStep >= 0 && step < lastStep);
      fresh = false;
      return first;
    }
  }

  /**
   * The step lines of a file: {@code again} is its path when a line can be read again at its place
   * (the stored steps then keep their places, not their texts), else null.
   */
  FileSteps(String file, Path again, SampleCounter malformed) {
    this.file = file;
    this.again = again;
    this.malformed = malformed;
  }

  /** The line told about next. */
  void at(long lineNumber, StepLine lineText) {
    this.line = lineNumber;
    this.text = lineText;
    this.place = -1;
  }

  /**
   * The place in the file of the line told about next, its bytes {@code raw[from, to)}: given when
   * the file can be read again.
   */
  void place(long offset, byte[] bytes, int from, int to) {
    this.place = again == null ? -1 : offset;
    this.raw = bytes;
    this.rawFrom = from;
    this.rawTo = to;
  }

  Evidence evidence() {
    return new Evidence(file, line, clipped());
  }

  /** The line's text as evidence holds it. */
  private String clipped() {
    return clip(text.text());
  }

  /** A line's text as evidence holds it: clipped to {@link #CLIP} characters. */
  static String clip(String text) {
    return text.length() > CLIP ? text.substring(0, CLIP - 3) + "..." : text;
  }

  /** Stores a step of the line told about: by its place where it has one, else by its text. */
  private void store(
      StepList list, long step, double seconds, Framework f, Derivation d, boolean first) {
    boolean placed = place >= 0;
    list.put(
        step,
        seconds,
        f,
        d,
        first,
        file,
        line,
        placed ? again : null,
        place,
        placed ? LinePlace.check(raw, rawFrom, rawTo) : 0,
        placed ? null : clipped());
  }

  @Override
  public void recognized(Framework f) {
    lines[f.ordinal()]++;
  }

  @Override
  public void malformed(Framework f, String why) {
    recognized(f);
    malformed.add(new Evidence(file, line, f.label() + ": " + why + ": " + evidence().text()));
  }

  @Override
  public String key(String kind) {
    return key(text, kind);
  }

  /**
   * The series key of a line: the kind with the line's torchrun rank prefix, so merged logs of
   * several ranks stay apart.
   */
  static String key(StepLine text, String kind) {
    if (!text.startsWith("[rank", 0)) {
      return kind; // RANK_PREFIX's start: no matcher made for the other lines
    }
    Matcher m = RANK_PREFIX.matcher(text.text());
    return m.find() ? kind + "@" + m.group(1) : kind;
  }

  /**
   * A step's time. A step equal to the series' last is a repeat (several ranks print the same line)
   * and ignored; a step below it starts a new run, whose first time is its warm-up.
   */
  @Override
  public void step(String key, long step, double seconds, Framework f, Derivation d) {
    Series s = series.computeIfAbsent(key, k -> new Series());
    if (step >= 0 && step == s.lastStep) {
      return;
    }
    boolean first = s.starts(step);
    s.lastStep = step;
    store(steps, step, seconds, f, d, first);
  }

  /**
   * A progress-bar update: kept per bar total, so evaluation bars can be told from the training bar
   * at the end.
   */
  @Override
  public void barStep(String key, long total, long step, double seconds, Framework f) {
    Series s = series.computeIfAbsent(key, k -> new Series());
    if (step == s.lastStep) {
      return;
    }
    boolean first = s.starts(step);
    s.lastStep = step;
    largestBar = Math.max(largestBar, total);
    store(
        bars.computeIfAbsent(total, t -> new StepList()), step, seconds, f, Derivation.RATE, first);
  }

  /** A step's time as the global batch over a rate, when the global batch is known by now. */
  @Override
  public void batchRate(String key, long step, double samplesPerSecond, Framework f) {
    if (globalBatch > 0) {
      step(key, step, globalBatch / samplesPerSecond, f, Derivation.RATE);
    }
  }

  /**
   * A step line with a wall-clock timestamp (nanoseconds, {@link LogTimestamp}): the mean step time
   * since the series' previous line is the time between them over the steps between them.
   */
  @Override
  public void stamped(String key, long step, long time, Framework f) {
    Series s = series.computeIfAbsent(key, k -> new Series());
    if (step == s.lastStep || time == LogTimestamp.NONE) {
      return;
    }
    if (step < s.lastStep) {
      s.fresh = true;
    } else if (s.lastTime != LogTimestamp.NONE && time >= s.lastTime) {
      double seconds = (time - s.lastTime) / 1e9 / (step - s.lastStep);
      store(steps, step, seconds, f, Derivation.INTERVAL, s.starts(step));
    }
    s.lastStep = step;
    s.lastTime = time;
  }

  /**
   * The Trainer's closing runtime and steps per second; -1 for one a line does not give, which then
   * keeps what an earlier line gave (the dict and the metrics block print both).
   */
  @Override
  public void trainRuntime(double seconds, double stepsPerSecond) {
    if (runtime != null) {
      seconds = seconds > 0 ? seconds : runtime.seconds();
      stepsPerSecond = stepsPerSecond > 0 ? stepsPerSecond : runtime.stepsPerSecond();
    }
    runtime = new TrainRuntime(seconds, stepsPerSecond, evidence());
  }

  @Override
  public void totalSteps(long steps) {
    totalSteps = steps;
  }

  @Override
  public void globalBatch(long samples) {
    globalBatch = samples;
  }

  @Override
  public void tokensPerRankStep(long tokens) {
    tokensPerRankStep = tokens;
  }

  @Override
  public void jsonPerStep() {
    jsonPerStep = true;
  }

  @Override
  public void whenApplied(Consumer<FileSteps> op) {
    op.accept(this);
  }

  /**
   * Every step time of the file, with only the training bar's updates among the progress bars.
   * Called once, at the end of the file.
   */
  StepList finish() {
    StepList all = steps;
    if (!bars.isEmpty()) {
      long training = totalSteps > 0 && bars.containsKey(totalSteps) ? totalSteps : busiestBar();
      all.putAll(bars.get(training));
      bars.clear();
    }
    if (runtime != null) {
      long n = totalSteps > 0 ? totalSteps : largestBar;
      if (n > 0 && runtime.seconds() > 0) {
        all.put(
            new StepTime(
                -1,
                runtime.seconds() / n,
                Framework.HUGGING_FACE,
                Derivation.TOTAL,
                false,
                runtime.evidence()));
      } else if (runtime.stepsPerSecond() > 0) {
        all.put(
            new StepTime(
                -1,
                1 / runtime.stepsPerSecond(),
                Framework.HUGGING_FACE,
                Derivation.RATE,
                false,
                runtime.evidence()));
      }
    }
    return all;
  }

  private long busiestBar() {
    long best = -1;
    int most = -1;
    for (Map.Entry<Long, StepList> e : bars.entrySet()) {
      if (e.getValue().size() > most || (e.getValue().size() == most && e.getKey() > best)) {
        best = e.getKey();
        most = e.getValue().size();
      }
    }
    return best;
  }

  /** Lines read per framework that read any. */
  Map<Framework, Long> lines() {
    Map<Framework, Long> read = new EnumMap<>(Framework.class);
    for (Framework f : Framework.values()) {
      if (lines[f.ordinal()] > 0) {
        read.put(f, lines[f.ordinal()]);
      }
    }
    return read;
  }
}
