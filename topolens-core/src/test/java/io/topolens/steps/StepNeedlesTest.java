package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The step-time reader asks a format only about lines holding one of its needles (JSON lines
 * excepted), and a format searches for its longer strings only where the needle they hold is: so
 * what a format tells of a line must be nothing where it is not asked, on every line of the step
 * logs and the examples, and on those lines with each needle taken out.
 */
class StepNeedlesTest {
  private static final List<StepFormat> FORMATS = StepTimeReader.FORMATS;

  /** Counts what a format tells. */
  private static final class Told implements StepSink {
    int calls;

    @Override
    public String key(String kind) {
      return kind;
    }

    @Override
    public void recognized(Framework f) {
      calls++;
    }

    @Override
    public void malformed(Framework f, String why) {
      calls++;
    }

    @Override
    public void step(String key, long step, double seconds, Framework f, Derivation d) {
      calls++;
    }

    @Override
    public void barStep(String key, long total, long step, double seconds, Framework f) {
      calls++;
    }

    @Override
    public void stamped(String key, long step, long time, Framework f) {
      calls++;
    }

    @Override
    public void batchRate(String key, long step, double samplesPerSecond, Framework f) {
      calls++;
    }

    @Override
    public void trainRuntime(double seconds, double stepsPerSecond) {
      calls++;
    }

    @Override
    public void totalSteps(long steps) {
      calls++;
    }

    @Override
    public void globalBatch(long samples) {
      calls++;
    }

    @Override
    public void tokensPerRankStep(long tokens) {
      calls++;
    }

    @Override
    public void jsonPerStep() {
      calls++;
    }

    @Override
    public void whenApplied(Consumer<FileSteps> op) {
      calls++;
    }
  }

  static Stream<Path> logs() {
    return Fixtures.logs("src/test/resources/public/steps", "../examples");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void aFormatFindsNothingInALineWithoutItsNeedles(Path log) throws IOException {
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      List<String> variants = new ArrayList<>(List.of(line));
      for (String n : StepTimeReader.NEEDLES) {
        variants.add(line.replace(n, n.substring(0, n.length() - 1) + "\u00a0"));
      }
      for (String text : variants) {
        long found = StepNeedles.of(text);
        for (StepFormat f : FORMATS) {
          Told t = new Told();
          f.read(text, found, t);
          if (!f.readsEveryWantedLine() && (found & StepNeedles.set(f.needles())) == 0) {
            assertThat(t.calls).as(f.getClass().getSimpleName() + ": " + text).isZero();
          }
        }
      }
    }
  }

  @Test
  void theFormatsFindStepsInTheStepLogs() throws IOException {
    int told = 0;
    for (Path log : logs().toList()) {
      for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
        Told t = new Told();
        for (StepFormat f : FORMATS) {
          f.read(line, StepNeedles.of(line), t);
        }
        told += t.calls;
      }
    }
    assertThat(told).isGreaterThan(150);
  }

  /** A JSON key written with escapes holds no needle; the line is read where another needle is. */
  @Test
  void aJsonLineIsReadInAWantedLineWithoutItsNeedles() {
    String line = "{\"\\u0073tep_\\u0074ime\": 0.25} 10%| x";
    assertThat(StepNeedles.of(line)).isEqualTo(1L << StepNeedles.PERCENT_BAR);
    Told t = new Told();
    new JsonStepLines().read(line, StepNeedles.of(line), t);
    assertThat(t.calls).as("recognized, per step, step").isEqualTo(3);
    assertThat(StepTimeReader.read(line, StepNeedles.of(line))).isNotNull();
  }

  @Test
  void theNeedlesAreTheFormatsInTheirOrder() {
    assertThat(StepTimeReader.NEEDLES).isEqualTo(StepNeedles.ALL);
  }
}
