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

  /**
   * Two keys that differ in their direction alone are equal, and share a hash, exactly when two
   * records of the same fields are: never, for different directions (a null one included).
   */
  @ParameterizedTest(name = "{2} vs {3}")
  @CsvSource(
      nullValues = "NULL",
      value = {
        "0, 1, SEND, RECEIVE, P2P/CUMEM, false",
        "7, 0, RECEIVE, SEND, NET/IB/0, false",
        "3, 3, SEND, NONE, SHM/direct/direct, false",
        "-1, 2147483647, NONE, NULL, NULL, false",
        "0, 1, RECEIVE, RECEIVE, P2P/CUMEM, true",
      })
  void keysThatDifferOnlyInDirectionCompareAsRecordsDo(
      int from, int to, Direction one, Direction other, String detail, boolean equal) {
    LocalComm.EdgeKey a = new LocalComm.EdgeKey(from, to, one, detail);
    LocalComm.EdgeKey b = new LocalComm.EdgeKey(from, to, other, detail);
    Generated ga = new Generated(from, to, one, detail);
    Generated gb = new Generated(from, to, other, detail);

    assertThat(ga.equals(gb)).isEqualTo(equal);
    assertThat(a.equals(b)).isEqualTo(ga.equals(gb));
    assertThat(b.equals(a)).isEqualTo(gb.equals(ga));
    assertThat(a.hashCode() == b.hashCode()).isEqualTo(ga.hashCode() == gb.hashCode());
    assertThat(b.hashCode()).isEqualTo(gb.hashCode());
  }
}
