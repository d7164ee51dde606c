package io.topolens.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.topolens.bench.NcclTestsReader;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.Measurements;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.Linter;
import io.topolens.kube.manifest.ManifestReader;
import io.topolens.kube.manifest.WorkloadReader;
import io.topolens.kube.manifest.YamlDocument;
import io.topolens.kube.plan.Plan;
import io.topolens.kube.plan.Planner;
import io.topolens.kube.run.Cleanup;
import io.topolens.kube.run.JobRunner;
import io.topolens.kube.run.PodRecord;
import io.topolens.kube.run.RunOptions;
import io.topolens.kube.run.RunOutcome;
import io.topolens.kube.run.Submission;
import io.topolens.kube.settings.KubeSettings;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code topolens run}: apply a job, follow it, collect its logs, then diagnose them. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Applies a job (a manifest FILE, or --plan with the plan options) to the cluster of your kubeconfig,"
          + " shows its pods as they are scheduled and run, records the node of each, streams every pod's"
          + " log into a folder, and when the job ends runs diagnose (and bench for nccl-tests output) on"
          + " what it collected, with the pod-to-node map. See docs/kubernetes.md."
    })
final class RunCommand implements Callable<Integer> {

  @Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "0..1",
      paramLabel = "FILE",
      description = "The job's manifests (YAML, several documents; - for standard input).")
  String file;

  @Option(
      names = "--plan",
      description = "Plan the job from the plan options below (as topolens plan) and run it.")
  boolean plan;

  @Mixin PlanOptions planOptions;

  @Mixin KubeconfigOptions kube = new KubeconfigOptions();

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "24h",
      description = "Stop waiting after this long: 90s, 30m, 2h (default 24h).")
  String timeout;

  @Option(
      names = "--poll",
      paramLabel = "DURATION",
      defaultValue = "5s",
      description = "How often the job and its pods are read (default 5s).")
  String poll;

  @Option(
      names = "--on-interrupt",
      paramLabel = "keep|delete",
      defaultValue = "delete",
      description = "What Ctrl-C does to the job (default delete: it holds GPUs).")
  String onInterrupt;

  @Option(
      names = "--on-timeout",
      paramLabel = "keep|delete",
      defaultValue = "delete",
      description = "What a timeout does to the job (default delete).")
  String onTimeout;

  @Option(
      names = "--delete-when-done",
      description = "Delete the job after it ends by itself (default: keep it, with its status).")
  boolean deleteWhenDone;

  @Option(
      names = "--logs",
      paramLabel = "DIR",
      description =
          "Folder for the pod logs, nodes.txt and run.json (default topolens-run-NAME-TIME).")
  Path logs;

  @Option(
      names = "--var",
      paramLabel = "NAME=VALUE",
      description = "Substitute $${NAME} in FILE as envsubst would (repeatable).")
  Map<String, String> vars = new LinkedHashMap<>();

  @Option(names = "--no-diagnose", description = "Only collect; do not run diagnose on the logs.")
  boolean noDiagnose;

  @Option(
      names = "--catalog",
      paramLabel = "FILE",
      description = "Hardware catalog file that adds or replaces instance types (repeatable).")
  List<Path> catalogs = List.of();

  /** The instance type the job's pods are pinned to, for diagnose and bench; null if unknown. */
  private String instanceType;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    Submission submission;
    String manifests;
    RunOptions options;
    try {
      if ((file == null) == !plan) {
        throw new InputProblem(
            file == null
                ? "run needs a manifest FILE, or --plan with --instance and --nodes"
                : "give a manifest FILE or --plan, not both");
      }
      if (plan) {
        Plan p =
            new Planner(
                    HardwareCatalog.load(catalogs), KubeSettings.bundled(), Measurements.bundled())
                .plan(planOptions.request().toSpec());
        p.warnings().forEach(w -> err.println("topolens: warning: " + w));
        manifests = p.yaml();
        submission =
            Submission.of(
                new ManifestReader().parse("plan", manifests.getBytes(StandardCharsets.UTF_8)));
      } else {
        if (planOptions.any()) {
          throw new InputProblem(
              "plan options (--instance, --nodes, --spec) go with --plan, not with a FILE");
        }
        List<YamlDocument> docs = new ManifestReader(vars).read(file);
        manifests = String.join("\n", docs.get(0).text()) + "\n";
        preflight(docs, err);
        submission = Submission.of(docs);
      }
      Path dir =
          logs != null
              ? logs
              : Path.of(
                  "topolens-run-"
                      + submission.name()
                      + "-"
                      + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
      options =
          new RunOptions(
              planOptions.namespace,
              Durations.parse("--timeout", timeout),
              Durations.parse("--poll", poll),
              cleanup("--on-interrupt", onInterrupt),
              cleanup("--on-timeout", onTimeout),
              deleteWhenDone,
              dir);
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("manifests.yaml"), manifests, StandardCharsets.UTF_8);
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
    RunOutcome outcome;
    long start = System.nanoTime();
    CountDownLatch finished = new CountDownLatch(1);
    Thread main = Thread.currentThread();
    Thread hook =
        new Thread(
            () -> {
              main.interrupt();
              try {
                finished.await(60, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "topolens-ctrl-c");
    Runtime.getRuntime().addShutdownHook(hook);
    try (KubernetesClient client = kube.connect()) {
      outcome =
          new JobRunner(
                  client,
                  line -> {
                    long s = (System.nanoTime() - start) / 1_000_000_000L;
                    err.printf(Locale.ROOT, "[%02d:%02d] %s%n", s / 60, s % 60, line);
                    err.flush();
                  })
              .run(submission, options);
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      finished.countDown();
      removeHook(hook);
      removeIfUnused(options.logDir());
      return 2;
    }
    try {
      return report(outcome, err);
    } finally {
      finished.countDown();
      removeHook(hook);
    }
  }

  /**
   * Reads the manifests as lint does: a document that cannot be read stops the run (exit 2); lint
   * errors are listed on stderr and the run goes on, since the user asked for it.
   */
  private void preflight(List<YamlDocument> docs, PrintWriter err) throws InputProblem {
    WorkloadReader.Result read = new WorkloadReader().read(docs);
    if (!read.problems().isEmpty()) {
      throw read.problems().get(0);
    }
    for (var w : read.workloads()) {
      for (var g : w.rankGroups()) {
        for (var t : g.pod().instanceTypes()) {
          if (instanceType == null
              && t.value() != null
              && HardwareCatalog.builtIn().instance(t.value()).isPresent()) {
            instanceType = t.value();
          }
        }
      }
    }
    for (Finding f : Linter.standard().lint(read.workloads(), LintContext.defaults())) {
      if (f.severity() == Severity.ERROR) {
        err.println(
            "topolens: lint error "
                + f.id()
                + ": "
                + f.title()
                + " (topolens lint shows why and the fix)");
      }
    }
  }

  private int report(RunOutcome o, PrintWriter err) throws IOException {
    PrintWriter out =
        new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    out.println("topolens run: " + o.status().label() + ": " + o.message());
    out.println(
        "  logs      "
            + o.logDir()
            + " ("
            + o.pods().stream().mapToInt(p -> p.logs().size()).sum()
            + " log file(s), nodes.txt, run.json)");
    for (PodRecord p : o.pods()) {
      out.println(
          "  pod       "
              + p.name()
              + " -> "
              + (p.node() == null ? "(not scheduled)" : p.node())
              + ", "
              + (p.phase() == null ? "?" : p.phase())
              + (p.exitCodes().isEmpty() ? "" : ", exit " + p.exitCodes().values())
              + (p.problem() == null ? "" : " (" + p.problem() + ")"));
    }
    for (var e : PodRecord.shared(o.pods()).entrySet()) {
      out.println(
          "  shared    "
              + e.getKey()
              + ": "
              + String.join(", ", e.getValue())
              + " (they talk over the network, not NVLink)");
    }
    out.println();
    out.flush();
    int code = o.status() == RunOutcome.Status.SUCCEEDED ? 0 : 1;
    if (noDiagnose || Thread.currentThread().isInterrupted()) {
      return code;
    }
    List<String> logFiles = new ArrayList<>();
    List<String> benchFiles = new ArrayList<>();
    for (PodRecord p : o.pods()) {
      for (String f : p.logs().values()) {
        Path path = o.logDir().resolve(f);
        if (!Files.isRegularFile(path) || Files.size(path) == 0) {
          continue;
        }
        logFiles.add(path.toString());
        if (NcclTestsReader.looksLike(head(path))) {
          benchFiles.add(path.toString());
        }
      }
    }
    if (logFiles.isEmpty()) {
      err.println("topolens: no pod logs were collected; nothing to diagnose");
      return code;
    }
    List<String> hardware = new ArrayList<>();
    if (instanceType != null) {
      hardware.addAll(List.of("--instance", instanceType));
    }
    for (Path c : catalogs) {
      hardware.addAll(List.of("--catalog", c.toString()));
    }
    List<String> args = new ArrayList<>(List.of("--node-map", o.nodeMap().toString()));
    args.addAll(hardware);
    args.addAll(logFiles);
    int d = new CommandLine(new DiagnoseCommand()).setErr(err).execute(args.toArray(String[]::new));
    if (d == 1) {
      code = 1;
    }
    if (!benchFiles.isEmpty()) {
      out.println();
      out.flush();
      benchFiles.addAll(hardware);
      int b =
          new CommandLine(new BenchCommand())
              .setErr(err)
              .execute(benchFiles.toArray(String[]::new));
      if (b == 1) {
        code = 1;
      }
    }
    return code;
  }

  private static String head(Path p) throws IOException {
    try (InputStream in = Files.newInputStream(p)) {
      return new String(in.readNBytes(8192), StandardCharsets.UTF_8);
    }
  }

  private static Cleanup cleanup(String option, String text) throws InputProblem {
    try {
      return Cleanup.parse(text);
    } catch (IllegalArgumentException e) {
      throw new InputProblem(option + " " + e.getMessage());
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down (Ctrl-C): the hook is running
    }
  }

  /**
   * Nothing reached the cluster (it was unreachable, the context or namespace refused): the run
   * folder holds only the manifests written before, so it is removed and nothing is left behind.
   */
  private static void removeIfUnused(Path dir) {
    try (var files = Files.list(dir)) {
      List<Path> all = files.toList();
      if (all.size() == 1 && all.get(0).getFileName().toString().equals("manifests.yaml")) {
        Files.delete(all.get(0));
        Files.delete(dir);
      }
    } catch (IOException | RuntimeException e) {
      // a folder left behind is harmless; the error above is what matters
    }
  }
}
