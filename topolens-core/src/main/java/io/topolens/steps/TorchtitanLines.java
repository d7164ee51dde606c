package io.topolens.steps;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * torchtitan's metrics line ({@code [rank0]:[titan] 2025-06-16 22:30:50,322 - root - INFO - step:
 * 200 loss: 6.1384 memory: 49.66GiB(52.28%) tps: 5,856 tflops: 339.16 mfu: 34.29%}, {@code wps:} in
 * early versions). The timestamps of two such lines give the mean step time between them ({@code
 * --metrics.log_freq} steps apart); without timestamps, tokens per step per rank (from {@code
 * Training starts at step 1, with local batch size 8, ..., sequence length 2048}) over tps (tokens
 * per second per GPU) gives it.
 */
final class TorchtitanLines implements StepFormat {

  @Override
  public Framework framework() {
    return Framework.TORCHTITAN;
  }

  private static final Pattern STEP =
      Pattern.compile("\\bstep:\\s*(\\d+)\\s+loss:.*?\\b[tw]ps:\\s*([^\\s]*)");
  private static final Pattern START =
      Pattern.compile(
          "with local batch size (\\d+), global batch size \\d+, (?:gradient accumulation steps (\\d+), )?sequence length (\\d+)");

  @Override
  public List<String> needles() {
    return List.of("step", "local batch size");
  }

  @Override
  public void read(StepLine line, long found, StepSink file) {
    // each expression is tried (and its matcher made) only on lines holding its literal, and that
    // only where the needle it holds is ("local batch size", "step")
    Matcher s =
        StepNeedles.has(found, StepNeedles.LOCAL_BATCH) && line.contains("with local batch size ")
            ? START.matcher(line.text())
            : null;
    if (s != null && s.find()) {
      file.recognized(Framework.TORCHTITAN);
      long accumulation = s.group(2) == null ? 1 : Long.parseLong(s.group(2));
      file.tokensPerRankStep(
          Long.parseLong(s.group(1)) * accumulation * Long.parseLong(s.group(3)));
      return;
    }
    if (!StepNeedles.has(found, StepNeedles.STEP) || !StepNeedles.has(found, StepNeedles.LOSS)) {
      return;
    }
    String text = line.text();
    Matcher m = STEP.matcher(text);
    if (!m.find()) {
      return;
    }
    long step = Long.parseLong(m.group(1));
    double tps = Numbers.positive(m.group(2));
    if (Double.isNaN(tps)) {
      file.malformed(Framework.TORCHTITAN, "tps is not a number");
      return;
    }
    file.recognized(Framework.TORCHTITAN);
    file.stamped(file.key("torchtitan"), step, LogTimestamp.of(text), Framework.TORCHTITAN);
    String key = file.key("torchtitan-tps");
    file.whenApplied(
        f -> {
          if (f.tokensPerRankStep > 0) {
            f.step(key, step, f.tokensPerRankStep / tps, Framework.TORCHTITAN, Derivation.RATE);
          }
        });
  }
}
