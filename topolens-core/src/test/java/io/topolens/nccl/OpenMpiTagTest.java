package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NCCL lines printed in several writes under {@code mpirun --tag-output} carry Open MPI's tag again
 * where each later write begins: read as the one NCCL line they are, on the bytes' path and the
 * text's alike. A different tag inside a line is another process's write and is left in place.
 */
class OpenMpiTagTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // line | process | location | message
        // the tag again inside the message, the device, the tid, before NCCL, inside the location
        "`[1,0]<stdout>:host-a:25:109 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CU"
            + "[1,0]<stdout>:MEM/read` | host-a:25 | `` | Channel 00/0 : 0[0] -> 1[1] via"
            + " P2P/CUMEM/read",
        "`[1,0]<stdout>:host-a:25:1[1,0]<stdout>:09 [0] NCCL INFO Connected all trees`"
            + " | host-a:25 | `` | Connected all trees",
        "`[1,0]<stdout>:host-a:25:109 [0] [1,0]<stdout>:NCCL INFO Connected all trees`"
            + " | host-a:25 | `` | Connected all trees",
        "`[1,3]<stderr>:host-a:25:109 [3] misc/socket.cc:[1,3]<stderr>:484 NCCL WARN Net :"
            + " Connection closed by remote peer` | host-a:25 | misc/socket.cc:484 | Net :"
            + " Connection closed by remote peer",
        "`2024-07-19T10:00:00.123Z [1,8]<stdout>:host-b:25:25 [0] NCCL INFO Using network A"
            + "[1,8]<stdout>:WS Libfabric[1,8]<stdout>:` | host-b:25 | `` | Using network AWS"
            + " Libfabric",
        // not joined: another process's tag (its write glued on), an untagged line quoting one
        "`[1,0]<stdout>:partial output of rank 0[1,3]<stdout>:host-b:7:8 [3] NCCL INFO Connected"
            + " all rings` | host-b:7 | `` | Connected all rings",
        "`host-a:1:2 [0] NCCL INFO tag x[1,0]<stdout>: y` | host-a:1 | `` | tag x[1,0]<stdout>:"
            + " y",
        "`[1,0]<stdout>:host-a:1:2 [0] NCCL INFO tag x[1,1]<stdout>: y` | host-a:1 | `` | tag"
            + " x[1,1]<stdout>: y",
      })
  void readsTheWritesOfOneLineAsOneLine(
      String line, String process, String location, String message) {
    LineHeader text = LineHeader.parse(line);
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    LineHeader bytes = new HeaderBytes().onBytes(b, 0, b.length, indexOfNccl(line));

    assertThat(text).isNotNull();
    assertThat(text.process()).isEqualTo(process);
    assertThat(text.location()).isEqualTo(location);
    assertThat(text.message()).isEqualTo(message);
    if (bytes != null) {
      assertThat(bytes).isEqualTo(text);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // line | joined
        "`[1,0]<stdout>:    8    2  float  sum  -1[1,0]<stdout>:    85.70    0.00    0.00      0`"
            + " | `[1,0]<stdout>:    8    2  float  sum  -1    85.70    0.00    0.00      0`",
        "`[1,0]<stdout>:a[1,0]<stdout>:b[1,0]<stdout>:` | `[1,0]<stdout>:ab`",
        "`x [2,5]<stderr>:a[2,5]<stderr>:b` | `x [2,5]<stderr>:ab`",
        // unchanged: one tag, another rank's or stream's tag, no tag
        "`[1,0]<stdout>:    8    2  float  sum  -1    85.70` | `[1,0]<stdout>:    8    2  float  sum"
            + "  -1    85.70`",
        "`[1,0]<stdout>:a[1,1]<stdout>:b` | `[1,0]<stdout>:a[1,1]<stdout>:b`",
        "`[1,0]<stdout>:a[1,0]<stderr>:b` | `[1,0]<stdout>:a[1,0]<stderr>:b`",
        "`plain line [1,0] <stdout>` | `plain line [1,0] <stdout>`",
      })
  void joinsOnlyTheCopiesOfTheFirstTag(String line, String joined) {
    assertThat(OpenMpiTag.joinWrites(line)).isEqualTo(joined);
  }

  private static int indexOfNccl(String line) {
    return line.getBytes(StandardCharsets.UTF_8).length
        - line.substring(line.indexOf("NCCL ")).getBytes(StandardCharsets.UTF_8).length;
  }
}
