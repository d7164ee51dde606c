package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link TraceLines#at} on the bytes says what a comparison of the line's text says: {@code NCCL
 * INFO } at the line's first {@code NCCL } followed by one of the forms, within the line. On every
 * line of the real logs the tests and examples hold, each line asked in the middle of a buffer and
 * at its very end (where the eight-byte words run past the array), and on forms cut short, misspelt
 * or at other levels.
 */
class TraceLinesTest {

  /** The definition, on the line's text. */
  private static boolean byText(String line, int nccl) {
    if (nccl < 0 || !line.startsWith(TraceLines.INFO, nccl)) {
      return false;
    }
    int m = nccl + TraceLines.INFO.length();
    return TraceLines.FORMS.stream().anyMatch(f -> line.startsWith(f, m));
  }

  private static boolean onBytes(String line, int nccl, boolean atArrayEnd) {
    byte[] b = line.getBytes(StandardCharsets.ISO_8859_1);
    if (atArrayEnd) {
      return TraceLines.at(b, nccl, b.length);
    }
    // the line between two others, as in a slice: the bytes after it must not count
    String before = "host:1:1 [0] NCCL INFO AllGather: x\n";
    String after = "\nAllGather: opCount 0 sendbuff 0x1 recvbuff 0x2 count 8\n";
    byte[] s = (before + line + after).getBytes(StandardCharsets.ISO_8859_1);
    int start = before.length();
    return TraceLines.at(s, nccl < 0 ? -1 : start + nccl, start + b.length);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"src/test/resources", "../examples"})
  void answersAsTheTextDoesOnEveryRealLine(String dir) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(Path.of(dir))) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    int asked = 0;
    int traces = 0;
    for (Path f : files) {
      String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
      for (String line : text.split("\n", -1)) {
        int nccl = line.indexOf("NCCL ");
        if (nccl < 0) {
          continue;
        }
        boolean expected = byText(line, nccl);
        assertThat(onBytes(line, nccl, false)).as("%s: %s", f, line).isEqualTo(expected);
        assertThat(onBytes(line, nccl, true)).as("%s at the end: %s", f, line).isEqualTo(expected);
        asked++;
        traces += expected ? 1 : 0;
      }
    }
    // the verbose fixtures hold many traces, and most NCCL lines are none
    assertThat(asked).isGreaterThan(1_000);
    assertThat(traces).isGreaterThan(50).isLessThan(asked / 2);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "n:1:1 [0] NCCL INFO AllGather: opCount 0 sendbuff 0x7f count 8 datatype 7 | true",
        "n:1:1 [0] NCCL INFO AllReduce: opCount 1 | true",
        "n:1:1 [0] NCCL INFO ReduceScatter: opCount 2 | true",
        "n:1:1 [0] NCCL INFO Reduce: opCount 2 | true",
        "n:1:1 [0] NCCL INFO Recv: opCount 2 | true",
        "n:1:1 [0] NCCL INFO Send: opCount 2 | true",
        "n:1:1 [0] NCCL INFO SendRecv: opCount 2 | true",
        // 2.28+'s calls (collectives.cc: ncclAlltoAll, ncclGather, ncclScatter), and RCCL's
        // spelling
        "n:1:1 [0] NCCL INFO AlltoAll: opCount 2 sendbuff 0x7f recvbuff 0x7e count 8 | true",
        "n:1:1 [0] NCCL INFO Gather: opCount 3 sendbuff 0x7f recvbuff 0x7e count 8 | true",
        "n:1:1 [0] NCCL INFO Scatter: opCount 4 sendbuff 0x7f recvbuff 0x7e count 8 | true",
        "n:1:1 [0] NCCL INFO AllToAll: opCount 2 | true",
        "n:1:1 [0] NCCL INFO Broadcast: opCount 2 | true",
        "n:1:1 [0] NCCL INFO Connected to proxy localRank 0 -> connection 0x7f | true",
        "n:1:1 [0] NCCL INFO New proxy send connection 0 from local rank 0 | true",
        "n:1:1 [0] NCCL INFO UDS converted handle 0x7f to fd 12 | true",
        "n:1:1 [0] NCCL INFO Imported shareable buffer device 0 size 2097152 | true",
        "n:1:1 [0] NCCL INFO Allocated shareable buffer 0x7f size 2097152 | true",
        "n:1:1 [0] NCCL INFO [Proxy Service] Device 0 CPU core 3 | true",
        // a form's last byte is the line's last
        "n:1:1 [0] NCCL INFO UDS converted handle | true",
        "'n:1:1 [0] NCCL INFO Send: ' | true",
        // cut short by the line's end
        "n:1:1 [0] NCCL INFO Send:| false",
        "n:1:1 [0] NCCL INFO Allocated shareable buffe | false",
        "n:1:1 [0] NCCL INFO | false",
        "'n:1:1 [0] NCCL INFO ' | false",
        // other messages, other levels, other spellings
        "n:1:1 [0] NCCL INFO AllGather opCount 0 | false",
        "n:1:1 [0] NCCL INFO Allgather: opCount 0 | false",
        "n:1:1 [0] NCCL INFO Channel 00/24 : 0 1 2 3 | false",
        "n:1:1 [0] NCCL INFO Connected all rings | false",
        "n:1:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0 | false",
        "n:1:1 [0] NCCL INFO  AllGather: opCount 0 | false",
        "n:1:1 [0] NCCL WARN AllGather: opCount 0 | false",
        "n:1:1 [0] NCCL TRACE AllGather: opCount 0 | false",
        "n:1:1 [0] NCCL  INFO AllGather: opCount 0 | false",
        "n:1:1 [0] NCCL info AllGather: opCount 0 | false",
        "AllGather: opCount 0 | false"
      })
  void tellsTheFormsAtTheirEdges(String line, boolean trace) {
    int nccl = line.indexOf("NCCL ");
    assertThat(byText(line, nccl)).isEqualTo(trace);
    assertThat(onBytes(line, nccl, false)).isEqualTo(trace);
    assertThat(onBytes(line, nccl, true)).isEqualTo(trace);
  }
}
