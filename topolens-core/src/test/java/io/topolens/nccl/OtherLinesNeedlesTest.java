package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.steps.StepTimeReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The needles {@link BlockParser} tells a sink a wanted line holds, found on the block's bytes (the
 * step-time reader's), are those a search of the line's text finds ({@link OtherLines#holds}), on
 * every log of the tests and the examples, and on lines made to bend it: escapes, carriage returns,
 * bytes that are not UTF-8, needles at the ends of lines and of blocks.
 */
class OtherLinesNeedlesTest {

  /** A wanted line as the sink saw it: its text and the needles it was told of. */
  private record Seen(String text, long needles) {}

  private static List<Seen> parse(byte[] block) {
    return parse(block, STEPS);
  }

  /** The wanted lines of a block for {@code wanted}'s needles (and marks). */
  private static List<Seen> parse(byte[] block, OtherLines wanted) {
    List<Seen> seen = new ArrayList<>();
    OtherLines.Sink sink =
        new OtherLines.Sink() {
          @Override
          public void line(String file, long line, String text) {}

          @Override
          public OtherLines.Slice slice(String view, byte[] bytes) {
            return (line, start, end, text, needles) ->
                seen.add(
                    new Seen(
                        text != null
                            ? text
                            : new String(bytes, start, end - start, StandardCharsets.UTF_8),
                        needles));
          }
        };
    OtherLines lines = new OtherLines(wanted.needles(), wanted.marks(), sink);
    BlockParser.parse(block, block.length, lines);
    return seen;
  }

  private static final OtherLines STEPS = new OtherLines(StepTimeReader.NEEDLES, (f, l, t) -> {});

  /** The step-time reader's needles and marks, as diagnose reads. */
  private static final OtherLines MARKED = new StepTimeReader().lines();

  static Stream<Path> logs() {
    return Fixtures.logs("src/test/resources", "../examples");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void theNeedlesOfEachWantedLineAreThoseOfItsText(Path log) throws IOException {
    byte[] bytes = Files.readAllBytes(log);
    // slices cut at line ends, as the reader cuts them
    int from = 0;
    while (from < bytes.length) {
      int to = Math.min(bytes.length, from + NcclLogReader.SLICE);
      while (to < bytes.length && bytes[to - 1] != '\n') {
        to++;
      }
      byte[] slice = java.util.Arrays.copyOfRange(bytes, from, to);
      for (Seen s : parse(slice)) {
        assertThat(s.needles()).as(s.text()).isEqualTo(STEPS.holds(s.text()));
      }
      from = to;
    }
  }

  /** The marks found on the bytes are those of the text, and make no line wanted. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void theMarksOfEachWantedLineAreThoseOfItsText(Path log) throws IOException {
    byte[] bytes = Files.readAllBytes(log);
    List<Seen> marked = parse(bytes, MARKED);
    for (Seen s : marked) {
      assertThat(s.needles()).as(s.text()).isEqualTo(MARKED.holds(s.text()));
    }
    assertThat(marked.stream().map(Seen::text).toList())
        .isEqualTo(parse(bytes).stream().map(Seen::text).toList());
  }

  @Test
  void theStepLogsGiveWantedLinesWithEveryNeedle() throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    try (Stream<Path> s = Files.list(Path.of("src/test/resources/public/steps"))) {
      for (Path p : s.filter(p -> !p.toString().endsWith(".md")).sorted().toList()) {
        all.writeBytes(Files.readAllBytes(p));
        all.write('\n');
      }
    }
    List<Seen> seen = parse(all.toByteArray());
    assertThat(seen).hasSizeGreaterThan(80);
    assertThat(seen).allMatch(s -> s.needles() == STEPS.holds(s.text()));
    long union = seen.stream().mapToLong(Seen::needles).reduce(0, (x, y) -> x | y);
    assertThat(Long.bitCount(union)).as("needles seen").isGreaterThanOrEqualTo(6);
  }

  /** Lines that bend the finder, repeated past its window so cached places are reused. */
  @Test
  void escapesCarriageReturnsAndBadBytesGiveTheNeedlesOfTheText() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<byte[]> lines =
        List.of(
            bytes("step"),
            bytes("time"),
            bytes("x step"),
            bytes("st\u001b[0mep time (ms) | fwd: 1 | bwd: 2 | step: 3"),
            bytes("\u001b[step global_step=3, RunningAvgSamplesPerSec=1, CurrSamplesPerSec=2"),
            bytes(" 10%|\u001b[31m█\u001b[0m | 5/50 [01:23<12:34, 16.7s/it]\r"),
            bytes(" 10%|█ | 5/50 [01:23<12:34, 16.7s/it]\r 11%|█ | 6/50 [01:25<12:34, 2.0s/it]"),
            bytes("{\"step\": 3, \"step_time\": 0.12}"),
            bytes("{'loss': 1.0, 'epoch': 0.1}"),
            bytes("Total optimization steps = 1,722"),
            bytes("Total train batch size (w. parallel, distributed & accumulation) = 64"),
            bytes("{'train_runtime': 2307.9, 'train_steps_per_second': 0.022}"),
            bytes("  train_runtime            = 0:36:58.55"),
            bytes("[Rank 0] step=40, skipped=2, lr=[5e-05]"),
            bytes("train_batch_size ............. 64"),
            bytes("iteration 43/ 100 | elapsed time per iteration (ms): 5444.9 |"),
            bytes("step: 200 loss: 6.1 tps: 5,856 with local batch size 8, local batch size"),
            concat(bytes("ti"), new byte[] {(byte) 0xe2, (byte) 0x28}, bytes("me step")),
            concat(bytes("st"), new byte[] {(byte) 0xf0, (byte) 0x9f}, bytes("ep time")),
            concat(new byte[] {(byte) 0xc3}, bytes("%|"), new byte[] {(byte) 0xff}, bytes("step")),
            bytes("no needle at all"),
            bytes(""),
            bytes("ste"),
            bytes("p"));
    int n = 0;
    while (out.size() < 3 * Needles.Finder.WINDOW) {
      byte[] l = lines.get(n++ % lines.size());
      out.write(l, 0, l.length);
      out.write('\n');
    }
    // a last line without a line break, ending in a needle
    byte[] last = bytes("last step");
    out.write(last, 0, last.length);
    byte[] block = out.toByteArray();
    List<Seen> seen = parse(block);
    assertThat(seen).hasSizeGreaterThan(lines.size() * 10);
    assertThat(seen).allMatch(s -> s.needles() == STEPS.holds(s.text()));
    assertThat(seen.getLast().text()).isEqualTo("last step");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.write(p, 0, p.length);
    }
    return out.toByteArray();
  }
}
