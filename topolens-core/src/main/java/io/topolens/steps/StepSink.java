package io.topolens.steps;

import java.util.function.Consumer;

/**
 * What a step-time format tells about a line: {@link FileSteps} applies it at once, {@link StepOps}
 * records it on a parse thread and applies it later, in file order. Formats only tell; what depends
 * on what earlier lines of the file gave (the global batch, tokens per step) goes through {@link
 * #whenApplied}, so the answer is the same either way.
 */
interface StepSink {
  /**
   * The series key with the line's torchrun rank prefix ({@link FileSteps#key(String, String)}).
   */
  String key(String kind);

  /** Counts a line of a framework's form, whether or not it gave a time. */
  void recognized(Framework f);

  /** A line of a recognised form whose numbers could not be read. */
  void malformed(Framework f, String why);

  /** A step's time ({@link FileSteps#step}). */
  void step(String key, long step, double seconds, Framework f, Derivation d);

  /** A progress-bar update ({@link FileSteps#barStep}). */
  void barStep(String key, long total, long step, double seconds, Framework f);

  /**
   * A step's time as the global batch over a rate of samples per second ({@link
   * FileSteps#batchRate}): given when the line is applied, once the global batch is known.
   */
  void batchRate(String key, long step, double samplesPerSecond, Framework f);

  /** A step line with a wall-clock timestamp ({@link FileSteps#stamped}). */
  void stamped(String key, long step, long time, Framework f);

  /** The Trainer's closing runtime and steps per second ({@link FileSteps#trainRuntime}). */
  void trainRuntime(double seconds, double stepsPerSecond);

  /** Hugging Face's "Total optimization steps = N". */
  void totalSteps(long steps);

  /** The global batch in samples. */
  void globalBatch(long samples);

  /** Tokens one rank processes in a step. */
  void tokensPerRankStep(long tokens);

  /** A JSON line gave a single step's time (summary lists are then not read again). */
  void jsonPerStep();

  /** Work that reads what earlier lines of the file gave, done when the line is applied. */
  void whenApplied(Consumer<FileSteps> op);
}
