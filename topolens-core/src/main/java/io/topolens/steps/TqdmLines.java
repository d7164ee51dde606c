package io.topolens.steps;

import java.util.List;
import java.util.regex.Matcher;
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
  private static final Pattern BAR =
      Pattern.compile("(\\d{1,3})%\\|[^|]*\\|\\s*(\\d+)/(\\d+) \\[([^\\]\\[]*)(\\]?)");
  private static final Pattern RATE =
      Pattern.compile("(?:^|,)\\s*([0-9]*\\.?[0-9]+|\\?)(s/it|it/s)\\s*(?:,|$)");
  private static final Pattern LIGHTNING = Pattern.compile("(?:^|\\s|\\])Epoch (\\d+):$");
  private static final Pattern RANK = Pattern.compile("\\[rank\\d+\\]:$");

  @Override
  public List<String> needles() {
    return List.of("%|");
  }

  @Override
  public void read(String text, StepSink file) {
    if (!text.contains("%|")) {
      return; // BAR's literal: the regular expression need not try every position
    }
    Matcher m = BAR.matcher(text);
    int from = 0;
    while (m.find()) {
      String before = text.substring(from, m.start()).strip();
      from = m.end();
      Framework f;
      if (!before.endsWith(":") || RANK.matcher(before).find()) {
        f = Framework.HUGGING_FACE;
      } else if (LIGHTNING.matcher(before).find()) {
        f = Framework.LIGHTNING;
      } else {
        continue; // another bar: loading shards, evaluation, data processing
      }
      long step = Long.parseLong(m.group(2));
      long total = Long.parseLong(m.group(3));
      Matcher r = RATE.matcher(m.group(4));
      if (!r.find()) {
        if (m.group(5).isEmpty()) {
          file.malformed(f, "progress bar cut off before its rate");
        }
        continue; // else a bar counting other units (examples/s, ba/s)
      }
      file.recognized(f);
      if (r.group(1).equals("?")) {
        continue; // no rate before the first step ends
      }
      double rate = Numbers.positive(r.group(1));
      if (Double.isNaN(rate)) {
        file.malformed(f, "progress bar rate is not a number");
        continue;
      }
      double seconds = r.group(2).equals("s/it") ? rate : 1 / rate;
      String kind = (f == Framework.LIGHTNING ? "lightning:" : "tqdm:") + total;
      file.barStep(file.key(kind), total, step, seconds, f);
    }
  }
}
