package io.topolens.kube.manifest;

import static io.topolens.kube.manifest.YamlDocument.child;
import static io.topolens.kube.manifest.YamlDocument.item;

import io.topolens.kube.model.Container;
import io.topolens.kube.model.EnvVar;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.MpiSpec;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.PodTemplate;
import io.topolens.kube.model.ProcessCount;
import io.topolens.kube.model.Resources;
import io.topolens.kube.model.TrainerRelease;
import io.topolens.kube.model.TrainerSpec;
import io.topolens.kube.model.Workload;
import io.topolens.kube.model.WorkloadKind;
import io.topolens.model.Evidence;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns manifest documents into {@link Workload}s: TrainJobs (with the runtime they name when it is
 * among the documents, and their patches applied), Trainer runtimes, PyTorchJobs, MPIJobs, JobSets,
 * Jobs and Pods. ConfigMaps are read as text (DeepSpeed configs); other Kubernetes kinds are
 * skipped and listed. A document that cannot be read gives one {@link InputProblem} naming
 * file:line; the others are still read.
 */
public final class WorkloadReader {
  /** Kubernetes API groups whose kinds are not jobs; documents of them are skipped. */
  private static final Set<String> AUXILIARY_GROUPS =
      Set.of(
          "v1",
          "apps/v1",
          "rbac.authorization.k8s.io/v1",
          "networking.k8s.io/v1",
          "policy/v1",
          "storage.k8s.io/v1",
          "scheduling.k8s.io/v1",
          "apiextensions.k8s.io/v1",
          "autoscaling/v2",
          "autoscaling/v1",
          "coordination.k8s.io/v1",
          "resource.k8s.io/v1",
          "resource.k8s.io/v1beta1",
          "resource.k8s.io/v1beta2");

  private static final Set<String> AUXILIARY_PREFIXES =
      Set.of(
          "kueue.x-k8s.io/",
          "karpenter.sh/",
          "karpenter.k8s.aws/",
          "scheduling.x-k8s.io/",
          "scheduling.volcano.sh/",
          "topology.volcano.sh/",
          "kustomize.config.k8s.io/");

  /** Groups topolens reads; an unknown kind or version in them is an error, not a skip. */
  private static final Set<String> JOB_GROUPS =
      Set.of("trainer.kubeflow.org", "kubeflow.org", "jobset.x-k8s.io", "batch");

  static final Set<String> TRAINJOB_SPEC =
      Set.of(
          "activeDeadlineSeconds",
          "initializer",
          "managedBy",
          "runtimePatches",
          "runtimeRef",
          "suspend",
          "trainer");
  static final Set<String> TRAINER =
      Set.of("args", "command", "env", "image", "numNodes", "numProcPerNode", "resourcesPerNode");
  static final Set<String> RUNTIME_SPEC = Set.of("mlPolicy", "podGroupPolicy", "template");
  static final Set<String> JOBSET_SPEC =
      Set.of(
          "coordinator",
          "failurePolicy",
          "managedBy",
          "network",
          "replicatedJobs",
          "startupPolicy",
          "successPolicy",
          "suspend",
          "ttlSecondsAfterFinished",
          "volumeClaimPolicies");
  static final Set<String> PYTORCHJOB_SPEC =
      Set.of("elasticPolicy", "nprocPerNode", "pytorchReplicaSpecs", "runPolicy");
  static final Set<String> MPIJOB_SPEC =
      Set.of(
          "launcherCreationPolicy",
          "mpiImplementation",
          "mpiReplicaSpecs",
          "runLauncherAsWorker",
          "runPolicy",
          "slotsPerWorker",
          "sshAuthMountPath");

  private final TrainerRelease target;

  /** A reader that judges TrainJob resource merging as Trainer {@code target} does. */
  public WorkloadReader(TrainerRelease target) {
    this.target = target;
  }

  public WorkloadReader() {
    this(TrainerRelease.V2_3);
  }

  /**
   * What the documents held.
   *
   * @param skipped documents of kinds that are not jobs ("ConfigMap ds-config")
   */
  public record Result(
      List<Workload> workloads, List<Located<String>> skipped, List<InputProblem> problems) {}

  /** Reads documents of one or more files together, so a TrainJob finds its runtime. */
  public Result read(List<YamlDocument> docs) {
    List<Workload> out = new ArrayList<>();
    List<Located<String>> skipped = new ArrayList<>();
    List<InputProblem> problems = new ArrayList<>();
    List<HintReader.Text> texts = new ArrayList<>();
    Map<YamlDocument, WorkloadKind> kinds = new LinkedHashMap<>();
    for (YamlDocument d : docs) {
      try {
        Optional<WorkloadKind> k = classify(d);
        if (k.isPresent()) {
          kinds.put(d, k.get());
        } else {
          String kind = d.root().path("kind").asText();
          String name = d.root().path("metadata").path("name").asText();
          skipped.add(new Located<>(kind + " " + name, d.at("/kind")));
          if (kind.equals("ConfigMap")) {
            configTexts(d, texts);
          }
        }
      } catch (InputProblem e) {
        problems.add(e);
      }
    }
    Map<String, Workload> runtimes = new LinkedHashMap<>();
    for (var e : kinds.entrySet()) {
      if (e.getValue().isRuntime()) {
        try {
          Workload w = runtime(new Fields(e.getKey()), e.getValue(), new ArrayList<>(texts));
          runtimes.put(e.getValue().kind() + "/" + w.name(), w);
          out.add(w);
        } catch (InputProblem p) {
          problems.add(p);
        }
      }
    }
    for (var e : kinds.entrySet()) {
      if (e.getValue().isRuntime()) {
        continue;
      }
      Fields f = new Fields(e.getKey());
      try {
        out.add(
            switch (e.getValue()) {
              case TRAIN_JOB -> trainJob(f, runtimes, new ArrayList<>(texts));
              case PYTORCH_JOB -> pytorchJob(f, new ArrayList<>(texts));
              case MPI_JOB, MPI_JOB_V1 -> mpiJob(f, e.getValue(), new ArrayList<>(texts));
              case JOB_SET -> jobSet(f, new ArrayList<>(texts));
              case JOB -> job(f, new ArrayList<>(texts));
              case POD -> pod(f, new ArrayList<>(texts));
              default -> throw new IllegalStateException(e.getValue().toString());
            });
      } catch (InputProblem p) {
        problems.add(p);
      }
    }
    return new Result(out, skipped, problems);
  }

  private static Optional<WorkloadKind> classify(YamlDocument d) throws InputProblem {
    Fields f = new Fields(d);
    String api = f.string("/apiVersion", "apiVersion");
    String kind = f.string("/kind", "kind");
    if (api == null || kind == null) {
      throw f.problem(
          "",
          "document "
              + (d.index() + 1)
              + " has no "
              + (api == null ? "apiVersion" : "kind")
              + "; not a Kubernetes manifest");
    }
    Optional<WorkloadKind> k = WorkloadKind.of(api, kind);
    if (k.isPresent()) {
      return k;
    }
    String group = api.contains("/") ? api.substring(0, api.indexOf('/')) : "";
    if (JOB_GROUPS.contains(group) && !(group.equals("batch") && !kind.equals("Job"))) {
      List<String> known = new ArrayList<>();
      for (WorkloadKind w : WorkloadKind.values()) {
        if (w.kind().equals(kind)) {
          known.add(w.apiVersion());
        }
      }
      throw f.problem(
          "/apiVersion",
          known.isEmpty()
              ? "unknown kind "
                  + kind
                  + " ("
                  + api
                  + "); topolens reads TrainJob, TrainingRuntime, ClusterTrainingRuntime, PyTorchJob, MPIJob, JobSet, Job, Pod"
              : "unknown version "
                  + api
                  + " of "
                  + kind
                  + "; topolens reads "
                  + String.join(", ", known));
    }
    if (AUXILIARY_GROUPS.contains(api)
        || AUXILIARY_PREFIXES.stream().anyMatch(api::startsWith)
        || group.endsWith(".k8s.io")
        || api.equals("batch/v1")) {
      return Optional.empty();
    }
    throw f.problem(
        "/kind",
        "unknown kind "
            + kind
            + " ("
            + api
            + "); topolens reads TrainJob, TrainingRuntime, ClusterTrainingRuntime, PyTorchJob, MPIJob, JobSet, Job and Pod, and skips core Kubernetes kinds");
  }

  private static void configTexts(YamlDocument d, List<HintReader.Text> texts) {
    var data = d.root().path("data");
    data.fieldNames()
        .forEachRemaining(
            k -> texts.add(new HintReader.Text(data.path(k).asText(), d, d.at(child("/data", k)))));
  }

  private static String name(Fields f) throws InputProblem {
    String n = f.string("/metadata/name", "metadata.name");
    if (n == null) {
      n = f.string("/metadata/generateName", "metadata.generateName");
    }
    if (n == null) {
      throw f.problem("/metadata", f.doc().root().path("kind").asText() + " has no metadata.name");
    }
    return n;
  }

  private static void unknownKeys(
      Fields f, String ptr, Set<String> known, String where, List<Located<String>> out)
      throws InputProblem {
    for (String k : f.keys(ptr, where)) {
      if (!known.contains(k)) {
        out.add(new Located<>(where + "." + k, f.doc().at(child(ptr, k))));
      }
    }
  }

  // ---- Trainer ----

  private Workload runtime(Fields f, WorkloadKind kind, List<HintReader.Text> texts)
      throws InputProblem {
    YamlDocument d = f.doc();
    String name = name(f);
    List<Located<String>> unknown = new ArrayList<>();
    List<Located<String>> release = new ArrayList<>();
    unknownKeys(f, "/spec", RUNTIME_SPEC, "spec", unknown);
    unknownKeys(f, "/spec/template/spec", JOBSET_SPEC, "spec.template.spec", unknown);
    Located<Integer> numNodes = f.integer("/spec/mlPolicy/numNodes", "mlPolicy.numNodes");
    List<ProcessCount> procs = new ArrayList<>();
    Located<String> torchProcs = f.locatedText("/spec/mlPolicy/torch/numProcPerNode");
    if (torchProcs != null) {
      procs.add(new ProcessCount("mlPolicy.torch.numProcPerNode", torchProcs, true));
      release.add(
          new Located<>("mlPolicy.torch.numProcPerNode (removed in v2.2)", torchProcs.evidence()));
    }
    boolean mpi = f.has("/spec/mlPolicy/mpi");
    Located<Integer> mpiProcs =
        f.integer("/spec/mlPolicy/mpi/numProcPerNode", "mlPolicy.mpi.numProcPerNode");
    if (mpi) {
      procs.add(
          new ProcessCount(
              "mlPolicy.mpi.numProcPerNode" + (mpiProcs == null ? " (default 1)" : ""),
              mpiProcs == null
                  ? new Located<>("1", d.at("/spec/mlPolicy/mpi"))
                  : new Located<>(String.valueOf(mpiProcs.value()), mpiProcs.evidence()),
              true));
    }
    List<PodGroup> groups = new ArrayList<>();
    String rj = "/spec/template/spec/replicatedJobs";
    Located<Boolean> waits = null;
    for (int i = 0, n = f.size(rj, "replicatedJobs"); i < n; i++) {
      String r = item(rj, i);
      String rname = f.string(child(r, "name"), "replicatedJobs name");
      String podSpec = child(child(child(child(r, "template"), "spec"), "template"), "spec");
      PodTemplate pod = new PodTemplateReader(f).read(podSpec, false);
      boolean node = "node".equals(rname);
      Located<Integer> replicas =
          node && numNodes != null ? numNodes : f.integer(child(r, "replicas"), "replicas");
      if (replicas == null) {
        replicas = new Located<>(1, d.at(r));
      }
      if ("launcher".equals(rname)) {
        waits = new Located<>(dependsOnNodeReady(f, r), d.at(r));
      }
      groups.add(new PodGroup(rname, replicas, pod, node, node ? procs : List.of(), List.of()));
      texts(f.doc(), pod, texts);
    }
    MpiSpec mpiSpec = mpi ? new MpiSpec(null, null, waits) : null;
    return new Workload(
        d.file(),
        kind,
        name,
        null,
        groups,
        new TrainerSpec(null, null, null, Resources.none(), release),
        mpiSpec,
        f.placeholders(),
        HintReader.read(texts),
        unknown,
        d.at("/kind"));
  }

  private static boolean dependsOnNodeReady(Fields f, String r) throws InputProblem {
    String dp = child(r, "dependsOn");
    for (int i = 0, n = f.size(dp, "dependsOn"); i < n; i++) {
      if ("node".equals(f.text(child(item(dp, i), "name")))
          && "Ready".equals(f.text(child(item(dp, i), "status")))) {
        return true;
      }
    }
    return false;
  }

  private Workload trainJob(Fields f, Map<String, Workload> runtimes, List<HintReader.Text> texts)
      throws InputProblem {
    YamlDocument d = f.doc();
    String name = name(f);
    if (!f.has("/spec")) {
      throw f.problem("", "TrainJob " + name + " has no spec");
    }
    Located<String> ref = f.locatedText("/spec/runtimeRef/name");
    if (ref == null) {
      throw f.problem(
          "/spec", "TrainJob " + name + " has no spec.runtimeRef.name (the runtime it runs on)");
    }
    String refKind =
        Optional.ofNullable(f.text("/spec/runtimeRef/kind")).orElse("ClusterTrainingRuntime");
    Workload runtime = ref.value() == null ? null : runtimes.get(refKind + "/" + ref.value());
    List<Located<String>> unknown = new ArrayList<>();
    List<Located<String>> release = new ArrayList<>();
    for (String k : f.keys("/spec", "spec")) {
      switch (k) {
        case "podTemplateOverrides" ->
            release.add(new Located<>("podTemplateOverrides (v2.1 only)", d.at("/spec/" + k)));
        case "podSpecOverrides", "labels", "annotations" ->
            release.add(new Located<>(k + " (v2.0 only)", d.at("/spec/" + k)));
        case "runtimePatches" ->
            release.add(new Located<>("runtimePatches (v2.2 and later)", d.at("/spec/" + k)));
        default -> {
          if (!TRAINJOB_SPEC.contains(k)) {
            unknown.add(new Located<>("spec." + k, d.at("/spec/" + k)));
          }
        }
      }
    }
    unknownKeys(f, "/spec/trainer", TRAINER, "spec.trainer", unknown);
    Located<String> procText = f.locatedText("/spec/trainer/numProcPerNode");
    if (procText != null
        && procText.value() != null
        && d.get("/spec/trainer/numProcPerNode").isTextual()) {
      release.add(
          new Located<>(
              "numProcPerNode: "
                  + procText.value()
                  + " (a string: v2.0-v2.1; an integer from v2.2)",
              procText.evidence()));
    }
    boolean old = release.stream().anyMatch(r -> r.value().contains("only"));
    boolean merge = target.mergesResources() && !old;
    PodTemplateReader pods = new PodTemplateReader(f);
    PodTemplate pod =
        runtime != null && runtime.group("node").isPresent()
            ? runtime.group("node").get().pod()
            : PodTemplate.empty(d.at("/spec"));
    String rp = "/spec/runtimePatches";
    for (int i = 0, n = f.size(rp, "runtimePatches"); i < n; i++) {
      String jobs =
          child(
              child(child(child(item(rp, i), "trainingRuntimeSpec"), "template"), "spec"),
              "replicatedJobs");
      for (int j = 0, m = f.size(jobs, "replicatedJobs"); j < m; j++) {
        if ("node".equals(f.text(child(item(jobs, j), "name")))) {
          String spec =
              child(child(child(child(item(jobs, j), "template"), "spec"), "template"), "spec");
          pod = pod.overlay(pods.read(spec, true), merge);
        }
      }
    }
    String po = "/spec/podTemplateOverrides";
    for (int i = 0, n = f.size(po, "podTemplateOverrides"); i < n; i++) {
      if (targetsNode(f, item(po, i))) {
        pod = pod.overlay(pods.read(child(item(po, i), "spec"), true), merge);
      }
    }
    String ps = "/spec/podSpecOverrides";
    for (int i = 0, n = f.size(ps, "podSpecOverrides"); i < n; i++) {
      if (targetsNode(f, item(ps, i))) {
        pod = pod.overlay(pods.read(item(ps, i), true), merge);
      }
    }
    String t = "/spec/trainer";
    List<String> command = new ArrayList<>(f.strings(child(t, "command"), "trainer.command"));
    command.addAll(f.strings(child(t, "args"), "trainer.args"));
    Resources perNode = pods.resources(child(t, "resourcesPerNode"));
    Container trainer =
        new Container(
            "node",
            f.string(child(t, "image"), "trainer.image"),
            command,
            command.isEmpty()
                ? null
                : d.at(f.has(child(t, "command")) ? child(t, "command") : child(t, "args")),
            env(f, child(t, "env")),
            perNode,
            List.of(),
            null,
            List.of(),
            d.at(t));
    pod =
        pod.overlay(
            new PodTemplate(
                List.of(trainer),
                List.of(),
                List.of(),
                Map.of(),
                List.of(),
                null,
                null,
                null,
                null,
                d.at(t)),
            merge);
    Located<Integer> numNodes =
        f.has(child(t, "numNodes")) ? f.integer(child(t, "numNodes"), "trainer.numNodes") : null;
    PodGroup rtNode = runtime == null ? null : runtime.group("node").orElse(null);
    if (numNodes == null) {
      numNodes = rtNode != null ? rtNode.replicas() : new Located<>(1, d.at("/spec"));
    }
    List<ProcessCount> procs = new ArrayList<>();
    if (procText != null) {
      procs.add(new ProcessCount("trainer.numProcPerNode", procText, true));
    } else if (rtNode != null) {
      procs.addAll(rtNode.processes());
    }
    Container main = pod.main().orElse(trainer);
    String cmdAt = f.has(child(t, "command")) ? child(t, "command") : child(t, "args");
    procs.addAll(new CommandParser(d, cmdAt).launcherCounts(main.command()));
    texts(f.doc(), pod, texts);
    PodGroup node = new PodGroup("node", numNodes, pod, true, procs, List.of());
    return new Workload(
        d.file(),
        WorkloadKind.TRAIN_JOB,
        name,
        f.text("/metadata/namespace"),
        List.of(node),
        new TrainerSpec(ref, refKind, runtime, perNode, release),
        runtime != null ? runtime.mpi() : null,
        f.placeholders(),
        HintReader.read(texts),
        unknown,
        d.at("/kind"));
  }

  private static boolean targetsNode(Fields f, String override) throws InputProblem {
    String tj = child(override, "targetJobs");
    for (int i = 0, n = f.size(tj, "targetJobs"); i < n; i++) {
      if ("node".equals(f.text(child(item(tj, i), "name")))) {
        return true;
      }
    }
    return false;
  }

  private static List<EnvVar> env(Fields f, String ptr) throws InputProblem {
    List<EnvVar> env = new ArrayList<>();
    for (int i = 0, n = f.size(ptr, "env"); i < n; i++) {
      String e = item(ptr, i);
      String en = f.string(child(e, "name"), "env name");
      if (en == null) {
        throw f.problem(e, "env entry without a name");
      }
      String v = f.string(child(e, "value"), "env " + en + " value");
      env.add(
          new EnvVar(
              en, v == null && !f.has(child(e, "valueFrom")) ? "" : v, "env", f.doc().at(e)));
    }
    return env;
  }

  private static void texts(YamlDocument d, PodTemplate pod, List<HintReader.Text> texts) {
    for (Container c : pod.containers()) {
      if (!c.command().isEmpty()) {
        texts.add(new HintReader.Text(c.commandLine(), d, c.commandEvidence()));
      }
      for (EnvVar e : c.env()) {
        if (e.value() != null && !e.value().isEmpty()) {
          texts.add(new HintReader.Text(e.name() + "=" + e.value(), d, e.evidence()));
        }
      }
    }
  }

  // ---- training-operator and MPI Operator ----

  private Workload pytorchJob(Fields f, List<HintReader.Text> texts) throws InputProblem {
    YamlDocument d = f.doc();
    String name = name(f);
    List<Located<String>> unknown = new ArrayList<>();
    unknownKeys(f, "/spec", PYTORCHJOB_SPEC, "spec", unknown);
    String rs = "/spec/pytorchReplicaSpecs";
    List<String> roles = f.keys(rs, "pytorchReplicaSpecs");
    if (roles.isEmpty()) {
      throw f.problem(
          "/spec", "PyTorchJob " + name + " has no spec.pytorchReplicaSpecs (Master, Worker)");
    }
    List<ProcessCount> common = new ArrayList<>();
    Located<String> nproc = f.locatedText("/spec/nprocPerNode");
    if (nproc != null) {
      common.add(new ProcessCount("nprocPerNode", nproc, true));
    }
    Located<String> elastic = f.locatedText("/spec/elasticPolicy/nProcPerNode");
    if (elastic != null) {
      common.add(new ProcessCount("elasticPolicy.nProcPerNode (deprecated)", elastic, true));
    }
    List<PodGroup> groups = new ArrayList<>();
    for (String role : roles) {
      String r = child(rs, role);
      if (!role.equals("Master") && !role.equals("Worker")) {
        throw f.problem(r, "PyTorchJob replica type must be Master or Worker, not " + role);
      }
      groups.add(replicaGroup(f, r, role, true, common, texts));
    }
    return new Workload(
        d.file(),
        WorkloadKind.PYTORCH_JOB,
        name,
        f.text("/metadata/namespace"),
        groups,
        null,
        null,
        f.placeholders(),
        HintReader.read(texts),
        unknown,
        d.at("/kind"));
  }

  private PodGroup replicaGroup(
      Fields f,
      String r,
      String role,
      boolean ranks,
      List<ProcessCount> common,
      List<HintReader.Text> texts)
      throws InputProblem {
    YamlDocument d = f.doc();
    if (!f.has(child(child(r, "template"), "spec"))) {
      throw f.problem(r, role + " has no template.spec");
    }
    PodTemplate pod = new PodTemplateReader(f).read(child(child(r, "template"), "spec"), false);
    Located<Integer> replicas = f.integer(child(r, "replicas"), role + ".replicas");
    if (replicas == null) {
      replicas = new Located<>(1, d.at(r));
    }
    List<ProcessCount> procs = new ArrayList<>(common);
    Container main = pod.main().orElseThrow();
    String cmd = main.commandEvidence() == null ? r : pointerOfCommand(f, r, pod, main);
    procs.addAll(new CommandParser(d, cmd).launcherCounts(main.command()));
    texts(f.doc(), pod, texts);
    return new PodGroup(role, replicas, pod, ranks, procs, List.of());
  }

  private static String pointerOfCommand(Fields f, String r, PodTemplate pod, Container main) {
    int i = pod.containers().indexOf(main);
    String c = item(child(child(child(r, "template"), "spec"), "containers"), i);
    return f.has(child(c, "command")) ? child(c, "command") : child(c, "args");
  }

  private Workload mpiJob(Fields f, WorkloadKind kind, List<HintReader.Text> texts)
      throws InputProblem {
    YamlDocument d = f.doc();
    String name = name(f);
    List<Located<String>> unknown = new ArrayList<>();
    unknownKeys(f, "/spec", MPIJOB_SPEC, "spec", unknown);
    String rs = "/spec/mpiReplicaSpecs";
    if (!f.has(child(rs, "Worker"))) {
      throw f.problem(
          f.has(rs) ? rs : "/spec", "MPIJob " + name + " has no spec.mpiReplicaSpecs.Worker");
    }
    if (!f.has(child(rs, "Launcher"))) {
      throw f.problem(rs, "MPIJob " + name + " has no spec.mpiReplicaSpecs.Launcher");
    }
    Located<Integer> slots = f.integer("/spec/slotsPerWorker", "slotsPerWorker");
    Located<Boolean> launcherWorks = f.bool("/spec/runLauncherAsWorker", "runLauncherAsWorker");
    PodGroup launcher =
        replicaGroup(
            f,
            child(rs, "Launcher"),
            "Launcher",
            launcherWorks != null && launcherWorks.value(),
            List.of(),
            texts);
    List<ProcessCount> procs = new ArrayList<>();
    procs.add(
        slots != null
            ? new ProcessCount(
                "slotsPerWorker",
                new Located<>(
                    slots.value() == null ? null : slots.value().toString(), slots.evidence()),
                true)
            : new ProcessCount(
                "slotsPerWorker (default 1)", new Located<>("1", d.at("/spec")), true));
    Container lc = launcher.pod().main().orElseThrow();
    List<EnvVar> env = List.of();
    if (lc.commandEvidence() != null) {
      var m =
          new CommandParser(d, pointerOfCommand(f, child(rs, "Launcher"), launcher.pod(), lc))
              .mpirun(lc.command());
      if (m != null) {
        procs.addAll(m.counts());
        env = m.env();
      }
    }
    PodGroup worker = replicaGroup(f, child(rs, "Worker"), "Worker", true, procs, texts);
    worker =
        new PodGroup(worker.role(), worker.replicas(), worker.pod(), true, worker.processes(), env);
    Located<String> policy = f.locatedText("/spec/launcherCreationPolicy");
    return new Workload(
        d.file(),
        kind,
        name,
        f.text("/metadata/namespace"),
        List.of(launcher, worker),
        null,
        new MpiSpec(slots, policy, null),
        f.placeholders(),
        HintReader.read(texts),
        unknown,
        d.at("/kind"));
  }

  // ---- plain Kubernetes ----

  private Workload jobSet(Fields f, List<HintReader.Text> texts) throws InputProblem {
    YamlDocument d = f.doc();
    String name = name(f);
    List<PodGroup> groups = new ArrayList<>();
    String rj = "/spec/replicatedJobs";
    for (int i = 0, n = f.size(rj, "replicatedJobs"); i < n; i++) {
      String r = item(rj, i);
      String jobSpec = child(child(r, "template"), "spec");
      PodTemplate pod =
          new PodTemplateReader(f).read(child(child(jobSpec, "template"), "spec"), false);
      Located<Integer> replicas = f.integer(child(r, "replicas"), "replicas");
      Located<Integer> par = f.integer(child(jobSpec, "parallelism"), "parallelism");
      int count =
          (replicas == null || replicas.value() == null ? 1 : replicas.value())
              * (par == null || par.value() == null ? 1 : par.value());
      boolean unknown =
          (replicas != null && replicas.value() == null) || (par != null && par.value() == null);
      groups.add(
          new PodGroup(
              f.text(child(r, "name")),
              new Located<>(unknown ? null : count, d.at(r)),
              pod,
              pod.main().map(Container::hasGpu).orElse(false),
              launcherCounts(f, pod, child(child(jobSpec, "template"), "spec")),
              List.of()));
      texts(f.doc(), pod, texts);
    }
    return plain(f, WorkloadKind.JOB_SET, name, groups, texts);
  }

  private Workload job(Fields f, List<HintReader.Text> texts) throws InputProblem {
    String name = name(f);
    String spec = "/spec/template/spec";
    PodTemplate pod = new PodTemplateReader(f).read(spec, false);
    Located<Integer> par = f.integer("/spec/parallelism", "parallelism");
    texts(f.doc(), pod, texts);
    return plain(
        f,
        WorkloadKind.JOB,
        name,
        List.of(
            new PodGroup(
                "job",
                par != null ? par : new Located<>(1, f.doc().at("/spec")),
                pod,
                true,
                launcherCounts(f, pod, spec),
                List.of())),
        texts);
  }

  private Workload pod(Fields f, List<HintReader.Text> texts) throws InputProblem {
    String name = name(f);
    PodTemplate pod = new PodTemplateReader(f).read("/spec", false);
    texts(f.doc(), pod, texts);
    return plain(
        f,
        WorkloadKind.POD,
        name,
        List.of(
            new PodGroup(
                "pod",
                new Located<>(1, f.doc().at("/kind")),
                pod,
                true,
                launcherCounts(f, pod, "/spec"),
                List.of())),
        texts);
  }

  private static List<ProcessCount> launcherCounts(Fields f, PodTemplate pod, String spec) {
    Optional<Container> main = pod.main();
    if (main.isEmpty() || main.get().command().isEmpty()) {
      return List.of();
    }
    String c = item(child(spec, "containers"), pod.containers().indexOf(main.get()));
    String at = f.has(child(c, "command")) ? child(c, "command") : child(c, "args");
    return new CommandParser(f.doc(), at).launcherCounts(main.get().command());
  }

  private static Workload plain(
      Fields f,
      WorkloadKind kind,
      String name,
      List<PodGroup> groups,
      List<HintReader.Text> texts) {
    Evidence at = f.doc().at("/kind");
    return new Workload(
        f.doc().file(),
        kind,
        name,
        f.text("/metadata/namespace"),
        groups,
        null,
        null,
        f.placeholders(),
        HintReader.read(texts),
        List.of(),
        at);
  }
}
