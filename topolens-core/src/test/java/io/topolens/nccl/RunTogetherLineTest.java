package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.NetPluginEvent.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Lines whose line breaks were lost hold several NCCL messages; each is read on its own, with the
 * line's number. The lines are real lines of public threads joined with a blank, as a paste that
 * lost its line breaks joins them (nccl/failures/README.md names them).
 */
class RunTogetherLineTest {

  /** NVIDIA/nccl issue 1126's first five lines (NCCL 2.10.3), joined. */
  static final String JOINED =
      "zkti:702444:702444 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>"
          + " zkti:702444:702444 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so),"
          + " using internal implementation"
          + " zkti:702444:702444 [0] NCCL INFO NET/IB : No device found."
          + " zkti:702444:702444 [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>"
          + " zkti:702444:702444 [0] NCCL INFO Using network Socket";

  /** The same lines as launchers that drop {@code host:pid:tid} print them, joined. */
  static final String JOINED_HEADERLESS =
      "[0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>"
          + " [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal"
          + " implementation"
          + " [0] NCCL INFO NET/IB : No device found."
          + " [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>"
          + " [0] NCCL INFO Using network Socket";

  @Test
  void splitsLinesJoinedWithTheirHeaders() {
    assertThat(RunTogetherLine.messages(JOINED))
        .containsExactly(
            "zkti:702444:702444 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>",
            "zkti:702444:702444 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using"
                + " internal implementation",
            "zkti:702444:702444 [0] NCCL INFO NET/IB : No device found.",
            "zkti:702444:702444 [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>",
            "zkti:702444:702444 [0] NCCL INFO Using network Socket");
  }

  @Test
  void splitsHeaderlessMessages() {
    assertThat(RunTogetherLine.messages(JOINED_HEADERLESS))
        .hasSize(5)
        .startsWith("[0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>")
        .endsWith("[0] NCCL INFO Using network Socket");
  }

  /**
   * One message per line: a plain line, a header glued to another process's line (two writes at
   * once, NVIDIA/nccl issue 147, which {@link LineHeader} gives to the second header), and a
   * message that names an NCCL variable.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "`zkti:702444:702444 [0] NCCL INFO NET/IB : No device found.`",
        "`learnfair062:40515:40655 [6] NCCL INFO learnfair062:40517:40631 [7] NCCL INFO Ring 04 :"
            + " 7[7] -> 3[3] via P2P/IPC`",
        "`bigo:1884:2298 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to LOC`",
        // one line in two columns of a CloudWatch copy (aws-ofi-nccl issue 889, public/024)
        "`  | 2025-05-16T16:39:51.208-07:00ip-10-36-29-253:79:79 [0] NCCL INFO Bootstrap : Using"
            + " eth0:10.36.29.253<0> | ip-10-36-29-253:79:79 [0] NCCL INFO Bootstrap : Using"
            + " eth0:10.36.29.253<0>`",
      })
  void leavesOneMessageWhole(String line) {
    assertThat(RunTogetherLine.messages(line)).isNull();
  }

  /**
   * The reader parses each message of the line, all on line 1, whether the line starts with NCCL's
   * full header (read on its bytes) or without {@code host:pid:tid}.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {JOINED, JOINED_HEADERLESS})
  void theReaderReadsEachMessage(String line) {
    byte[] b = (line + "\n").getBytes(StandardCharsets.ISO_8859_1);
    BlockParser.Result r = BlockParser.parse(b, b.length);
    assertThat(r.lines()).isEqualTo(1);
    assertThat(r.ncclLines()).isEqualTo(1);
    assertThat(r.parsed()).hasSize(5).allSatisfy(p -> assertThat(p.line()).isEqualTo(1));
    List<NcclEvent> events = r.parsed().stream().map(BlockParser.Parsed::event).toList();
    assertThat(events)
        .contains(
            new NcclEvent.Plugin("IB", Outcome.NO_DEVICE),
            new NcclEvent.Plugin("Socket", Outcome.SELECTED));
  }
}
