package io.topolens.report;

import io.topolens.experiment.Experiment;
import io.topolens.nccl.PathParser;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * An experiment's variants side by side: the median step of each as a bar with its fastest and
 * slowest step as a whisker, labelled with the transports it used and its main finding; variants
 * that failed or were skipped keep their row and say so.
 *
 * @param collectives every collective any variant measured, for the busbw table
 * @param withOneStep how the predictions with one step were made (whose step fixed the job's
 *     compute, and the MFU it gave), as results.json says it, once each
 */
public record VariantChart(
    String name,
    List<Row> rows,
    LinearAxis axis,
    List<String> collectives,
    List<String> withOneStep) {

  public static final double LEFT = 170;
  public static final double RIGHT = 470;
  public static final double ROW = 40;

  /** Names longer than this are squeezed into the 160 px left of the bars rather than cut off. */
  public static final int LABEL_CHARS = 26;

  /**
   * One variant's row.
   *
   * @param width the bar's width, or null when the variant has no step time
   * @param note transports and main finding, or the status of a variant that did not run
   * @param fromProbe predict's step from the variant's own probe
   * @param withOneStep predict's step with the job's compute fixed by one measured step
   */
  public record Row(
      Experiment.Variant variant,
      String y,
      String width,
      String whiskerFrom,
      String whiskerTo,
      String median,
      String note,
      String css,
      PathClass path,
      PredictedStep fromProbe,
      PredictedStep withOneStep) {}

  public static VariantChart of(Experiment e) {
    double max = 0;
    for (Experiment.Variant v : e.variants()) {
      if (v.stepSeconds() != null) {
        max = Math.max(max, Math.max(v.stepSeconds().max(), v.stepSeconds().median()));
      }
    }
    LinearAxis axis = LinearAxis.upTo(max, LEFT, RIGHT);
    List<Row> rows = new ArrayList<>();
    TreeSet<String> collectives = new TreeSet<>();
    List<String> withOneStep = new ArrayList<>();
    for (Experiment.Variant v : e.variants()) {
      collectives.addAll(v.busbw().keySet());
      Experiment.Steps s = v.stepSeconds();
      boolean ok = "ok".equals(v.status()) && s != null;
      Experiment.FindingRef main = v.mainFinding();
      String note =
          ok
              ? (v.transports().isEmpty()
                      ? "transport not seen"
                      : String.join(", ", v.transports()))
                  + (main == null ? "" : "; " + main.severity() + " " + main.id())
              : (v.status() == null ? "no status" : v.status())
                  + (s == null ? ", no step time" : "");
      rows.add(
          new Row(
              v,
              Num.px(rows.size() * ROW),
              ok ? axis.span(s.median()) : null,
              ok ? axis.px(s.min()) : null,
              ok ? axis.px(s.max()) : null,
              ok ? Num.sig(s.median()) : null,
              note,
              main == null ? "sev-none" : "sev-" + main.severity(),
              slowest(v.transports()),
              PredictedStep.fromProbe(e, v),
              PredictedStep.withOneStep(e, v, PredictedStep.reference(e, v))));
      if (v.predictedWithStepFrom() != null && !withOneStep.contains(v.predictedWithStepFrom())) {
        withOneStep.add(v.predictedWithStepFrom());
      }
    }
    return new VariantChart(
        e.name(), rows, axis, List.copyOf(collectives), List.copyOf(withOneStep));
  }

  /**
   * The slowest path among a variant's transports (as NCCL printed them), for the bar's colour;
   * grey (not recognised) when none is given.
   */
  static PathClass slowest(List<String> transports) {
    PathClass out = null;
    for (String t : transports) {
      PathClass c = PathClass.of(PathParser.parse(t));
      if (out == null || c.slowerThan(out)) {
        out = c;
      }
    }
    return out == null ? PathClass.OTHER : out;
  }

  /** The path classes the bars use, for the legend. */
  public List<PathClass> paths() {
    return rows.stream().filter(r -> r.width() != null).map(Row::path).distinct().toList();
  }

  public String height() {
    return Num.px(rows.size() * ROW + 30);
  }

  public String description() {
    List<String> parts = new ArrayList<>();
    for (Row r : rows) {
      parts.add(
          r.variant().name()
              + (r.median() == null
                  ? " " + r.note()
                  : " median " + r.median() + " s, " + r.note()));
    }
    return "Bars of the median step time per variant: " + String.join("; ", parts) + ".";
  }

  /** A variant's measured median step, seconds, or a dash. */
  public static String step(Experiment.Variant v) {
    return v.stepSeconds() == null ? "–" : Num.sig(v.stepSeconds().median());
  }

  /** A variant's peak busbw for a collective, or a dash. */
  public static String busbw(Experiment.Variant v, String collective) {
    Double b = v.busbw().get(collective);
    return b == null ? "–" : Num.sig(b);
  }
}
