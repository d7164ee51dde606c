package io.topolens.report;

import io.topolens.perf.Comparison;
import io.topolens.perf.Prediction;
import io.topolens.perf.RunConfig;
import io.topolens.perf.Term;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each configuration's step time goes, as {@code predict} and {@code compare} break it down
 * (compute, framework overhead, exposed communication per collective, offload copies, CPU
 * optimizer), one stacked bar per configuration, with the measured step or job time beside it where
 * the configuration file gives one.
 *
 * @param bars one per configuration, in the comparison's order
 * @param jobs predicted against measured job time, for configurations with a measured job time
 *     (empty when none has one)
 */
public record StepChart(
    List<Bar> bars, LinearAxis axis, List<JobBar> jobs, LinearAxis jobAxis, List<String> notes) {

  public static final double LEFT = 170;
  public static final double RIGHT = 620;
  public static final double ROW = 40;

  /** A configuration's predicted step, its parts, and its measured step (or null). */
  public record Bar(
      String name,
      String y,
      List<Segment> segments,
      String predicted,
      String measuredWidth,
      String measured,
      String job,
      String measuredJob,
      String reason) {}

  /** One term of a step: where it starts and how wide it is. */
  public record Segment(String kind, String x, String width, String title) {}

  /** Predicted and measured job time of one configuration. */
  public record JobBar(
      String name,
      String y,
      String predictedWidth,
      String measuredWidth,
      String predicted,
      String measured,
      String source) {}

  /** The kinds of term, in drawing order, with their legend names. */
  public static final List<Term.Kind> KINDS =
      List.of(
          Term.Kind.COMPUTE,
          Term.Kind.OVERHEAD,
          Term.Kind.COMMUNICATION,
          Term.Kind.OFFLOAD_TRANSFER,
          Term.Kind.CPU_OPTIMIZER);

  /**
   * The chart of a comparison; {@code measured} holds each row's measurement (or null) in the
   * comparison's order, and may be empty.
   */
  public static StepChart of(Comparison c, List<RunConfig.Measured> measured) {
    double max = 0;
    double jobMax = 0;
    for (int i = 0; i < c.rows().size(); i++) {
      Prediction p = c.rows().get(i).prediction();
      RunConfig.Measured m = i < measured.size() ? measured.get(i) : null;
      max = Math.max(max, p.stepS());
      if (m != null && m.stepS() != null) {
        max = Math.max(max, m.stepS());
      }
      if (m != null && m.jobS() != null) {
        jobMax = Math.max(jobMax, Math.max(m.jobS(), p.jobS()));
      }
    }
    LinearAxis axis = LinearAxis.upTo(max, LEFT, RIGHT);
    LinearAxis jobAxis = LinearAxis.upTo(jobMax, LEFT, RIGHT);
    List<Bar> bars = new ArrayList<>();
    List<JobBar> jobs = new ArrayList<>();
    for (int i = 0; i < c.rows().size(); i++) {
      Comparison.Row row = c.rows().get(i);
      Prediction p = row.prediction();
      RunConfig.Measured m = i < measured.size() ? measured.get(i) : null;
      List<Segment> segs = new ArrayList<>();
      double at = 0;
      for (Term.Kind k : KINDS) {
        for (Term t : p.terms()) {
          if (t.kind() != k || t.seconds() <= 0) {
            continue;
          }
          segs.add(
              new Segment(
                  kindCss(k),
                  axis.px(at),
                  axis.span(t.seconds()),
                  t.label()
                      + ": "
                      + Num.sig(t.seconds())
                      + " s ("
                      + Math.round(100 * t.seconds() / p.stepS())
                      + "% of the step)"));
          at += t.seconds();
        }
      }
      Double ms = m == null ? null : m.stepS();
      bars.add(
          new Bar(
              p.scenario().name(),
              Num.px(i * ROW),
              segs,
              Num.sig(p.stepS()),
              ms == null ? null : axis.span(ms),
              ms == null ? null : Num.sig(ms),
              Num.sig(p.jobS()),
              m == null || m.jobS() == null ? null : Num.sig(m.jobS()),
              row.reason()));
      if (m != null && m.jobS() != null) {
        jobs.add(
            new JobBar(
                p.scenario().name(),
                Num.px(jobs.size() * ROW),
                jobAxis.span(p.jobS()),
                jobAxis.span(m.jobS()),
                Num.sig(p.jobS()),
                Num.sig(m.jobS()),
                m.source()));
      }
    }
    return new StepChart(bars, axis, jobs, jobAxis, c.notes());
  }

  /** The CSS class of a term kind's segments and legend swatch. */
  public static String kindCss(Term.Kind k) {
    return "t-" + k.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /** A term kind in words. */
  public static String kindLabel(Term.Kind k) {
    return switch (k) {
      case COMPUTE -> "compute";
      case OVERHEAD -> "framework overhead";
      case COMMUNICATION -> "exposed communication (one segment per collective)";
      case OFFLOAD_TRANSFER -> "offload copies (PCIe)";
      case CPU_OPTIMIZER -> "CPU optimizer";
    };
  }

  public String height() {
    return Num.px(bars.size() * ROW + 30);
  }

  public String jobHeight() {
    return Num.px(jobs.size() * ROW + 30);
  }

  public String description() {
    List<String> parts = new ArrayList<>();
    for (Bar b : bars) {
      parts.add(
          b.name()
              + " "
              + b.predicted()
              + " s predicted"
              + (b.measured() == null ? "" : ", " + b.measured() + " s measured"));
    }
    return "Stacked bars of seconds per step: " + String.join("; ", parts) + ".";
  }
}
