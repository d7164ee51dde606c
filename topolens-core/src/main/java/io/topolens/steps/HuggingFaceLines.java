package io.topolens.steps;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Hugging Face Trainer's own lines: the "***** Running training *****" block ({@code Total
 * optimization steps = 1,722}, {@code Total train batch size (w. parallel, distributed &
 * accumulation) = 64}), the logging dicts ({@code {'loss': 1.0238, 'learning_rate': ..., 'epoch':
 * 0.42}}, which carry no time) and the closing {@code {'train_runtime': 2307.9654,
 * 'train_samples_per_second': 5.546, 'train_steps_per_second': 0.022, ...}} (values quoted as
 * strings by recent versions). The runtime over the optimization steps is a step time; its division
 * waits for the end of the file, when the step count is known.
 */
final class HuggingFaceLines implements StepFormat {

  @Override
  public Framework framework() {
    return Framework.HUGGING_FACE;
  }

  private static final Pattern TOTAL_STEPS =
      Pattern.compile("Total optimization steps = ([0-9,]+)");
  private static final Pattern TOTAL_BATCH =
      Pattern.compile(
          "Total train batch size \\(w\\. parallel, distributed & accumulation\\) = ([0-9,]+)");
  private static final Pattern RUNTIME = Pattern.compile("'train_runtime': ('[^']*'|[^,}]*)");
  private static final Pattern METRICS_RUNTIME =
      Pattern.compile("^\\s*train_runtime\\s*=\\s*(?:(\\d+):)?(\\d+):(\\d+(?:\\.\\d+)?)\\s*$");
  private static final Pattern METRICS_PER_SECOND =
      Pattern.compile("^\\s*train_steps_per_second\\s*=\\s*(\\S+)\\s*$");
  private static final Pattern STEPS_PER_SECOND =
      Pattern.compile("'train_steps_per_second': ('[^']*'|[^,}]*)");

  @Override
  public List<String> needles() {
    return List.of("Total ", "train_", "{'loss'");
  }

  @Override
  public void read(StepLine line, long found, StepSink file) {
    String text = line.text(); // asked only about lines holding its needles: few
    // each expression is tried (and its matcher made) only on lines holding its literal
    boolean total = StepNeedles.has(found, StepNeedles.TOTAL);
    Matcher m =
        total && text.contains("Total optimization steps = ") ? TOTAL_STEPS.matcher(text) : null;
    if (m != null && m.find()) {
      file.recognized(Framework.HUGGING_FACE);
      file.totalSteps((long) Numbers.parse(m.group(1)));
      return;
    }
    m = total && text.contains("Total train batch size (") ? TOTAL_BATCH.matcher(text) : null;
    if (m != null && m.find()) {
      file.recognized(Framework.HUGGING_FACE);
      file.globalBatch((long) Numbers.parse(m.group(1)));
      return;
    }
    if (StepNeedles.has(found, StepNeedles.LOSS_DICT)) {
      file.recognized(Framework.HUGGING_FACE);
      return;
    }
    if (!StepNeedles.has(found, StepNeedles.TRAIN)) {
      return; // the literal of every expression below
    }
    m = text.contains("train_runtime") ? METRICS_RUNTIME.matcher(text) : null;
    if (m != null && m.find()) {
      // trainer.log_metrics("train", ...): "  train_runtime            = 0:36:58.55"
      double h = m.group(1) == null ? 0 : Double.parseDouble(m.group(1));
      double seconds =
          h * 3600 + Double.parseDouble(m.group(2)) * 60 + Double.parseDouble(m.group(3));
      file.recognized(Framework.HUGGING_FACE);
      file.trainRuntime(seconds, -1);
      return;
    }
    m = text.contains("train_steps_per_second") ? METRICS_PER_SECOND.matcher(text) : null;
    if (m != null && m.find()) {
      double perSecond = Numbers.positive(m.group(1));
      if (Double.isNaN(perSecond)) {
        file.malformed(Framework.HUGGING_FACE, "train_steps_per_second is not a number");
      } else {
        file.recognized(Framework.HUGGING_FACE);
        file.trainRuntime(-1, perSecond);
      }
      return;
    }
    m = text.contains("'train_runtime': ") ? RUNTIME.matcher(text) : null;
    if (m != null && m.find()) {
      double runtime = Numbers.positive(m.group(1));
      Matcher s = STEPS_PER_SECOND.matcher(text);
      double perSecond = s.find() ? Numbers.positive(s.group(1)) : Double.NaN;
      if (Double.isNaN(runtime)) {
        file.malformed(Framework.HUGGING_FACE, "train_runtime is not a number");
        return;
      }
      file.recognized(Framework.HUGGING_FACE);
      file.trainRuntime(runtime, Double.isNaN(perSecond) ? -1 : perSecond);
    }
  }
}
