package io.topolens.lab.experiment;

import io.topolens.model.Cluster;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs one variant of an experiment where the spec says (this host, a Kubernetes cluster) and
 * leaves every rank's output in the variant's folder. {@link ExperimentRun} calls it once per
 * variant, one variant at a time, and reads the folder afterwards; the runner never judges.
 *
 * <p>Failure: a variant that fails (a rank exits non-zero, NCCL error, OOM, timeout, unschedulable)
 * is a {@link VariantRun} with a reason, never an exception; exceptions are for the runner itself
 * breaking (the folder cannot be written).
 *
 * <p>Threads: {@link #run} on the experiment's thread; {@link #stop} from any other (Ctrl-C's
 * shutdown hook) while a run is in progress.
 */
public interface VariantRunner {

  /**
   * Why this runner cannot run {@code v} at all (more GPUs than the host has, a network the place
   * does not offer), or empty; asked before {@link #run}, the variant is recorded as skipped.
   */
  Optional<String> skipReason(Variant v);

  /**
   * Runs {@code v} (the probe, the training command, or the probe then training) to its end,
   * writing its logs under {@code dir}.
   *
   * @param progress one line at a time: what the variant waits for now
   */
  VariantRun run(Variant v, Path dir, Consumer<String> progress)
      throws IOException, InterruptedException;

  /** Stops the variant running now (kills its processes, deletes its job); returns when done. */
  void stop();

  /**
   * How one variant ended.
   *
   * @param failure null when every rank succeeded; else one line: which rank, exit code or timeout,
   *     and the last line it printed
   * @param logs the files to read: every rank's output, the probe's among them
   * @param ranks the ranks started
   * @param cluster the pods and nodes the variant ran on as the cluster described them, {@link
   *     Cluster#NONE} where no cluster was involved
   */
  record VariantRun(String failure, List<Path> logs, int ranks, Cluster cluster) {
    public VariantRun {
      logs = List.copyOf(logs);
      cluster = cluster == null ? Cluster.NONE : cluster;
    }

    /** A run on no cluster. */
    public VariantRun(String failure, List<Path> logs, int ranks) {
      this(failure, logs, ranks, Cluster.NONE);
    }

    public boolean ok() {
      return failure == null;
    }
  }
}
