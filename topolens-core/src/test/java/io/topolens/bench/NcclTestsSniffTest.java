package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link NcclTestsReader#looksLike} tries its expression only on texts holding one of {@link
 * NcclTestsReader#TEXT_LITERALS}: every text the expression finds holds one, on an example of each
 * of its branches and on the head of every fixture and example file.
 */
class NcclTestsSniffTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "# nccl-tests version 2.13.8 nccl-headers=22105 nccl-library=22105",
        "# Collective test starting: all_reduce_perf",
        "# Collective test concluded: all_reduce_perf",
        "# nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5",
        "# nThreads: 1 nGpus: 1",
        "#  Rank  0 Group  0 Pid  12345 on   node-1 device  0 [0x18] NVIDIA H100 80GB HBM3",
        "#  Rank  3 Pid 998 on h device  3 [0x9a] NVIDIA A100",
        "#       size         count      type   redop    root     time   algbw   busbw #wrong",
        "#        size         count      type     time   algbw   busbw",
        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)",
        "# Out of bounds values : 0 OK",
        "# Avg bus bandwidth    : 123.456",
        "#  Using devices",
        "node1: Test NCCL failure common.cu:1005 'unhandled system error'",
        "node1: Test CUDA failure common.cu:892 'out of memory'",
        "h: Test failure common.cu:401",
        "#   Rank  0 uses device  0 [0x07] NVIDIA H100 80GB HBM3",
        "#  bytes  N  type  op  time  algbw  busbw"
      })
  void eachBranchsExampleHoldsALiteral(String line) {
    String text = "some preamble\n" + line + "\nmore\n";

    assertThat(NcclTestsReader.TEXT_MARKERS.matcher(text).find()).isTrue();
    assertThat(NcclTestsReader.TEXT_LITERALS).anyMatch(text::contains);
    assertThat(NcclTestsReader.looksLike(text)).isTrue();
  }

  @Test
  void everyFilesHeadGetsTheExpressionsAnswer() throws IOException {
    List<Path> files;
    try (Stream<Path> s =
        Stream.of(Path.of("src/test/resources"), Path.of("../examples"))
            .flatMap(NcclTestsSniffTest::walk)) {
      files = s.filter(f -> !f.toString().endsWith(".gz")).toList();
    }
    assertThat(files).hasSizeGreaterThan(100);
    int tests = 0;
    for (Path f : files) {
      String head;
      try (InputStream in = Files.newInputStream(f)) {
        head = new String(in.readNBytes(64 * 1024), StandardCharsets.ISO_8859_1);
      }
      if (head.stripLeading().startsWith("{") || head.startsWith("\uFEFF")) {
        continue;
      }
      boolean expected = NcclTestsReader.TEXT_MARKERS.matcher(head).find();
      if (expected) {
        assertThat(NcclTestsReader.TEXT_LITERALS).as(f.toString()).anyMatch(head::contains);
        assertThat(NcclTestsReader.looksLike(head)).as(f.toString()).isTrue();
      }
      tests += expected ? 1 : 0;
    }
    assertThat(tests).isGreaterThan(5);
  }

  private static Stream<Path> walk(Path dir) {
    try {
      return Files.walk(dir).filter(Files::isRegularFile);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
