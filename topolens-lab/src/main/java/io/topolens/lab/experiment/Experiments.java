package io.topolens.lab.experiment;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import io.topolens.lab.PythonFinder;
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
      Path specFile,
      Path out,
      boolean resume,
      String python,
      StepSource steps,
      PrintWriter stdout,
      PrintWriter err)
      throws IOException, InterruptedException {
    ExperimentSpec spec;
    try {
      spec = SpecReader.read(specFile);
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
    if (spec.where() instanceof ExperimentSpec.Kubernetes) {
      err.println(
          "topolens: "
              + specFile
              + ": where: kubernetes experiments are not built yet (the spec is valid); run where:"
              + " local, or each variant with topolens plan and topolens run");
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
    PythonFinder.Python py;
    try {
      py = new PythonFinder(python).find();
    } catch (PythonFinder.NotFound e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
    Files.createDirectories(out);
    Files.copy(specFile, out.resolve("spec.yaml"), StandardCopyOption.REPLACE_EXISTING);
    err.println(
        "topolens: experiment "
            + spec.name()
            + ": "
            + spec.variants().size()
            + " variants, "
            + spec.run().label()
            + ", "
            + (gpus == 0 ? "on CPU (gloo)" : gpus + " GPUs")
            + ", Python "
            + py.command()
            + " (torch "
            + py.torchVersion()
            + "), results in "
            + out);
    ExperimentRun run =
        new ExperimentRun(
            spec,
            new LocalVariantRunner(spec, py, gpus),
            new VariantAnalysis(HardwareCatalog.builtIn(), Hardware.unknown(), steps),
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
