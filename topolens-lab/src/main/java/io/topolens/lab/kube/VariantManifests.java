package io.topolens.lab.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.InstanceSpec;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.Linter;
import io.topolens.kube.manifest.ManifestReader;
import io.topolens.kube.manifest.WorkloadReader;
import io.topolens.kube.manifest.YamlDocument;
import io.topolens.kube.plan.Plan;
import io.topolens.kube.plan.PlanRequest;
import io.topolens.kube.plan.Planner;
import io.topolens.lab.experiment.ExperimentSpec;
import io.topolens.lab.experiment.Variant;
import io.topolens.nccl.InputProblem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the manifests of a variant's job: planned as {@code topolens plan} plans (instance type,
 * kind, image, namespace from the spec; layout, nodes and network from the variant) or the spec's
 * own manifest shaped as the variant; then the command, the experiment's and the variant's
 * environment, and for the probe its ConfigMap mounted into the pods; then linted.
 */
public final class VariantManifests {
  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
          .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
          .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
          .build();

  private final ExperimentSpec spec;
  private final ExperimentSpec.Kubernetes where;
  private final String namespace;
  private final HardwareCatalog catalog;

  /**
   * @param namespace the namespace the jobs go to ({@code --namespace}, else the spec's; null for
   *     the kubeconfig context's)
   */
  public VariantManifests(ExperimentSpec spec, String namespace, HardwareCatalog catalog) {
    this.spec = spec;
    this.where = (ExperimentSpec.Kubernetes) spec.where();
    this.namespace = namespace;
    this.catalog = catalog;
  }

  /** Why no job can be made for {@code v} on this cluster, or empty. */
  public Optional<String> cannot(Variant v) {
    if ("mpijob".equalsIgnoreCase(where.kind())) {
      return Optional.of(
          "kind: mpijob needs the MPI Operator and sshd; experiments run the probe and training"
              + " under torch's env:// variables: use kind: trainjob or pytorchjob");
    }
    if (where.manifest() == null && v.network() != null && !isEfa(v) && !isTcp(v)) {
      return Optional.of(
          "plan writes EFA or ENI (TCP) jobs, not " + v.network() + "; give your own manifest:");
    }
    try {
      for (Phase p : phases()) {
        job(v, p);
      }
    } catch (InputProblem e) {
      return Optional.of(e.getMessage());
    }
    return Optional.empty();
  }

  /** The phases every variant runs, in order. */
  public List<Phase> phases() {
    List<Phase> out = new ArrayList<>();
    if (spec.run().probes()) {
      out.add(Phase.PROBE);
    }
    if (spec.run().trains()) {
      out.add(Phase.TRAIN);
    }
    return out;
  }

  /** The job of {@code v}'s {@code phase}, linted. */
  public VariantJob job(Variant v, Phase phase) throws InputProblem {
    String name = Names.job(spec.name(), v.name(), phase);
    String source;
    List<ObjectNode> docs = new ArrayList<>();
    if (where.manifest() == null) {
      PlanRequest r = request(v, name, VariantCommand.of(spec, v, phase));
      Plan plan = Planner.standard().plan(r.toSpec());
      for (YamlDocument d :
          new ManifestReader().parse("plan", plan.yaml().getBytes(StandardCharsets.UTF_8))) {
        docs.add((ObjectNode) d.root().deepCopy());
      }
      source = planCommand(r);
    } else {
      for (YamlDocument d : new ManifestReader().read(where.manifest().toString())) {
        docs.add((ObjectNode) d.root().deepCopy());
      }
      source = where.manifest() + ", patched for the variant";
    }
    ObjectNode job = jobOf(docs);
    if (where.manifest() != null) {
      String original = job.path("metadata").path("name").asText();
      ((ObjectNode) job.path("metadata")).put("name", name);
      InstanceSpec inst =
          where.instance() == null ? null : catalog.instance(where.instance()).orElse(null);
      new JobPatch(job).layout(v, inst).placement(original, name, v);
    }
    JobPatch patch =
        new JobPatch(job).command(VariantCommand.of(spec, v, phase)).env(env(v)).noRestarts();
    if (phase == Phase.PROBE) {
      String cm = name + "-py";
      patch.mountProbe(cm);
      docs.addFirst(ProbeConfigMap.of(cm, namespace, spec.name(), v.name()));
    }
    String yaml = header(v, phase, source) + yaml(docs);
    String file = phase.label() + "/manifests.yaml";
    List<YamlDocument> read =
        new ManifestReader().parse(file, yaml.getBytes(StandardCharsets.UTF_8));
    List<Finding> findings = lint(read);
    List<Finding> blocking =
        findings.stream().filter(f -> f.severity() == Severity.ERROR && !deliberate(f, v)).toList();
    return new VariantJob(phase, name, source, yaml, read, findings, blocking);
  }

  private PlanRequest request(Variant v, String name, String command) {
    return new PlanRequest(
        where.instance(),
        v.nodes(),
        String.valueOf(v.layout().gpusPerPod()),
        v.network() == null ? null : isEfa(v) ? "efa" : "eni",
        where.kind(),
        "train",
        where.image(),
        command,
        name,
        namespace,
        where.runtime(),
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        v.layout().pods());
  }

  /** The plan command line that writes the same job before the experiment's changes. */
  private String planCommand(PlanRequest r) {
    List<String> w = new ArrayList<>(List.of("topolens", "plan", "--instance", r.instance()));
    w.addAll(List.of("--nodes", String.valueOf(r.nodes())));
    w.addAll(List.of("--gpus-per-pod", r.gpusPerPod(), "--pods-per-node", "" + r.podsPerNode()));
    if (r.network() != null) {
      w.addAll(List.of("--network", r.network()));
    }
    if (r.kind() != null) {
      w.addAll(List.of("--kind", r.kind()));
    }
    w.addAll(List.of("--name", r.name()));
    if (r.namespace() != null) {
      w.addAll(List.of("-n", r.namespace()));
    }
    if (r.runtime() != null) {
      w.addAll(List.of("--runtime", r.runtime()));
    }
    return String.join(" ", w);
  }

  private Map<String, String> env(Variant v) {
    Map<String, String> env = new LinkedHashMap<>(spec.env());
    env.putAll(v.env());
    env.put("TOPOLENS_VARIANT", v.name());
    if (v.offload() != null) {
      env.put("TOPOLENS_OFFLOAD", v.offload());
    }
    return env;
  }

  private List<Finding> lint(List<YamlDocument> docs) {
    WorkloadReader.Result r = new WorkloadReader().read(docs);
    LintContext d = LintContext.defaults();
    LintContext ctx =
        new LintContext(
            catalog,
            d.settings(),
            d.measurements(),
            d.trainer(),
            false,
            where.instance(),
            null,
            null);
    return Linter.standard().lint(r.workloads(), ctx);
  }

  /** Findings the variant asks for on purpose: an ENI variant's missing EFA. */
  static boolean deliberate(Finding f, Variant v) {
    return f.id().equals("efa-not-requested") && v.network() != null && isTcp(v);
  }

  private static boolean isEfa(Variant v) {
    return "efa".equals(v.network());
  }

  private static boolean isTcp(Variant v) {
    return List.of("eni", "tcp", "socket", "sockets", "ena").contains(v.network());
  }

  private static ObjectNode jobOf(List<ObjectNode> docs) throws InputProblem {
    for (ObjectNode d : docs) {
      if (JobPatch.knows(d)) {
        return d;
      }
    }
    throw new InputProblem(
        "no TrainJob or PyTorchJob among the manifests: experiments patch one of those");
  }

  private String header(Variant v, Phase phase, String source) {
    return "# topolens experiment "
        + spec.name()
        + ", variant "
        + v.name()
        + " ("
        + phase.label()
        + "): "
        + source
        + "\n";
  }

  static String yaml(List<? extends JsonNode> docs) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < docs.size(); i++) {
      if (i > 0) {
        sb.append("---\n");
      }
      try {
        sb.append(YAML.writeValueAsString(docs.get(i)));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("cannot write YAML", e);
      }
    }
    return sb.toString();
  }
}
