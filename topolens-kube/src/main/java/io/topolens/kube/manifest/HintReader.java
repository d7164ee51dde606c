package io.topolens.kube.manifest;

import io.topolens.kube.model.Located;
import io.topolens.kube.model.OffloadMode;
import io.topolens.kube.model.TrainingHints;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads hints about the training from free text (commands, env values, ConfigMap data): the model
 * size from a name like {@code Meta-Llama-3-8B} or {@code Qwen2.5-1.5B}, and CPU offload from
 * DeepSpeed ({@code offload_param}, {@code offload_optimizer}) or FSDP ({@code
 * fsdp_offload_params}, {@code cpu_offload}) settings that are not set to none or false.
 */
final class HintReader {
  private static final Pattern SIZE = Pattern.compile("(?<![\\w.])(\\d+(?:\\.\\d+)?)[bB](?![\\w])");
  private static final Pattern OFFLOAD =
      Pattern.compile(
          "(?i)(offload[_-]?params?|offload[_-]?optimizer|cpu[_-]?offload)[\"']?\\s*[:=]?\\s*(?=(.{0,60}))",
          Pattern.DOTALL);
  private static final Pattern OFF =
      Pattern.compile("(?i)^[{\\s\"']*(\"?device\"?\\s*:\\s*)?[\"']?(none|false|0)\\b");

  /** A piece of text, the document it is in and the line it starts at. */
  record Text(String text, YamlDocument doc, io.topolens.model.Evidence start) {
    io.topolens.model.Evidence find(String needle) {
      return start.file().equals(doc.file()) ? doc.find((int) start.line(), needle) : start;
    }
  }

  private HintReader() {}

  static TrainingHints read(List<Text> texts) {
    Located<Double> params = null;
    Located<OffloadMode> offload = null;
    for (Text t : texts) {
      if (params == null) {
        Matcher m = SIZE.matcher(t.text());
        if (m.find()) {
          params = new Located<>(Double.parseDouble(m.group(1)) * 1e9, t.find(m.group()));
        }
      }
      Matcher m = OFFLOAD.matcher(t.text());
      while (m.find()) {
        if (OFF.matcher(m.group(2)).find()) {
          continue;
        }
        String what = m.group(1).toLowerCase(Locale.ROOT);
        OffloadMode mode = what.contains("param") ? OffloadMode.PARAMS : OffloadMode.OPTIMIZER;
        if (offload == null
            || mode == OffloadMode.PARAMS && offload.value() != OffloadMode.PARAMS) {
          offload = new Located<>(mode, t.find(m.group(1)));
        }
      }
    }
    return new TrainingHints(params, offload);
  }
}
