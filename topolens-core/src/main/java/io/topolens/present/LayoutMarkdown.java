package io.topolens.present;

import io.topolens.perf.ValidationReport;
import io.topolens.perf.ValidationReport.RatioCheck;
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
            + " each layout (`topolens probe`, read by `--calibrate`) would calibrate each layout's"
            + " own rate: no such probe output exists yet (issue 15).");
    out.println();
  }
}
