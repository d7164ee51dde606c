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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The formats tell the same of a line read on a slice's bytes ({@link StepLine#onBytes}, as the
 * NCCL reader's parse threads read it) as of its decoded text: on every line of the step logs and
 * examples, and on the same lines bent (cut short, numbers changed, non-ASCII white space and
 * letters beside the forms' marks).
 */
class StepLineTest {

  /** What a format told, call by call, in words. */
  private static final class Told implements StepSink {
    final List<String> calls = new ArrayList<>();
    private final StepLine line;

    Told(StepLine line) {
      this.line = line;
    }

    @Override
    public String key(String kind) {
      return FileSteps.key(line, kind);
    }

    @Override
    public void recognized(Framework f) {
      calls.add("recognized " + f);
    }

    @Override
    public void malformed(Framework f, String why) {
      calls.add("malformed " + f + " " + why);
    }

    @Override
    public void step(String key, long step, double seconds, Framework f, Derivation d) {
      calls.add("step " + key + " " + step + " " + seconds + " " + f + " " + d);
    }

    @Override
    public void barStep(String key, long total, long step, double seconds, Framework f) {
      calls.add("bar " + key + " " + total + " " + step + " " + seconds + " " + f);
    }

    @Override
    public void batchRate(String key, long step, double samplesPerSecond, Framework f) {
      calls.add("rate " + key + " " + step + " " + samplesPerSecond + " " + f);
    }

    @Override
    public void stamped(String key, long step, long time, Framework f) {
      calls.add("stamped " + key + " " + step + " " + time + " " + f);
    }

    @Override
    public void trainRuntime(double seconds, double stepsPerSecond) {
      calls.add("runtime " + seconds + " " + stepsPerSecond);
    }

    @Override
    public void totalSteps(long steps) {
      calls.add("total " + steps);
    }

    @Override
    public void globalBatch(long samples) {
      calls.add("batch " + samples);
    }

    @Override
    public void tokensPerRankStep(long tokens) {
      calls.add("tokens " + tokens);
    }

    @Override
    public void jsonPerStep() {
      calls.add("json per step");
    }

    @Override
    public void whenApplied(Consumer<FileSteps> op) {
      calls.add("when applied");
    }
  }

  /** What the formats tell of a line's text. */
  private static List<String> ofText(String text) {
    StepLine l = StepLine.of(text);
    Told t = new Told(l);
    try {
      StepTimeReader.read(l, StepNeedles.of(text) | StepNeedles.marks(text), t);
    } catch (RuntimeException e) {
      t.calls.add("threw " + e); // a step past a long (both ways alike)
    }
    return t.calls;
  }

  /** What they tell of the same line read on its bytes, between two other lines of a slice. */
  private static List<String> ofBytes(byte[] line) {
    byte[] before = "[2024-12-28 16:12:40,120] step=1 %| time\n".getBytes(StandardCharsets.UTF_8);
    byte[] after =
        "\n 10%|█ | 183/1722 [10:44<1:31:15, 3.56s/it]\n".getBytes(StandardCharsets.UTF_8);
    byte[] slice = new byte[before.length + line.length + after.length];
    System.arraycopy(before, 0, slice, 0, before.length);
    System.arraycopy(line, 0, slice, before.length, line.length);
    System.arraycopy(after, 0, slice, before.length + line.length, after.length);
    String view = new String(slice, StandardCharsets.ISO_8859_1);
    StepLine l = StepLine.onBytes(view, slice, before.length, before.length + line.length);
    Told t = new Told(l);
    try {
      StepTimeReader.read(l, StepNeedles.of(l.text()) | StepNeedles.marks(l.text()), t);
    } catch (RuntimeException e) {
      t.calls.add("threw " + e);
    }
    return t.calls;
  }

  /** Lines as the reader reads them on bytes: without escapes or carriage returns. */
  private static boolean onBytes(byte[] b) {
    for (byte c : b) {
      if (c == 0x1b || c == '\r' || c == '\n') {
        return false;
      }
    }
    return true;
  }

  static Stream<Path> logs() {
    return Fixtures.logs("src/test/resources/public/steps", "../examples");
  }

  /** A line and its bent forms, as bytes. */
  private static List<byte[]> variants(String line) {
    List<byte[]> v = new ArrayList<>();
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    v.add(b);
    // cut short at each tenth, a UTF-8 character cut through included
    for (int k = 1; k < 10; k++) {
      v.add(java.util.Arrays.copyOf(b, b.length * k / 10));
    }
    v.add(line.replaceAll("[0-9]", "9").getBytes(StandardCharsets.UTF_8));
    v.add(line.replaceAll("[0-9]+", "99999999999999999999").getBytes(StandardCharsets.UTF_8));
    v.add(line.replace(".", "").getBytes(StandardCharsets.UTF_8));
    v.add(line.replace(" ", "\u2003").getBytes(StandardCharsets.UTF_8));
    v.add(line.replace(":", "\u00e9:").getBytes(StandardCharsets.UTF_8));
    v.add(line.replace(":", ":\u2003").getBytes(StandardCharsets.UTF_8));
    v.add(line.replace("|", "\u0085|").getBytes(StandardCharsets.UTF_8));
    v.add(line.replace("]", "\u2028]").getBytes(StandardCharsets.UTF_8));
    v.add(line.replace("s/it", "s/it\u0085").getBytes(StandardCharsets.UTF_8));
    v.add(line.replace(",", "\u00a0,").getBytes(StandardCharsets.UTF_8));
    v.add(line.replace("=", "=\u2003").getBytes(StandardCharsets.UTF_8));
    return v;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void theFormatsTellTheSameOfALinesBytesAsOfItsText(Path log) throws IOException {
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      for (byte[] b : variants(line)) {
        if (!onBytes(b)) {
          continue;
        }
        String text = new String(b, StandardCharsets.UTF_8);
        assertThat(ofBytes(b)).as(text).isEqualTo(ofText(text));
      }
    }
  }

  @Test
  void theStepLogsTellMuch() throws IOException {
    int told = 0;
    for (Path log : logs().toList()) {
      for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
        told += ofBytes(line.getBytes(StandardCharsets.UTF_8)).size();
      }
    }
    assertThat(told).isGreaterThan(150);
  }

  /** Lines whose parts hold non-ASCII characters where the forms look. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "` 10%|█         | 5/50 [01:23<12:34, 16.7s/it]` | 2",
        "`Epoch 0\u2003:  22%|██▏       | 4/18 [00:17<01:02,  4.47s/it, loss=10.072]` | 0",
        "`Epoch 0:\u2003 22%|██▏       | 4/18 [00:17<01:02,  4.47s/it, loss=10.072]` | 2",
        "`Époque 0:  22%|██▏       | 4/18 [00:17<01:02,  4.47s/it, loss=10.072]` | 0",
        "`  1%|█▍   | 2/203 [00:12<16:46,  5.01s/it\u2028` | 2",
        "`  1%|█▍   | 2/203 [00:12<16:46,  5.01s/it\u0085` | 2",
        "`  1%|█▍   | 2/203 [00:12<16:46,  5.01s/it é` | 1",
        "`[rank3]: 10%|█ | 5/50 [01:23<12:34, 16.7s/it]` | 2",
        "`[2022-03-11 02:06:58,985] [INFO] [logging.py:69:log_dist] [Rank 0] step=40, skipped=2, lr=[5e-05]` | 2",
        "`epoch=0/micro_step=34/global_step=34, RunningAvgSamplesPerSec=7.86, CurrSamplesPerSec=8.00, x` | 2",
        "`epoch=0/micro_step=34/global_step=34, RunningAvgSamplesPerSec=7.86, CurrSamplesPerSec=\u20038.00\u2003, x` | 2",
        "`epoch=0/micro_step=34/global_step=34, RunningAvgSamplesPerSec=7.86, CurrSamplesPerSec=é, x` | 1",
        "`time (ms) | fwd: 6567.66 | bwd: 17950.35 | step\u2003: 1139.29` | 2",
      })
  void nonAsciiBesideTheFormsMarksIsReadAsInTheText(String line, int calls) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    List<String> ofText = ofText(line);
    assertThat(ofBytes(b)).isEqualTo(ofText).hasSize(calls);
  }

  @Test
  void aLinesPartsAreItsOwnOnTheSlicesBytes() {
    byte[] slice = "ab\n[rank1]: x é 12\ncd".getBytes(StandardCharsets.UTF_8);
    String view = new String(slice, StandardCharsets.ISO_8859_1);
    StepLine l = StepLine.onBytes(view, slice, 3, slice.length - 3);
    assertThat(l.text()).isEqualTo("[rank1]: x é 12");
    assertThat(l.length()).isEqualTo(16); // bytes: é is two
    assertThat(l.indexOf("12")).isEqualTo(14);
    assertThat(l.indexOf("cd")).isEqualTo(-1);
    assertThat(l.indexOf("ab")).isEqualTo(-1);
    assertThat(l.indexOf('\n', 0)).isEqualTo(-1);
    assertThat(l.startsWith("[rank", 0)).isTrue();
    assertThat(l.startsWith("12", 14)).isTrue();
    assertThat(l.startsWith("12\n", 14)).isFalse();
    assertThat(l.text(11, 13)).isEqualTo("é");
    assertThat(l.indexOf("x", 20)).isEqualTo(-1);
    assertThat(FileSteps.key(l, "tqdm:50")).isEqualTo("tqdm:50@1");
  }
}
