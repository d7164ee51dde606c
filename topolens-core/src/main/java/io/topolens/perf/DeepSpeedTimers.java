package io.topolens.perf;

import io.topolens.model.Evidence;
import io.topolens.nccl.InputProblem;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DeepSpeed's {@code wall_clock_breakdown} timers of each optimizer step ({@code time (ms) | fwd:
 * 6567.66 | bwd: 17950.35 | ... | step: 1139.29}; {@code forward:/backward:} before 0.9), summed
 * over the step's micro-steps: the medians after the first step (warm-up), in seconds. Per-micro-
 * step timers ({@code fwd_microstep}) are left out; lines naming no fwd, bwd and step are counted.
 *
 * @param fwdS median forward seconds per optimizer step
 * @param bwdS median backward seconds per optimizer step
 * @param stepS median optimizer-step seconds (with ZeRO offload: the CPU optimizer and copies)
 * @param steps timer lines used
 * @param evidence the first line used
 */
public record DeepSpeedTimers(
    double fwdS, double bwdS, double stepS, int steps, Evidence evidence) {

  private static final Pattern TIMERS = Pattern.compile("time \\(ms\\) \\|(.*)$");
  private static final Pattern FIELD = Pattern.compile("\\s*([a-z_]+):\\s*([0-9.]+)\\s*");

  public static DeepSpeedTimers read(Path file, String name) throws InputProblem {
    List<double[]> rows = new ArrayList<>();
    Evidence first = null;
    long n = 0;
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        n++;
        Matcher m = TIMERS.matcher(line);
        if (!m.find()) {
          continue;
        }
        Double fwd = null;
        Double bwd = null;
        Double step = null;
        for (String part : m.group(1).split("\\|")) {
          Matcher f = FIELD.matcher(part);
          if (!f.matches()) {
            continue;
          }
          double ms = Double.parseDouble(f.group(2));
          switch (f.group(1)) {
            case "fwd", "forward" -> fwd = ms / 1000;
            case "bwd", "backward" -> bwd = ms / 1000;
            case "step" -> step = ms / 1000;
            default -> {}
          }
        }
        if (fwd != null && bwd != null && step != null) {
          rows.add(new double[] {fwd, bwd, step});
          if (first == null) {
            first = new Evidence(name, n, line.strip());
          }
        }
      }
    } catch (IOException e) {
      throw new InputProblem(name + ": cannot read: " + e.getMessage());
    }
    if (rows.isEmpty()) {
      throw new InputProblem(
          name
              + ": no DeepSpeed wall_clock_breakdown lines (time (ms) | fwd: ... | bwd: ... |"
              + " step: ...); set \"wall_clock_breakdown\": true in the DeepSpeed config");
    }
    List<double[]> used = rows.size() > 1 ? rows.subList(1, rows.size()) : rows;
    return new DeepSpeedTimers(
        median(used, 0), median(used, 1), median(used, 2), used.size(), first);
  }

  private static double median(List<double[]> rows, int col) {
    double[] v = rows.stream().mapToDouble(r -> r[col]).toArray();
    Arrays.sort(v);
    int m = v.length / 2;
    return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
  }
}
