package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLogReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A step kept by its line's place reads the line again as it was read the first time, and a file
 * changed in between gives no wrong line.
 */
class LinePlaceTest {
  @TempDir Path dir;

  /** The steps diagnose reads of a file (through the NCCL reader's pass). */
  private static StepTimes viaNcclReader(Path p) {
    StepTimeReader reader = new StepTimeReader();
    new NcclLogReader(2).read(LogInput.expand(List.of(p.toString())), reader.lines());
    return reader.finish();
  }

  private Path copy(String fixture) throws Exception {
    Path p = dir.resolve(Path.of(fixture).getFileName().toString());
    Files.copy(Fixtures.path(fixture), p);
    return p;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "public/steps/deepspeed-accelerate-1589-timers-and-bar.log",
    "public/steps/hf-transformers-262-cut-bars.log",
    "public/steps/lightning-4225-epoch-bars.log",
    "public/steps/deepspeed-1825-steps-per-print.log",
    "public/steps/megatron-756-iterations.log",
  })
  void everyStepsLineIsReadAgainAsItWasRead(String fixture) throws Exception {
    Path p = copy(fixture);
    StepTimes placed = viaNcclReader(p);
    assertThat(placed.steps()).isNotEmpty();
    // the line-by-line reader keeps texts: the same evidence, step by step
    assertThat(placed.steps()).isEqualTo(StepTimes.readAll(List.of(p)).steps());
  }

  @Test
  void aLineWithEscapesAndCarriageReturnsIsReadAgainAsItsText() throws Exception {
    Path p = dir.resolve("bar.log");
    Files.writeString(
        p,
        "start\n\u001b[32m 10%|█ | 5/50 [01:23<12:34, 16.7s/it]\u001b[0m\r\n"
            + " 12%|█ | 6/50 [01:40<12:34, 17.0s/it]\r 14%|█ | 7/50 [01:57<12:34, 17.0s/it]\n",
        StandardCharsets.UTF_8);
    StepTimes t = viaNcclReader(p);
    assertThat(t.steps())
        .extracting(s -> s.evidence().text())
        .containsExactly(
            " 10%|█ | 5/50 [01:23<12:34, 16.7s/it]",
            " 12%|█ | 6/50 [01:40<12:34, 17.0s/it] 14%|█ | 7/50 [01:57<12:34, 17.0s/it]",
            " 12%|█ | 6/50 [01:40<12:34, 17.0s/it] 14%|█ | 7/50 [01:57<12:34, 17.0s/it]");
    assertThat(t.steps()).extracting(s -> s.evidence().line()).containsExactly(2L, 3L, 3L);
  }

  /**
   * A line longer than the reader's buffer (skipped unread, 4 MiB at a time) still counts in the
   * places of the lines after it.
   */
  @Test
  void placesHoldPastALineSkippedUnread() throws Exception {
    Path p = dir.resolve("long.log");
    byte[] steps =
        Files.readAllBytes(
            Fixtures.path("public/steps/deepspeed-accelerate-1589-timers-and-bar.log"));
    try (OutputStream out = Files.newOutputStream(p)) {
      out.write(steps);
      out.write("x".repeat(5 << 20).getBytes(StandardCharsets.US_ASCII));
      out.write('\n');
      for (int i = 0; i < 300; i++) {
        out.write(steps); // then blocks of whole lines again (StepTimesTest crosses 4 MiB blocks)
      }
    }
    List<StepTime> placed = viaNcclReader(p).steps();
    List<StepTime> texts = StepTimes.readAll(List.of(p)).steps();
    assertThat(placed).hasSameSizeAs(texts).hasSizeGreaterThan(300);
    for (int i : new int[] {0, 1, 2, 3, 4, 5, placed.size() / 2, placed.size() - 1}) {
      assertThat(placed.get(i)).isEqualTo(texts.get(i));
    }
  }

  /** How a file changes between the reading and the report, as log rotation changes it. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "copytruncate, emptied",
    "copytruncate and written again, rewritten",
    "a digit changed in place, digit",
    "cut short, cut",
  })
  void aChangedFileGivesNoWrongLine(String how, String change) throws Exception {
    Path p = copy("public/steps/deepspeed-accelerate-1589-timers-and-bar.log");
    byte[] was = Files.readAllBytes(p);
    StepTimes t = viaNcclReader(p);
    String example = t.summary().orElseThrow().example().text();
    assertThat(example).isNotEqualTo(LinePlace.GONE);
    switch (change) {
      case "emptied" -> Files.write(p, new byte[0], StandardOpenOption.TRUNCATE_EXISTING);
      case "rewritten" -> {
        // new lines of the same form and lengths, other numbers
        String other = new String(was, StandardCharsets.UTF_8).replace('1', '2');
        Files.writeString(p, other, StandardCharsets.UTF_8);
      }
      case "digit" -> {
        byte[] b = was.clone();
        for (int i = 0; i < b.length; i++) {
          if (b[i] >= '0' && b[i] <= '8') {
            b[i]++;
          }
        }
        Files.write(p, b);
      }
      default -> Files.write(p, java.util.Arrays.copyOf(was, was.length / 2));
    }
    assertThat(t.summary().orElseThrow().example().text()).as(how).isEqualTo(LinePlace.GONE);
    Files.write(p, was);
    assertThat(t.summary().orElseThrow().example().text()).as("restored").isEqualTo(example);
  }

  @Test
  void aCompressedFileKeepsItsTexts() throws Exception {
    Path plain = copy("public/steps/deepspeed-accelerate-1589-timers-and-bar.log");
    Path gz = dir.resolve("steps.log.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(Files.readAllBytes(plain));
    }
    StepTimes t = viaNcclReader(gz);
    String example = t.summary().orElseThrow().example().text();
    Files.delete(gz);
    // not read again: the text was kept
    assertThat(t.summary().orElseThrow().example().text()).isEqualTo(example);
    assertThat(example).isEqualTo(viaNcclReader(plain).summary().orElseThrow().example().text());
  }

  @Test
  void theCheckIsOfTheLinesBytesAndLength() {
    byte[] a = "x step=1 y".getBytes(StandardCharsets.US_ASCII);
    byte[] b = "x step=2 y".getBytes(StandardCharsets.US_ASCII);
    assertThat(LinePlace.check(a, 0, a.length)).isNotEqualTo(LinePlace.check(b, 0, b.length));
    assertThat(LinePlace.check(a, 0, a.length) & 0xFFFFFFFFL).isEqualTo(a.length);
    byte[] part = "step=1".getBytes(StandardCharsets.US_ASCII);
    assertThat(LinePlace.check(a, 2, 8)).isEqualTo(LinePlace.check(part, 0, part.length));
  }
}
