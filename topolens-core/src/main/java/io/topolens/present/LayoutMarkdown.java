package io.topolens.present;

import io.topolens.perf.ExperimentValidation;
import io.topolens.perf.ValidationReport;
import io.topolens.perf.ValidationReport.RatioCheck;
import io.topolens.perf.ValidationReport.StepCheck;
import java.io.PrintWriter;
import java.util.Locale;

/** The pods-sharing-a-host section of docs/model-validation.md. */
final class LayoutMarkdown {

  void write(ValidationReport r, PrintWriter out) {
    out.println("## 4. Pods sharing a host (4 x H200, `examples/perf/h200-layouts.yaml`)");
    out.println();
    out.println(
        "The FSDP run of section 3 with its 4 GPUs split into 1, 2 or 4 pods of one host, each"
            + " pod its own NCCL node, so traffic between pods takes NET/Socket through the host's"
            + " network stack. The model: a ring leaves each pod once per channel (2 pods of 2"
            + " keep half the hops on NVLink, 4 pods of 1 none), each crossing is one socket flow,"
            + " and the flows share the host's CPUs, so a TCP calibration measured with h network"
            + " hops per ring (counted from its NCCL connection lines: 4 in the fixtures'"
            + " P2P-and-SHM-off runs) gives a ring of h' hops h/h' of its rate. **predicted**:"
            + " calibrated by the fixtures' nccl-tests, nothing fitted to these runs. **held out**:"
            + " the TCP rate fitted to the *other* split layout's measured step, then this ratio"
            + " predicted. Only the ratios are evidence (the YAML says why).");
    out.println();
    ValidationMarkdown.stepTable(r.layoutSteps(), "%.3f", out);
    out.println();
    out.println("| ratio | measured | predicted | err | held out | err |");
    out.println("|---|---|---|---|---|---|");
    for (RatioCheck c : r.layoutRatios()) {
      out.printf(
          Locale.ROOT,
          "| %s | %.2f | %.2f | %s | %s | %s |%n",
          c.name(),
          c.measured(),
          c.predicted(),
          ValidationMarkdown.pct(ValidationMarkdown.err(c.predicted(), c.measured())),
          c.predictedFitted() == null
              ? "-"
              : String.format(Locale.ROOT, "%.2f", c.predictedFitted()),
          c.predictedFitted() == null
              ? "-"
              : ValidationMarkdown.pct(ValidationMarkdown.err(c.predictedFitted(), c.measured())));
    }
    out.println();
    out.println(
        "The fixtures' socket runs were measured in another session than the layouts; the"
            + " socket rate differs between the two, which the held-out column removes. A probe of"
            + " each layout (`topolens probe`, read by `--calibrate`) calibrates each layout's own"
            + " rate: the 4-GPU experiments below do so (issue 15).");
    out.println();
    podsOfOne(r, out);
  }

  /**
   * What the 4-GPU experiments, each layout calibrated by its own probe, say of 4 pods of 1 against
   * 2 pods of 2 (no offload): the ratio this section's runs measured, and the one the hop scaling
   * gives.
   */
  private static void podsOfOne(ValidationReport r, PrintWriter out) {
    RatioCheck two = null;
    RatioCheck four = null;
    for (RatioCheck c : r.layoutRatios()) {
      if (c.name().startsWith("2 pods")) {
        two = c;
      } else if (c.name().startsWith("4 pods")) {
        four = c;
      }
    }
    for (int i = 0; i < r.experiments().size(); i++) {
      ExperimentValidation.Report e = r.experiments().get(i);
      StepCheck pair = step(e, "2x2");
      StepCheck single = step(e, "4x1");
      if (pair == null || single == null) {
        continue;
      }
      out.printf(
          Locale.ROOT,
          "- Section %d (`%s`, each layout calibrated by its own probe): 4 pods of 1 took %.2fx"
              + " the step of 2 pods of 2 (%.3f s against %.3f s), predicted %.2fx (%s)%s.%n",
          6 + i,
          e.results(),
          single.measured() / pair.measured(),
          single.measured(),
          pair.measured(),
          single.predicted() / pair.predicted(),
          ValidationMarkdown.pct(
              ValidationMarkdown.err(
                  single.predicted() / pair.predicted(), single.measured() / pair.measured())),
          two == null || four == null
              ? ""
              : String.format(
                  Locale.ROOT,
                  "; here %.2fx measured (%.2f / %.2f), %.2fx predicted",
                  four.measured() / two.measured(),
                  four.measured(),
                  two.measured(),
                  four.predicted() / two.predicted()));
    }
    out.println();
  }

  /** The variant of this layout without offload or a disabled transport, or null. */
  private static StepCheck step(ExperimentValidation.Report e, String layout) {
    for (StepCheck c : e.steps()) {
      if (c.name().equals(layout) || c.name().equals(layout + "-offload-none")) {
        return c;
      }
    }
    return null;
  }
}
