package io.topolens.nccl;

import io.topolens.model.ComputeCapability;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A line that names a GeForce GPU model, as tools print it ({@code NVIDIA GeForce RTX 4090}, {@code
 * GeForce RTX 3090 Ti}) or users write it ({@code RTX 4090}, {@code multiple 4090}, {@code
 * 8x4090}), or another GPU as nvidia-smi -L and PyTorch list it ({@code GPU 0: NVIDIA A40}, {@code
 * NVIDIA A40 with CUDA capability sm_86 is not compatible ...}): the model's words (with the
 * architecture where the line names it), and whether the line speaks of a hang. Which models lack
 * working P2P is the catalog's (and a rule's) to say, not this reader's.
 */
final class GpuNameLine {
  private GpuNameLine() {}

  /** {@code [GeForce ]RTX NNNN[ Ti| SUPER]}. */
  private static final Pattern RTX =
      Pattern.compile("(?:GeForce\\s+)?RTX\\s*\\d{4}(?:\\s*Ti\\b|\\s+SUPER\\b)?");

  /**
   * A data-center or workstation GPU as nvidia-smi and PyTorch name it ({@code NVIDIA
   * A100-SXM4-80GB}, {@code A40}, {@code NVIDIA H100 80GB HBM3}, {@code Tesla V100-SXM2-32GB},
   * {@code NVIDIA RTX A6000}, {@code NVIDIA L40S}), in the lines of {@link Needles#GPU_LISTED} and
   * {@link Needles#CUDA_CAPABILITY} only.
   */
  private static final Pattern DATA_CENTER =
      Pattern.compile(
          "(?:NVIDIA\\s+|Tesla\\s+|: |^)((?:RTX\\s+)?(?:A\\d{1,4}G?|H\\d{2,3}|GH200|GB\\d{3}|B\\d{3}"
              + "|L\\d{1,2}S?|V100|P100|T4|RTX PRO \\d{4})(?:[-\\w]*))");

  /** PyTorch's {@code with CUDA capability sm_86}. */
  private static final Pattern CAPABILITY = Pattern.compile("CUDA capability (sm_\\d+)");

  private static final Pattern HANG =
      Pattern.compile(
          "(?i)\\b(hang|hangs|hanging|hung|deadlock\\w*|stuck|freez\\w*|timeout|timed out)\\b");

  /** Accelerate's words for the GPUs it refused: its check matches device names holding RTX 40. */
  private static final String REFUSED_SERIES = "RTX 4000 series";

  /** The model a line names and whether it speaks of a hang, or null when it names none. */
  static NcclEvent parse(String text) {
    if (text.contains(Needles.ACCELERATE_NO_P2P) && text.contains(REFUSED_SERIES)) {
      return new NcclEvent.GpuNamed(REFUSED_SERIES, null, false, true);
    }
    String model = null;
    Matcher m = RTX.matcher(text);
    if (m.find()) {
      model = m.group();
    } else if (text.contains(Needles.GPU_LISTED) || text.contains(Needles.CUDA_CAPABILITY)) {
      m = DATA_CENTER.matcher(text);
      if (m.find()) {
        model = m.group(1);
      }
    }
    // PyTorch names the architecture beside the model: both are kept, each in its field
    Matcher sm = CAPABILITY.matcher(text);
    ComputeCapability capability = sm.find() ? ComputeCapability.ofArch(sm.group(1)) : null;
    if (model == null && capability == null) {
      return null;
    }
    return new NcclEvent.GpuNamed(
        model == null ? null : model.replaceAll("\\s+", " ").strip(),
        capability,
        HANG.matcher(text.toLowerCase(Locale.ROOT)).find(),
        false);
  }
}
