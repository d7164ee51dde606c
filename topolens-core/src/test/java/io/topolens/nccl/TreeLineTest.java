package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link TreeLine} reads the plain {@code Trees} lines NCCL prints as {@code
 * MessageParser.treesSlowly} does, and leaves every other form to it.
 */
class TreeLineTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // NCCL 2.7+ (fixtures/h200x4/verbose/fsdp-coll-subsys.log), children->rank->parent
        "Trees [0] 3/-1/-1->2->1 [1] 3/-1/-1->2->1 [2] 3/-1/-1->2->1 | true",
        "Trees [0] -1/-1/-1->3->2 [1] -1/-1/-1->3->2 | true",
        "Trees [0] 2/-1/-1->0->-1 [1] -1/-1/-1->0->1 | true",
        // older, parent->rank->children
        "Trees [0] -1->0->1/-1/-1 [1] -1->0->1/-1/-1 | true",
        "Trees [0] 1->2->3 | true",
        "Trees [0]   7/-1/-1->6->5   [1] 007->6->5 | true",
        // left to the slow reading: it reads them or gives up, as before
        "Trees [0] 3/-1/-1 -> 2 -> 1 | false",
        "Trees [0] +3/-1/-1->2->1 | false",
        "Trees [0] 3/-1/-1->2/4->1 | false",
        "Trees [0] 3/-1/-1->2->1/4 | false",
        "Trees [0] 3/-1/-1->2->1 [1] 3/-1/-1->4->1 | false",
        "Trees [0] 3/-1/-1->2-> | false",
        "Trees [0] 3/-1/-1->2->1-> | false",
        "Trees [0] 1-->2->3 | false",
        "Trees [0] 3/->2->1 | false",
        "Trees [0] 12345678901->2->1 | false",
        "Trees [0] | false",
        "Trees [0 3/-1/-1->2->1 | false",
        "Trees | false",
        "Trees [0] 1/2/3/4/5/6/7/8/9->0->1 | false"
      })
  void readsAsTheSlowReadingDoes(String line, boolean plain) {
    NcclEvent fast = TreeLine.read(line);
    NcclEvent slow = slowly(line);
    if (plain) {
      assertThat(fast).isNotNull();
      assertThat(show(fast)).isEqualTo(show(slow));
    } else {
      assertThat(fast).isNull();
    }
  }

  private static NcclEvent slowly(String line) {
    try {
      return MessageParser.treesSlowly(line);
    } catch (RuntimeException malformed) {
      return NcclEvent.UNRECOGNIZED;
    }
  }

  /** The event with its arrays' contents, which the record's own equals compares by identity. */
  private static String show(NcclEvent e) {
    if (!(e instanceof NcclEvent.Trees t)) {
      return String.valueOf(e);
    }
    List<String> channels = t.channels().stream().map(java.util.Arrays::toString).toList();
    return t.rank() + " " + channels;
  }
}
