package io.topolens.steps;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Megatron-LM's training log line ({@code [2024-04-06 02:59:36] iteration 43/ 100 | consumed
 * samples: 5504 | elapsed time per iteration (ms): 5444.9 | ...}), also printed by
 * Megatron-DeepSpeed (with {@code samples/sec:} first, or as {@code iteration= 1/ 317892 | ... |
 * elapsed_time_per_iteration_ms=108893.2}): the mean time of the iterations since the previous line
 * ({@code --log-interval}).
 */
final class MegatronLines implements StepFormat {

  @Override
  public Framework framework() {
    return Framework.MEGATRON;
  }

  private static final Pattern ITERATION =
      Pattern.compile("\\biteration[=\\s]+(\\d+)\\s*/\\s*\\d+\\s*\\|");
  private static final Pattern ELAPSED =
      Pattern.compile(
          "elapsed(?: time per iteration \\(ms\\):|_time_per_iteration_ms=)\\s*([^|\\s]*)");

  @Override
  public List<String> needles() {
    return List.of("time");
  }

  @Override
  public void read(StepLine line, long found, StepSink file) {
    // ELAPSED holds the needle "time" in both its forms
    if (!StepNeedles.has(found, StepNeedles.TIME)
        || !StepNeedles.has(found, StepNeedles.ITERATION)
        || !line.contains("elapsed")) {
      return; // the expressions' literals: neither can match without them
    }
    String text = line.text();
    Matcher it = ITERATION.matcher(text);
    Matcher el = ELAPSED.matcher(text);
    if (!it.find() || !el.find()) {
      return;
    }
    double ms = Numbers.positive(el.group(1));
    if (Double.isNaN(ms)) {
      file.malformed(Framework.MEGATRON, "elapsed time per iteration is not a number");
      return;
    }
    file.recognized(Framework.MEGATRON);
    file.step(
        file.key("megatron"),
        Long.parseLong(it.group(1)),
        ms / 1000,
        Framework.MEGATRON,
        Derivation.INTERVAL);
  }
}
