package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The header parsed on a line's bytes is the header {@link LineHeader#parse} reads in its text: on
 * every NCCL line of the real logs the tests and examples hold, and on the forms it leaves to the
 * text (headerless, rewritten, glued, malformed, escaped, non-ASCII).
 */
class HeaderBytesTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"src/test/resources", "../examples"})
  void readsEveryRealLineAsTheTextParserDoes(String dir) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(Path.of(dir))) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    int compared = 0;
    int onBytes = 0;
    for (Path f : files) {
      byte[] b = Files.readAllBytes(f);
      HeaderBytes headers = new HeaderBytes(); // one per file, as one per slice
      int start = 0;
      while (start < b.length) {
        int end = start;
        while (end < b.length && b[end] != '\n') {
          end++;
        }
        int nccl = indexOf(b, start, end);
        if (nccl >= 0) {
          String text = BlockParser.text(b, start, end);
          LineHeader h = headers.onBytes(b, start, end, nccl);
          if (h != null) {
            assertThat(h).as("%s: %s", f, text).isEqualTo(LineHeader.parse(text));
            onBytes++;
          }
          compared++;
        }
        start = end + 1;
      }
    }
    // most real lines are NCCL's own header, read on the bytes
    assertThat(compared).isGreaterThan(1_000);
    assertThat(onBytes).isGreaterThan(compared * 3 / 4);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // line (<ESC> for 0x1b, <CR> for a carriage return) | read on the bytes | process, or -
        "`node-00000:857:857 [0] NCCL INFO cudaDriverVersion 13000` | true | node-00000:857",
        "`(pid=909608) z-pc:909608:910337 [0] NCCL INFO Channel 00 : 0[2d000] -> 1[2e000] via"
            + " P2P/IPC` | true | z-pc:909608",
        "`10.10.23.10: so-ucloud-10-10-23-10:1307367:1307586 [0] NCCL INFO proxy.cc:684 -> 5"
            + " [Proxy Thread]` | true | so-ucloud-10-10-23-10:1307367",
        "`10: compute-gpu-st-distributed-ml-2:60026:60026 [2] NCCL INFO cudaDriverVersion 12020`"
            + " | true | compute-gpu-st-distributed-ml-2:60026",
        "`[1,3]<stdout>:gpu1:4321:4400 [3] NCCL INFO Ring 00 : 3[3] -> 0[0] via P2P/IPC`"
            + " | true | gpu1:4321",
        "`2024-03-05T10:00:00.123456789Z node-1:12:34 [7] NCCL INFO Using network IB`"
            + " | true | node-1:12",
        "`host-a:1:2 [0] include/shm.h:28 NCCL WARN Error while creating shared memory segment"
            + " /dev/shm/nccl-x (size 9637888)` | true | host-a:1",
        "`NCCL error: host-a:1:2 [0] NCCL WARN Cuda failure 'out of memory'` | true | host-a:1",
        // a pid printed with a leading zero keys the process by its number
        "`host-a:0857:857 [0] NCCL INFO Comm config Blocking set to 1` | true | host-a:857",
        "`host-a:1:2 [0] NCCL INFO Using network IB<CR>` | false | host-a:1",
        "`host-a:1:2 [0] NCCL WARN Gerät nicht gefunden` | true | host-a:1",
        // left to the text: no host, no pid and tid, rewritten, quoted, glued
        "`[3] NCCL INFO Ring 00 : 3[3] -> 0[0] via P2P/IPC` | false | ?:0",
        "`[3] include/shm.h:28 NCCL WARN Error while creating shared memory segment` | false | ?:0",
        "`gpu-server320 [5] NCCL INFO Channel 00/02 :    0   1` | false | gpu-server320:0",
        "`[misc/socket.cc:602] [host:pid=N] NCCL WARN Net : Connection closed by remote peer`"
            + " | false | ?:0",
        "`\"NCCL INFO Call to connect returned Connection refused, retrying\"` | false | ?:0",
        "`a:1:2 [1] NCCL INFO b:3:4 [2] NCCL INFO Ring 05 : 2[2] -> 3[3] via P2P/IPC`"
            + " | false | b:3",
        "`register_mr_buffers:544 NCCL WARN NET/OFI Unable to register memory` | false | ?:0",
        // left to the text: escapes (in the message too), non-ASCII or numbers out of range before
        // the message
        "`<ESC>[32mhost-a:1:2 [0] NCCL INFO Using network IB` | false | host-a:1",
        "`höst:1:2 [0] NCCL INFO Using network IB` | false | höst:1",
        "`host-a:1:2 [-1] NCCL INFO Using network IB` | false | host-a:1",
        "`host-a:1:2 [99999999999] NCCL INFO Using network IB` | false | ?:0",
        "`host-a:123456789012345678901:2 [0] NCCL INFO Using network IB` | false | ?:0",
        "`host-a:1:2 [0] NCCL INFO<CR>` | false | host-a:1",
        // no NCCL header at all
        "`NCCL version 2.18.1+cuda12.1` | false | -",
        "`host-a:1:2 [x] NCCL INFO Using network IB` | false | ?:0",
      })
  void readsFormsAsTheTextParserDoes(String form, boolean bytes, String process) {
    String line = form.replace("<ESC>", "\u001b").replace("<CR>", "\r");
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    int nccl = indexOf(b, 0, b.length);
    String text = BlockParser.text(b, 0, b.length);
    HeaderBytes headers = new HeaderBytes();

    LineHeader h = headers.onBytes(b, 0, b.length, nccl);

    LineHeader read = LineHeader.parse(text);
    assertThat(h != null).isEqualTo(bytes);
    if (h != null) {
      assertThat(h).isEqualTo(read);
    }
    assertThat(read == null ? "-" : read.process()).isEqualTo(process);
  }

  @Test
  void makesEachHostAndProcessOncePerSlice() {
    HeaderBytes headers = new HeaderBytes();
    byte[] b =
        ("node-1:12:34 [0] NCCL INFO Using network IB\n"
                + "node-2:56:78 [1] NCCL INFO Using network IB\n"
                + "node-1:12:35 [0] NCCL INFO cudaDriverVersion 12020\n")
            .getBytes(StandardCharsets.US_ASCII);

    LineHeader first = line(headers, b, 0);
    LineHeader other = line(headers, b, 44);
    LineHeader again = line(headers, b, 88);

    assertThat(first.process()).isEqualTo("node-1:12");
    assertThat(other.process()).isEqualTo("node-2:56");
    assertThat(again.process()).isSameAs(first.process());
    assertThat(again.host()).isSameAs(first.host());
    assertThat(again.tid()).isEqualTo(35);
    assertThat(again.message()).isEqualTo("cudaDriverVersion 12020");
  }

  @Test
  void blockCountsEveryNcclLineAndKeepsAllButTheKnownOnes() {
    byte[] b =
        ("node-1:12:34 [0] NCCL INFO Comm config Blocking set to 1\n" // known: counted, not kept
                + "node-1:12:34 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read\n"
                + "node-1:12:34 [0] NCCL INFO no parser reads this line\n" // unrecognized: kept
                + "[3] NCCL INFO Comm config Blocking set to 1\n") // headerless: from its text
            .getBytes(StandardCharsets.US_ASCII);

    BlockParser.Result r = BlockParser.parse(b, b.length);

    assertThat(r.lines()).isEqualTo(4);
    assertThat(r.ncclLines()).isEqualTo(4);
    assertThat(r.parsed())
        .extracting(p -> p.line() + " " + p.event().getClass().getSimpleName() + " " + p.text())
        .containsExactly(
            "2 Connection node-1:12:34 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read",
            "3 Unrecognized node-1:12:34 [0] NCCL INFO no parser reads this line",
            "4 Known [3] NCCL INFO Comm config Blocking set to 1");
  }

  /** The header of the line starting at {@code start}. */
  private static LineHeader line(HeaderBytes headers, byte[] b, int start) {
    int end = start;
    while (b[end] != '\n') {
      end++;
    }
    return headers.onBytes(b, start, end, indexOf(b, start, end));
  }

  /** The first {@code NCCL } in {@code [from, to)}, or -1. */
  private static int indexOf(byte[] b, int from, int to) {
    byte[] needle = "NCCL ".getBytes(StandardCharsets.US_ASCII);
    outer:
    for (int i = from; i + needle.length <= to; i++) {
      for (int k = 0; k < needle.length; k++) {
        if (b[i + k] != needle[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
