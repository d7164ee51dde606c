package io.topolens.steps;

import java.util.List;
import java.util.regex.Pattern;

/**
 * tqdm progress bars: the Hugging Face Trainer's ({@code 10%|█ | 5/50 [01:23<12:34, 16.7s/it]}, no
 * description) and PyTorch Lightning's ({@code Epoch 0: 22%|██▏ | 4/18 [00:17<01:02, 4.47s/it,
 * loss=10.072, v_num=193315]}). Each update gives the bar's rate (tqdm's smoothed seconds per
 * iteration) for its step; updates squeezed onto one line by carriage returns are read one by one.
 * Bars with another description ("Loading checkpoint shards:", "Validation DataLoader 0:") are not
 * training steps and are skipped; a bar whose rate is cut off is malformed.
 */
final class TqdmLines implements StepFormat {

  @Override
  public Framework framework() {
    return Framework.HUGGING_FACE;
  }

  /**
   * A bar update's form; {@link #bar} finds it without the regular expression engine (it was a
   * sixth of the mixed 1 GiB log's reading time) and TqdmLinesTest holds the two equal.
   */
  static final Pattern BAR =
      Pattern.compile("(\\d{1,3})%\\|[^|]*\\|\\s*(\\d+)/(\\d+) \\[([^\\]\\[]*)(\\]?)");

  /**
   * The rate in a bar's bracket; {@link #rate} finds it by hand, TqdmLinesTest holds them equal.
   */
  static final Pattern RATE =
      Pattern.compile("(?:^|,)\\s*([0-9]*\\.?[0-9]+|\\?)(s/it|it/s)\\s*(?:,|$)");

  private static final Pattern LIGHTNING = Pattern.compile("(?:^|\\s|\\])Epoch (\\d+):$");
  private static final Pattern RANK = Pattern.compile("\\[rank\\d+\\]:$");
  private static final String PERCENT_BAR = "%|";

  /**
   * {@link #BAR}'s match: where it starts and ends, the step, the total, the bracket's text and
   * whether the bracket is closed (groups 2 to 5).
   */
  record Bar(int start, int end, String step, String total, String bracket, boolean closed) {}

  @Override
  public List<String> needles() {
    return List.of(PERCENT_BAR);
  }

  @Override
  public void read(StepLine line, long found, StepSink file) {
    int from = 0;
    for (Bar m = bar(line, 0); m != null; m = bar(line, m.end())) {
      String before = line.text(from, m.start()).strip();
      from = m.end();
      Framework f;
      if (!before.endsWith(":") || RANK.matcher(before).find()) {
        f = Framework.HUGGING_FACE;
      } else if (LIGHTNING.matcher(before).find()) {
        f = Framework.LIGHTNING;
      } else {
        continue; // another bar: loading shards, evaluation, data processing
      }
      long step;
      long total;
      try {
        step = Long.parseLong(m.step());
        total = Long.parseLong(m.total());
      } catch (NumberFormatException e) {
        file.malformed(f, "progress bar count past a long"); // fuzz seed 7 #1975
        continue;
      }
      String[] r = rate(m.bracket());
      if (r == null) {
        if (!m.closed()) {
          file.malformed(f, "progress bar cut off before its rate");
        }
        continue; // else a bar counting other units (examples/s, ba/s)
      }
      file.recognized(f);
      if (r[0].equals("?")) {
        continue; // no rate before the first step ends
      }
      double rate = Numbers.positive(r[0]);
      if (Double.isNaN(rate)) {
        file.malformed(f, "progress bar rate is not a number");
        continue;
      }
      double seconds = r[1].equals("s/it") ? rate : 1 / rate;
      String kind = (f == Framework.LIGHTNING ? "lightning:" : "tqdm:") + total;
      file.barStep(file.key(kind), total, step, seconds, f);
    }
  }

  /**
   * {@link #BAR}'s first match in {@code text} at or after {@code from}, or null: one to three
   * digits right before {@code %|} (as many as there are, so the match starts leftmost), up to the
   * next {@code |}, white space, {@code step/total [}, then the bracket's text up to the next
   * bracket, closed when that is {@code ]}. Each part has one way to match, so the first {@code %|}
   * whose rest matches gives the match.
   */
  static Bar bar(String text, int from) {
    return bar(StepLine.of(text), from);
  }

  /**
   * {@link #bar(String, int)} of a line read on its bytes or as its text: the same parts, ASCII
   * characters all but the bracket's text, which is decoded.
   */
  static Bar bar(StepLine text, int from) {
    for (int at = text.indexOf(PERCENT_BAR, from);
        at >= 0;
        at = text.indexOf(PERCENT_BAR, at + 1)) {
      int start = at;
      while (start > from && at - start < 3 && digit(text.charAt(start - 1))) {
        start--;
      }
      if (start == at) {
        continue;
      }
      int pipe = text.indexOf('|', at + PERCENT_BAR.length());
      if (pipe < 0) {
        return null; // no later %| can have its closing pipe either
      }
      int step = pipe + 1;
      while (step < text.length() && space(text.charAt(step))) {
        step++;
      }
      int slash = digits(text, step);
      if (slash == step || slash >= text.length() || text.charAt(slash) != '/') {
        continue;
      }
      int totalEnd = digits(text, slash + 1);
      if (totalEnd == slash + 1 || !text.startsWith(" [", totalEnd)) {
        continue;
      }
      int bracket = totalEnd + 2;
      int close = bracket;
      while (close < text.length() && text.charAt(close) != ']' && text.charAt(close) != '[') {
        close++;
      }
      boolean closed = close < text.length() && text.charAt(close) == ']';
      return new Bar(
          start,
          closed ? close + 1 : close,
          text.text(step, slash),
          text.text(slash + 1, totalEnd),
          text.text(bracket, close),
          closed);
    }
    return null;
  }

  /**
   * {@link #RATE}'s first match in a bar's bracket as its two groups (the rate or {@code ?}, the
   * unit), or null: at the bracket's start or after a comma, white space, a number ({@code 3},
   * {@code 3.25}, {@code .5}) or {@code ?}, {@code s/it} or {@code it/s}, white space, then a comma
   * or the end (before a final line terminator, as {@code $} allows).
   */
  static String[] rate(String bracket) {
    String[] r = rateAt(bracket, 0);
    for (int comma = bracket.indexOf(','); r == null && comma >= 0; ) {
      r = rateAt(bracket, comma + 1);
      comma = bracket.indexOf(',', comma + 1);
    }
    return r;
  }

  private static String[] rateAt(String s, int from) {
    int p = from;
    while (p < s.length() && space(s.charAt(p))) {
      p++;
    }
    int end;
    if (p < s.length() && s.charAt(p) == '?') {
      end = p + 1;
    } else {
      int whole = digits(s, p);
      end = whole;
      if (whole < s.length() && s.charAt(whole) == '.') {
        end = digits(s, whole + 1);
        if (end == whole + 1) {
          return null; // "3." is no number, and "3" is followed by '.', not a unit
        }
      } else if (whole == p) {
        return null;
      }
    }
    String unit;
    if (s.startsWith("s/it", end)) {
      unit = "s/it";
    } else if (s.startsWith("it/s", end)) {
      unit = "it/s";
    } else {
      return null;
    }
    int after = end + unit.length();
    while (after < s.length() && space(s.charAt(after))) {
      after++;
    }
    if (after < s.length() && s.charAt(after) != ',' && !finalTerminator(s, after)) {
      return null;
    }
    return new String[] {s.substring(p, end), unit};
  }

  /**
   * Whether what is left from {@code at} is one line terminator, before which {@code $} matches.
   */
  private static boolean finalTerminator(String s, int at) {
    int left = s.length() - at;
    char c = s.charAt(at);
    if (left == 2) {
      return c == '\r' && s.charAt(at + 1) == '\n';
    }
    return left == 1 && (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029');
  }

  /** The end of the ASCII digits starting at {@code from}. */
  private static int digits(CharSequence s, int from) {
    int i = from;
    while (i < s.length() && digit(s.charAt(i))) {
      i++;
    }
    return i;
  }

  private static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * The regular expressions' {@code \s}: space, tab, line feed, vertical tab, form feed, return.
   */
  private static boolean space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
  }
}
