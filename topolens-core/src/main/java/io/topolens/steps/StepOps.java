package io.topolens.steps;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the step-time formats told about one line, recorded where the line was read (a parse thread)
 * and applied to its file's {@link FileSteps} later, in file order: so the formats' matching runs
 * on all cores while the file's state changes on one thread, with the result of reading in order.
 *
 * <p>Thread-safety: made and filled by one thread, then handed to the applying thread.
 */
final class StepOps implements StepSink {
  private final String text;

  /** Counting a framework's line: one op per framework, not a new one per line. */
  private static final List<Consumer<FileSteps>> RECOGNIZED =
      java.util.Arrays.stream(Framework.values())
          .<Consumer<FileSteps>>map(f -> s -> s.recognized(f))
          .toList();

  private final List<Consumer<FileSteps>> ops = new ArrayList<>(2);

  StepOps(String text) {
    this.text = text;
  }

  /** Applies what was recorded, in the order it was told. */
  void applyTo(FileSteps file) {
    for (Consumer<FileSteps> op : ops) {
      op.accept(file);
    }
  }

  @Override
  public String key(String kind) {
    return FileSteps.key(text, kind);
  }

  @Override
  public void recognized(Framework f) {
    ops.add(RECOGNIZED.get(f.ordinal()));
  }

  @Override
  public void malformed(Framework f, String why) {
    ops.add(s -> s.malformed(f, why));
  }

  @Override
  public void step(String key, long step, double seconds, Framework f, Derivation d) {
    ops.add(s -> s.step(key, step, seconds, f, d));
  }

  @Override
  public void barStep(String key, long total, long step, double seconds, Framework f) {
    ops.add(s -> s.barStep(key, total, step, seconds, f));
  }

  @Override
  public void stamped(String key, long step, long time, Framework f) {
    ops.add(s -> s.stamped(key, step, time, f));
  }

  @Override
  public void trainRuntime(double seconds, double stepsPerSecond) {
    ops.add(s -> s.trainRuntime(seconds, stepsPerSecond));
  }

  @Override
  public void totalSteps(long steps) {
    ops.add(s -> s.totalSteps(steps));
  }

  @Override
  public void globalBatch(long samples) {
    ops.add(s -> s.globalBatch(samples));
  }

  @Override
  public void tokensPerRankStep(long tokens) {
    ops.add(s -> s.tokensPerRankStep(tokens));
  }

  @Override
  public void jsonPerStep() {
    ops.add(FileSteps::jsonPerStep);
  }

  @Override
  public void whenApplied(Consumer<FileSteps> op) {
    ops.add(op);
  }
}
