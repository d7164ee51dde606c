package io.topolens.lab.experiment;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import io.topolens.kube.run.KubeClients;
import io.topolens.lab.PythonFinder;
import io.topolens.lab.kube.ClusterSettings;
import io.topolens.lab.kube.DryRun;
import io.topolens.lab.kube.KubernetesVariantRunner;
import io.topolens.lab.kube.VariantManifests;
import io.topolens.nccl.InputProblem;
import io.topolens.verdict.Hardware;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * {@code topolens experiment SPEC --out DIR}: reads the spec, picks the runner for its {@code
 * where:}, runs the variants with Ctrl-C handled, prints the comparison table.
 */
public final class Experiments {
  private Experiments() {}

  /** Exit code after Ctrl-C, as a shell reports a command stopped by SIGINT. */
  public static final int INTERRUPTED = 130;

  /**
   * Runs the experiment.
   *
   * @param python the interpreter the user named, or null to let {@link PythonFinder} choose
   * @return 0 when every variant that ran succeeded, 1 when one failed, 2 for a bad spec or nothing
   *     to run it with, 130 after Ctrl-C
   */
  public static int run(
      Path specFile, Path out, boolean resume, String python, PrintWriter stdout, PrintWriter err)
      throws IOException, InterruptedException {
    return run(specFile, out, resume, python, ClusterSettings.defaults(), stdout, err);
  }

  /**
   * Runs the experiment; a {@code where: kubernetes} spec runs on the cluster {@code cluster} names
   * (or only prints its manifests with {@link ClusterSettings#dryRun()}).
   */
  public static int run(
      Path specFile,
      Path out,
      boolean resume,
      String python,
      ClusterSettings cluster,
      PrintWriter stdout,
      PrintWriter err)
      throws IOException, InterruptedException {
    ExperimentSpec spec;
    HardwareCatalog catalog;
    try {
      spec = SpecReader.read(specFile);
      catalog = HardwareCatalog.load(spec.catalogs());
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
    if (spec.where() instanceof ExperimentSpec.Kubernetes k) {
      String ns = cluster.namespace() != null ? cluster.namespace() : k.namespace();
      VariantManifests manifests = new VariantManifests(spec, ns, catalog);
      if (cluster.dryRun()) {
        return DryRun.print(spec, manifests, out, stdout);
      }
      if (Experiment.isExperiment(out) && !resume) {
        err.println(
            "topolens: "
                + out
                + " already holds an experiment's results.json; give --resume to go on with it,"
                + " or another --out");
        return 2;
      }
      try (KubernetesClient client =
          KubeClients.connect(
              cluster.kubeconfig(), cluster.context() != null ? cluster.context() : k.context())) {
        KubernetesVariantRunner runner =
            new KubernetesVariantRunner(spec, client, manifests, ns, cluster);
        runner.reach();
        err.println(
            heading(spec)
                + ", one job at a time on "
                + client.getMasterUrl()
                + " in namespace "
                + (ns != null ? ns : KubeClients.contextNamespace(client))
                + ", results in "
                + out);
        return execute(spec, specFile, runner, out, resume, catalog, stdout, err);
      } catch (InputProblem e) {
        err.println("topolens: " + e.getMessage());
        return 2;
      }
    }
    if (cluster.dryRun()) {
      err.println(
          "topolens: "
              + specFile
              + ": --dry-run prints the Kubernetes manifests of a where: kubernetes spec; this one"
              + " runs locally");
      return 2;
    }
    if (Experiment.isExperiment(out) && !resume) {
      err.println(
          "topolens: "
              + out
              + " already holds an experiment's results.json; give --resume to go on with it, or"
              + " another --out");
      return 2;
    }
    String device = ((ExperimentSpec.Local) spec.where()).device();
    int gpus = LocalVariantRunner.gpus(device);
    if (device.equals("gpu") && gpus == 0) {
      err.println("topolens: " + specFile + ": device: gpu, but nvidia-smi lists no GPU here");
      return 2;
    }
    PythonFinder.Python py = new PythonFinder(python).findOrSay(err);
    if (py == null) {
      return 2;
    }
    err.println(
        heading(spec)
            + ", "
            + (gpus == 0 ? "on CPU (gloo)" : gpus + " GPUs")
            + ", Python "
            + py.command()
            + " (torch "
            + py.torchVersion()
            + "), results in "
            + out);
    return execute(
        spec, specFile, new LocalVariantRunner(spec, py, gpus), out, resume, catalog, stdout, err);
  }

  /**
   * {@code topolens: experiment NAME: N variants, probe+train}: the first words of the start line.
   */
  private static String heading(ExperimentSpec spec) {
    return "topolens: experiment "
        + spec.name()
        + ": "
        + spec.variants().size()
        + " variants, "
        + spec.run().label();
  }

  /** Runs every variant with {@code runner}, Ctrl-C handled, and prints the comparison. */
  private static int execute(
      ExperimentSpec spec,
      Path specFile,
      VariantRunner runner,
      Path out,
      boolean resume,
      HardwareCatalog catalog,
      PrintWriter stdout,
      PrintWriter err)
      throws IOException, InterruptedException {
    Files.createDirectories(out);
    Files.copy(specFile, out.resolve("spec.yaml"), StandardCopyOption.REPLACE_EXISTING);
    ExperimentRun run =
        new ExperimentRun(
            spec,
            runner,
            new VariantAnalysis(catalog, Hardware.unknown()),
            catalog,
            out,
            resume,
            err);
    Thread hook = new Thread(run::interrupt, "topolens-experiment-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    Experiment e;
    try {
      e = run.run();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it stops the variant and writes the results
      }
    }
    if (run.interrupted()) {
      return INTERRUPTED;
    }
    ComparisonTable.print(e, stdout);
    err.println("topolens: wrote " + out.resolve(Experiment.FILE));
    return e.variants().stream().anyMatch(v -> Experiment.Variant.FAILED.equals(v.status()))
        ? 1
        : 0;
  }
}
