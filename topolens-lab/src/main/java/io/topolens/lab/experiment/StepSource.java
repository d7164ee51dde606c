package io.topolens.lab.experiment;

import io.topolens.experiment.Experiment;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where a variant's step times come from: the training framework's own lines in its logs. The
 * reader itself lives in core (one reader that {@code diagnose} uses too); this seam lets the
 * experiment run before and after it lands.
 */
@FunctionalInterface
public interface StepSource {

  /** Nothing is read: every variant's {@code stepSeconds} stays null. */
  StepSource NONE = logs -> Optional.empty();

  /** Median, fastest and slowest step of the training logs, or empty when they hold none. */
  Optional<Experiment.Steps> read(List<Path> trainingLogs);
}
