package io.topolens.nccl;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A line that names a GeForce GPU model, as tools print it ({@code NVIDIA GeForce RTX 4090}, {@code
 * GeForce RTX 3090 Ti}) or users write it ({@code RTX 4090}, {@code multiple 4090}, {@code
 * 8x4090}): the model's words, and whether the line speaks of a hang. Which models lack working P2P
 * is the catalog's (and a rule's) to say, not this reader's.
 */
final class GpuNameLine {
  private GpuNameLine() {}

  /** {@code [GeForce ]RTX NNNN[ Ti| SUPER]}. */
  private static final Pattern RTX =
      Pattern.compile("(?:GeForce\\s+)?RTX\\s*\\d{4}(?:\\s*Ti\\b|\\s+SUPER\\b)?");

  private static final Pattern HANG =
      Pattern.compile(
          "(?i)\\b(hang|hangs|hanging|hung|deadlock\\w*|stuck|freez\\w*|timeout|timed out)\\b");

  /** Accelerate's words for the GPUs it refused: its check matches device names holding RTX 40. */
  private static final String REFUSED_SERIES = "RTX 4000 series";

  /** The model a line names and whether it speaks of a hang, or null when it names none. */
  static NcclEvent parse(String text) {
    if (text.contains(Needles.ACCELERATE_NO_P2P) && text.contains(REFUSED_SERIES)) {
      return new NcclEvent.GpuNamed(REFUSED_SERIES, false, true);
    }
    String model = null;
    Matcher m = RTX.matcher(text);
    if (m.find()) {
      model = m.group();
    }
    if (model == null) {
      return null;
    }
    return new NcclEvent.GpuNamed(
        model.replaceAll("\\s+", " ").strip(),
        HANG.matcher(text.toLowerCase(Locale.ROOT)).find(),
        false);
  }
}
