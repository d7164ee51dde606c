package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.Direction;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NCCL before 2.4 printed INFO lines without the word NCCL (debug.h's {@code "%s:%d:%d [%d] INFO
 * "}): the lines of https://github.com/NVIDIA/nccl/issues/187 are read as NCCL lines of their
 * process and device; other loggers' INFO lines are not.
 */
class OldInfoLinesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // line | host:pid [dev] or - when it is no NCCL line | connection from>to, or -
        "`learngpu060:3728593:3730444 [6] INFO Ring 00 : 6[6] -> 10[2] via P2P/IPC`"
            + " | learngpu060:3728593 [6] | 6[6]>10[2]",
        "`learngpu060:3728589:3730445 [2] INFO Ring 00 : 2[2] -> 3[3] via P2P/IPC`"
            + " | learngpu060:3728589 [2] | 2[2]>3[3]",
        // NCCL 2.0's connection line names no ring (https://github.com/horovod/horovod/issues/110)
        "`mtk:2521:2528 [0] INFO 0 -> 1 via P2P/IPC` | mtk:2521 [0] | 0[null]>1[null]",
        "`learngpu060:3728579:3730441 [0] INFO Ring 00 :    0   1   2   3   7   4   5   6  10`"
            + " | learngpu060:3728579 [0] | -",
        // other loggers: no pid and tid, a name in the brackets, a source location before INFO
        "`worker-1 [0] INFO starting epoch 3` | - | -",
        "`2024-05-01 12:00:01,123 [main] INFO loaded 8 shards` | - | -",
        "`host:12:34 [0] trainer.py:88 INFO step 10` | - | -",
      })
  void readsOldInfoLines(String line, String process, String connection) {
    byte[] b = (line + "\n").getBytes(StandardCharsets.ISO_8859_1);
    BlockParser.Result r = BlockParser.parse(b, b.length);
    if (process.equals("-")) {
      assertThat(r.ncclLines()).isZero();
      return;
    }
    assertThat(r.ncclLines()).isEqualTo(1);
    BlockParser.Parsed p = r.parsed().get(0);
    LineHeader h = p.header();
    assertThat(h.process() + " [" + h.dev() + "]").isEqualTo(process);
    assertThat(h.level()).isEqualTo(LineHeader.Level.INFO);
    if (connection.equals("-")) {
      assertThat(p.event()).isInstanceOf(NcclEvent.RingOrder.class);
    } else {
      NcclEvent.Connection c = (NcclEvent.Connection) p.event();
      assertThat(c.from() + "[" + c.fromTag() + "]>" + c.to() + "[" + c.toTag() + "]")
          .isEqualTo(connection);
      assertThat(c.direction()).isEqualTo(Direction.NONE);
    }
  }
}
