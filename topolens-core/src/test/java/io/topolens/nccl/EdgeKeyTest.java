package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.Direction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link LocalComm.EdgeKey}'s written-out {@code equals} and hash are the record's own. */
class EdgeKeyTest {
  private record Generated(int from, int to, Direction direction, String detail) {}

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      value = {"0, 1, SEND, P2P/CUMEM", "7, 0, RECEIVE, NET/IB/0", "-1, 2147483647, NONE, NULL"})
  void equalsAndHashAreTheRecordsOwn(int from, int to, Direction direction, String detail) {
    LocalComm.EdgeKey k = new LocalComm.EdgeKey(from, to, direction, detail);

    assertThat(k.hashCode()).isEqualTo(new Generated(from, to, direction, detail).hashCode());
    assertThat(k).isEqualTo(new LocalComm.EdgeKey(from, to, direction, detail));
    assertThat(k).isNotEqualTo(new LocalComm.EdgeKey(from + 1, to, direction, detail));
    assertThat(k).isNotEqualTo(new LocalComm.EdgeKey(from, to + 1, direction, detail));
    assertThat(k).isNotEqualTo(new LocalComm.EdgeKey(from, to, direction, detail + "x"));
  }
}
