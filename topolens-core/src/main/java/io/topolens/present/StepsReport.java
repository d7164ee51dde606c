package io.topolens.present;

import com.fasterxml.jackson.core.JsonGenerator;
import io.topolens.model.Evidence;
import io.topolens.steps.Framework;
import io.topolens.steps.StepSummary;
import io.topolens.steps.StepTimes;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The job's step time as {@code diagnose} shows it: one summary line, or a {@code steps} object.
 */
final class StepsReport {
  private StepsReport() {}

  /** The summary line (" steps ..."), nothing when the logs hold no framework lines. */
  static void text(StepTimes t, boolean verbose, PrintWriter out) {
    if (!t.any()) {
      return;
    }
    Optional<StepSummary> s = t.summary();
    String malformed =
        t.malformed().count() == 0
            ? ""
            : String.format(
                Locale.ROOT,
                "; %d malformed line(s)%s",
                t.malformed().count(),
                verbose ? "" : " (--verbose shows them)");
    if (s.isEmpty()) {
      out.printf(
          "  steps     no step time yet in %d %s line(s)%s%n",
          t.lines().values().stream().mapToLong(Long::longValue).sum(),
          t.mainFramework().label(),
          malformed);
    } else {
      StepSummary x = s.get();
      out.printf(
          Locale.ROOT,
          "  steps     %s s median (min %s, max %s) over %d step(s), %s, %s%s%s%n",
          seconds(x.median()),
          seconds(x.min()),
          seconds(x.max()),
          x.count(),
          x.framework().label(),
          x.derivation().label(),
          x.warmupDropped() == 0
              ? ""
              : String.format(Locale.ROOT, "; %d warm-up step(s) left out", x.warmupDropped()),
          malformed);
    }
    if (verbose) {
      for (Evidence e : t.malformed().samples()) {
        out.printf("    %s: %s%n", e.where(), e.text());
      }
    }
  }

  /** Seconds with four significant digits ({@code 46.16}, {@code 0.1312}, {@code 3857}). */
  static String seconds(double v) {
    return new java.math.BigDecimal(v)
        .round(new java.math.MathContext(4))
        .stripTrailingZeros()
        .toPlainString();
  }

  /** The {@code steps} field: null when the logs hold no framework lines (docs/json.md). */
  static void json(JsonGenerator g, StepTimes t) throws IOException {
    if (!t.any()) {
      g.writeNullField("steps");
      return;
    }
    Optional<StepSummary> s = t.summary();
    g.writeObjectFieldStart("steps");
    Framework f = s.map(StepSummary::framework).orElse(t.mainFramework());
    g.writeStringField("framework", f.id());
    if (s.isPresent()) {
      StepSummary x = s.get();
      g.writeStringField("derivation", x.derivation().id());
      g.writeNumberField("medianSeconds", x.median());
      g.writeNumberField("minSeconds", x.min());
      g.writeNumberField("maxSeconds", x.max());
      g.writeNumberField("count", x.count());
      g.writeNumberField("warmupDropped", x.warmupDropped());
      g.writeFieldName("example");
      JsonFields.evidence(g, x.example());
    } else {
      g.writeNullField("derivation");
      g.writeNullField("medianSeconds");
      g.writeNullField("minSeconds");
      g.writeNullField("maxSeconds");
      g.writeNumberField("count", 0);
      g.writeNumberField("warmupDropped", 0);
      g.writeNullField("example");
    }
    g.writeObjectFieldStart("lines");
    for (Map.Entry<Framework, Long> e : t.lines().entrySet()) {
      g.writeNumberField(e.getKey().id(), e.getValue());
    }
    g.writeEndObject();
    g.writeObjectFieldStart("malformed");
    g.writeNumberField("count", t.malformed().count());
    JsonFields.evidenceArray(g, "samples", t.malformed().samples());
    g.writeEndObject();
    g.writeEndObject();
  }
}
