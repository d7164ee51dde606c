package io.topolens.perf;

import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Several predictions side by side: each row's ratio to the fastest and, for the others, what makes
 * it slower; with CPU offload, what the ratio would be without it.
 *
 * @param rows in the order the configurations were given
 * @param best index of the fastest row
 * @param notes sentences about the comparison as a whole
 */
public record Comparison(List<Row> rows, int best, List<String> notes) {

  public Comparison {
    rows = List.copyOf(rows);
    notes = List.copyOf(notes);
  }

  /**
   * One configuration.
   *
   * @param ratio step time over the best row's
   * @param reason why it is slower than the best, or the best row's bottleneck
   * @param ratioWithoutOffload the ratio both would have without CPU offload, or null
   */
  public record Row(
      Prediction prediction, double ratio, String reason, Double ratioWithoutOffload) {}

  /** Predicts every scenario and compares them. */
  public static Comparison of(StepModel model, List<Scenario> scenarios) throws InputProblem {
    if (scenarios.isEmpty()) {
      throw new IllegalArgumentException("nothing to compare");
    }
    List<Prediction> preds = new ArrayList<>();
    for (Scenario s : scenarios) {
      preds.add(model.predict(s));
    }
    int best = 0;
    for (int i = 1; i < preds.size(); i++) {
      if (preds.get(i).stepS() < preds.get(best).stepS()) {
        best = i;
      }
    }
    Prediction b = preds.get(best);
    Prediction bNoOff = null;
    if (b.scenario().workload().offload().any()) {
      bNoOff = model.predict(withoutOffload(b.scenario()));
    }
    List<Row> rows = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (int i = 0; i < preds.size(); i++) {
      Prediction p = preds.get(i);
      double ratio = p.stepS() / b.stepS();
      Double without = null;
      if (i != best && bNoOff != null && p.scenario().workload().offload().any()) {
        Prediction pNoOff = model.predict(withoutOffload(p.scenario()));
        without = pNoOff.stepS() / bNoOff.stepS();
        if (without > ratio * 1.2) {
          double offload =
              p.seconds(Term.Kind.CPU_OPTIMIZER) + p.seconds(Term.Kind.OFFLOAD_TRANSFER);
          notes.add(
              String.format(
                  Locale.ROOT,
                  "%s: without CPU offload it would take %sx the time of %s; offload adds %s s of"
                      + " PCIe copies and CPU optimizer work per step whatever the network, so"
                      + " the same extra communication is a smaller share: %sx.",
                  p.scenario().name(),
                  ratioText(without),
                  b.scenario().name(),
                  StepModel.num3(offload),
                  ratioText(ratio)));
        }
      }
      String reason = i == best ? p.bottleneck() : slower(p, b);
      rows.add(new Row(p, ratio, reason, without));
    }
    return new Comparison(rows, best, notes);
  }

  private static Scenario withoutOffload(Scenario s) {
    return new Scenario(s.name(), s.workload().withOffload(Offload.NONE), s.cluster());
  }

  /** What makes {@code p} slower than {@code best}, by the term kind that grew most. */
  static String slower(Prediction p, Prediction best) {
    Map<Term.Kind, Double> delta = new EnumMap<>(Term.Kind.class);
    for (Term.Kind k : Term.Kind.values()) {
      delta.put(k, p.seconds(k) - best.seconds(k));
    }
    Term.Kind most =
        delta.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    double d = p.stepS() - best.stepS();
    String head =
        (d >= 0 ? "+" : "") + StepModel.num3(d) + " s/step vs " + best.scenario().name() + ": ";
    double grew = delta.get(most);
    return head
        + switch (most) {
          case COMMUNICATION -> {
            Link pb = p.group().bottleneck();
            Link bb = best.group().bottleneck();
            yield StepModel.num3(grew)
                + " s more exposed communication ("
                + (pb == null
                    ? "none"
                    : pb.path().label() + " at " + StepModel.num(pb.busBwGBps()) + " GB/s")
                + " against "
                + (bb == null
                    ? "none"
                    : bb.path().label() + " at " + StepModel.num(bb.busBwGBps()) + " GB/s")
                + ")";
          }
          case COMPUTE -> StepModel.num3(grew) + " s more compute";
          case CPU_OPTIMIZER -> StepModel.num3(grew) + " s more CPU optimizer time";
          case OFFLOAD_TRANSFER -> StepModel.num3(grew) + " s more offload copies";
          case OVERHEAD -> StepModel.num3(grew) + " s more framework overhead";
        };
  }

  static String ratioText(double r) {
    return r >= 10 ? String.format(Locale.ROOT, "%.1f", r) : String.format(Locale.ROOT, "%.2f", r);
  }
}
