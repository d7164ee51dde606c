package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.Evidence;
import io.topolens.model.InputFile;
import io.topolens.model.Job;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Lines too long to be log lines (a dumped tensor, a base64 blob), around each size the reader
 * reads by: a parse slice ({@link NcclLogReader#SLICE}), the longest line parsed ({@link
 * BlockParser#MAX_LINE}), the longest line held ({@link NcclLogReader#BLOCK}). Each is counted as a
 * line and reported as malformed with its length, and the NCCL lines around it are read.
 */
class LongLinesTest {
  @TempDir Path dir;

  private static final String NCCL = "host-a:1:2 [0] NCCL INFO Using network IB\n";

  @ParameterizedTest(name = "{0} bytes, {1} lines before, newline {2}")
  @CsvSource({
    // length | NCCL lines before it | ends with a newline | malformed line's text, or -
    "65536, 1, true, -",
    "65537, 1, true, line of 65537 bytes starting",
    "262143, 0, true, line of 262143 bytes starting",
    "262144, 1, true, line of 262144 bytes starting",
    "262145, 3, true, line of 262145 bytes starting",
    "1000000, 1, true, line of 1000000 bytes starting",
    "4194303, 1, true, line of 4194303 bytes starting",
    "4194303, 0, true, line of 4194303 bytes starting",
    "4194304, 1, true, line of at least 4194304 bytes (not a log line)",
    "4194304, 0, true, line of at least 4194304 bytes (not a log line)",
    "9000000, 2, true, line of at least 9000000 bytes (not a log line)",
    "9000000, 2, false, line of at least 9000000 bytes (not a log line)",
    "300000, 2, false, line of 300000 bytes starting",
  })
  void aLongLineIsCountedAndReportedAndTheOthersRead(
      int length, int before, boolean newline, String problem) throws Exception {
    byte[] longLine = new byte[length];
    Arrays.fill(longLine, (byte) 'x');
    StringBuilder head = new StringBuilder();
    for (int i = 0; i < before; i++) {
      head.append(NCCL);
    }
    String tail = newline ? "\n" + NCCL + NCCL : "";
    Path log = dir.resolve("long.log");
    Files.write(
        log,
        concat(
            head.toString().getBytes(StandardCharsets.US_ASCII),
            longLine,
            tail.getBytes(StandardCharsets.US_ASCII)));

    Job job = new NcclLogReader(2).read(LogInput.expand(List.of(log.toString())));

    InputFile f = job.inputs().get(0);
    int after = newline ? 2 : 0;
    assertThat(f.problem()).isNull();
    assertThat(f.lines()).isEqualTo(before + 1 + after);
    assertThat(f.ncclLines()).isEqualTo(before + after);
    List<Evidence> malformed = job.malformed().samples();
    if (problem.equals("-")) {
      assertThat(malformed).isEmpty();
      return;
    }
    assertThat(malformed).hasSize(1);
    assertThat(malformed.get(0).line()).isEqualTo(before + 1);
    assertThat(malformed.get(0).text()).startsWith(problem);
    if (problem.endsWith("starting")) {
      assertThat(malformed.get(0).text()).isEqualTo(problem + " \"" + "x".repeat(120) + "\"");
    } else {
      assertThat(malformed.get(0).text()).isEqualTo(problem + ", skipped");
    }
  }

  private static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
