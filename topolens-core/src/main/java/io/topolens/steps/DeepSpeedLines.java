package io.topolens.steps;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DeepSpeed's lines: the {@code steps_per_print} line ({@code [2022-03-11 02:06:58,985] [INFO]
 * [logging.py:69:log_dist] [Rank 0] step=40, skipped=2, lr=[5e-05], mom=[[0.9, 0.999]]}), whose
 * timestamps give the mean step time between two of them; the throughput timer ({@code
 * epoch=0/micro_step=34/global_step=34, RunningAvgSamplesPerSec=7.86, CurrSamplesPerSec=8.00,
 * ...}), whose last step's samples/s over the global batch (from the config dump {@code
 * train_batch_size ... 64} or the Trainer's total batch size) gives that step's time; and the
 * {@code wall_clock_breakdown} timers of each optimizer step ({@code time (ms) | fwd: 6567.66 |
 * bwd: 17950.35 | bwd_inner: ... | step: 1139.29}, {@code forward:/backward:} before 0.9), whose
 * forward, backward and step sum to the step's timed parts. Per-micro-step timers ({@code
 * fwd_microstep}) and ZeRO's optimizer timers are not steps and are skipped.
 */
final class DeepSpeedLines implements StepFormat {

  @Override
  public Framework framework() {
    return Framework.DEEPSPEED;
  }

  /**
   * The {@code steps_per_print} line's form; {@link #logDist} finds it without the regular
   * expression engine and DeepSpeedLinesTest holds the two equal.
   */
  static final Pattern STEP = Pattern.compile("\\[Rank (\\d+)\\] step=(\\d+), skipped=");

  private static final String RANK = "[Rank ";
  private static final String STEP_IS = "] step=";
  static final String SKIPPED = ", skipped=";

  /**
   * The throughput timer's form; {@link #throughput} finds it without the regular expression engine
   * (it was a seventh of a big log's reading time) and DeepSpeedLinesTest holds the two equal.
   */
  static final Pattern THROUGHPUT =
      Pattern.compile(
          "global_step=(\\d+), RunningAvgSamplesPerSec=[^,]*, CurrSamplesPerSec=([^,]*)");

  private static final String GLOBAL_STEP = "global_step=";
  private static final String RUNNING_AVG = ", RunningAvgSamplesPerSec=";
  private static final String CURRENT = ", CurrSamplesPerSec=";
  private static final Pattern TIMERS = Pattern.compile("time \\(ms\\) \\|(.*)$");
  private static final Pattern CONFIG_BATCH = Pattern.compile("\\btrain_batch_size \\.+ (\\d+)");

  @Override
  public List<String> needles() {
    return List.of("step", "time", "train_");
  }

  @Override
  public void read(StepLine text, long found, StepSink file) {
    // each literal below holds one of the needles: it is searched only where that needle is
    boolean stepNeedle = StepNeedles.has(found, StepNeedles.STEP);
    // each expression is tried (and its matcher made) only on lines holding its literal: a search
    // at every position of every wanted line was most of a big log's reading time
    String[] logDist =
        stepNeedle && StepNeedles.has(found, StepNeedles.SKIPPED) ? logDist(text) : null;
    if (logDist != null) {
      file.recognized(Framework.DEEPSPEED);
      file.stamped(
          "deepspeed-step@" + logDist[0],
          Long.parseLong(logDist[1]),
          LogTimestamp.of(text),
          Framework.DEEPSPEED);
    }
    // its numbers read in place: the timer's line is most of a DeepSpeed job's lines
    int[] throughput = stepNeedle ? throughputAt(text) : null;
    if (throughput != null) {
      double perSecond = Numbers.positive(text, throughput[2], throughput[3]);
      if (Double.isNaN(perSecond)) {
        file.malformed(Framework.DEEPSPEED, "CurrSamplesPerSec is not a number");
      } else {
        file.recognized(Framework.DEEPSPEED);
        file.batchRate(
            file.key("deepspeed-throughput"),
            Numbers.digits(text, throughput[0], throughput[1]),
            perSecond,
            Framework.DEEPSPEED);
      }
    }
    Matcher m =
        StepNeedles.has(found, StepNeedles.TIME) && StepNeedles.has(found, StepNeedles.TIMERS)
            ? TIMERS.matcher(text.text())
            : null;
    if (m != null && m.find()) {
      timers(m.group(1), file);
    }
    m =
        StepNeedles.has(found, StepNeedles.TRAIN) && text.contains("train_batch_size ")
            ? CONFIG_BATCH.matcher(text.text())
            : null;
    if (m != null && m.find()) {
      file.recognized(Framework.DEEPSPEED);
      file.globalBatch(Long.parseLong(m.group(1)));
    }
  }

  /**
   * {@link #STEP}'s first match in {@code text} as its two groups (rank, step), or null: the
   * leftmost {@code [Rank } followed by digits, {@code ] step=}, digits and {@code , skipped=}
   * (digits then a character that is none have one way to match).
   */
  static String[] logDist(String text) {
    return logDist(StepLine.of(text));
  }

  /** {@link #logDist(String)} of a line read on its bytes or as its text. */
  static String[] logDist(StepLine text) {
    for (int at = text.indexOf(RANK); at >= 0; at = text.indexOf(RANK, at + 1)) {
      int rank = at + RANK.length();
      int rankEnd = digits(text, rank);
      if (rankEnd == rank || !text.startsWith(STEP_IS, rankEnd)) {
        continue;
      }
      int step = rankEnd + STEP_IS.length();
      int stepEnd = digits(text, step);
      if (stepEnd == step || !text.startsWith(SKIPPED, stepEnd)) {
        continue;
      }
      return new String[] {text.text(rank, rankEnd), text.text(step, stepEnd)};
    }
    return null;
  }

  /** The end of the ASCII digits starting at {@code from}. */
  private static int digits(StepLine s, int from) {
    int i = from;
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      i++;
    }
    return i;
  }

  /**
   * {@link #THROUGHPUT}'s first match in {@code text} as its two groups (global step, current
   * samples per second), or null: the leftmost {@code global_step=} followed by digits, the running
   * average up to the next comma, then the current rate up to the next comma or the line's end.
   */
  static String[] throughput(String text) {
    return throughput(StepLine.of(text));
  }

  /** {@link #throughput(String)} of a line read on its bytes or as its text. */
  static String[] throughput(StepLine text) {
    int[] at = throughputAt(text);
    return at == null ? null : new String[] {text.text(at[0], at[1]), text.text(at[2], at[3])};
  }

  /**
   * Where {@link #throughput(StepLine)}'s two groups are: the global step's start and end, the
   * current rate's start and end; null when the line has no match.
   */
  private static int[] throughputAt(StepLine text) {
    for (int at = text.indexOf(GLOBAL_STEP); at >= 0; at = text.indexOf(GLOBAL_STEP, at + 1)) {
      int digits = at + GLOBAL_STEP.length();
      int end = digits;
      while (end < text.length() && text.charAt(end) >= '0' && text.charAt(end) <= '9') {
        end++;
      }
      if (end == digits || !text.startsWith(RUNNING_AVG, end)) {
        continue;
      }
      int comma = text.indexOf(',', end + RUNNING_AVG.length());
      if (comma < 0 || !text.startsWith(CURRENT, comma)) {
        continue;
      }
      int rate = comma + CURRENT.length();
      int rateEnd = text.indexOf(',', rate);
      return new int[] {digits, end, rate, rateEnd < 0 ? text.length() : rateEnd};
    }
    return null;
  }

  private static void timers(String fields, StepSink file) {
    Map<String, String> values = new HashMap<>();
    for (String field : fields.split("\\|")) {
      int colon = field.indexOf(':');
      if (colon > 0) {
        values.put(field.substring(0, colon).strip(), field.substring(colon + 1).strip());
      }
    }
    String fwd = values.containsKey("fwd") ? values.get("fwd") : values.get("forward");
    String bwd = values.containsKey("bwd") ? values.get("bwd") : values.get("backward");
    String step = values.get("step");
    if (fwd == null || bwd == null || step == null) {
      return; // micro-step, ZeRO optimizer or MoE timers: not a whole step
    }
    double ms = Numbers.parse(fwd) + Numbers.parse(bwd) + Numbers.parse(step);
    if (Double.isNaN(ms)) {
      file.malformed(Framework.DEEPSPEED, "wall_clock_breakdown timer is not a number");
      return;
    }
    file.recognized(Framework.DEEPSPEED);
    file.step(file.key("deepspeed-timers"), -1, ms / 1000, Framework.DEEPSPEED, Derivation.PARTS);
  }
}
