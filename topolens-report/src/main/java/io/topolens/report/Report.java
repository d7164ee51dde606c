package io.topolens.report;

import io.topolens.diagnose.Diagnosis;
import io.topolens.diagnose.Finding;
import io.topolens.experiment.Experiment;
import io.topolens.inputs.Inputs;
import io.topolens.perf.Comparison;
import io.topolens.perf.RunConfig;
import io.topolens.smi.SmiReport;
import io.topolens.smi.TopoMatrix;
import io.topolens.verdict.BenchVerdict;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything one HTML report shows, built from the models the text and JSON outputs use: a
 * diagnosis, bench verdicts, a comparison of predictions, an experiment's results. Each part is
 * optional; the page leaves out the sections it has nothing for.
 *
 * @param title the page's title
 * @param maps the transport maps of the largest communicators with connection lines
 * @param moreCommunicators communicators with connection lines that have no map here
 * @param topologies the topo -m matrices read
 * @param steps the step-time breakdown of a comparison, or null
 * @param variants an experiment's variants, or null
 */
public record Report(
    String title,
    Summary summary,
    List<Diagnosis.Beside> beside,
    List<TransportGrid> maps,
    int moreCommunicators,
    List<LinkGrid> topologies,
    List<BandwidthChart> bandwidth,
    List<BenchVerdict> verdicts,
    StepChart steps,
    VariantChart variants,
    List<Finding> findings) {

  /** Transport maps drawn per report: the largest communicators first. */
  static final int MAX_MAPS = 3;

  public static Builder builder(String title) {
    return new Builder(title);
  }

  /** Collects the parts of a report; every part is optional. */
  public static final class Builder {
    private final String title;
    private final List<String> inputs = new ArrayList<>();
    private final List<SmiReport> smi = new ArrayList<>();
    private Diagnosis diagnosis;
    private List<BenchVerdict> verdicts = List.of();
    private Comparison comparison;
    private List<RunConfig.Measured> measured = List.of();
    private Experiment experiment;

    private Builder(String title) {
      this.title = title;
    }

    /** What was read: the input names for the summary and the topo -m matrices among them. */
    public Builder inputs(Inputs in) {
      in.kinds().forEach(k -> inputs.add(k.name()));
      smi.addAll(in.smi());
      return this;
    }

    /** Names of inputs that are no {@link Inputs} (an experiment folder, a configuration). */
    public Builder input(String name) {
      inputs.add(name);
      return this;
    }

    public Builder diagnosis(Diagnosis d) {
      this.diagnosis = d;
      return this;
    }

    public Builder bench(List<BenchVerdict> v) {
      this.verdicts = List.copyOf(v);
      return this;
    }

    /**
     * A comparison and, in its row order, what each configuration measured (entries may be null).
     */
    public Builder comparison(Comparison c, List<RunConfig.Measured> m) {
      this.comparison = c;
      this.measured = new ArrayList<>(m);
      return this;
    }

    public Builder experiment(Experiment e) {
      this.experiment = e;
      return this;
    }

    public Report build() {
      List<TransportGrid> maps =
          diagnosis == null ? List.of() : TransportGrid.of(diagnosis.job(), MAX_MAPS);
      int withEdges =
          diagnosis == null
              ? 0
              : (int)
                  diagnosis.job().communicators().stream()
                      .filter(c -> !c.edges().isEmpty())
                      .count();
      List<LinkGrid> topo = new ArrayList<>();
      for (SmiReport s : smi) {
        for (TopoMatrix m : s.matrices()) {
          topo.add(LinkGrid.of(m));
        }
      }
      return new Report(
          title,
          Summary.of(
              inputs,
              diagnosis,
              verdicts,
              comparison == null ? 0 : comparison.rows().size(),
              experiment),
          diagnosis == null ? List.of() : diagnosis.beside(),
          maps,
          withEdges - maps.size(),
          topo,
          BandwidthChart.of(verdicts),
          verdicts,
          comparison == null ? null : StepChart.of(comparison, measured),
          experiment == null ? null : VariantChart.of(experiment),
          diagnosis == null ? List.of() : diagnosis.findings());
    }
  }
}
