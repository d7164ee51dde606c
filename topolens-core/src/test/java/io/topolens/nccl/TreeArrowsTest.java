package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code MessageParser.arrows} cuts a tree channel's body as {@code split("->")} did (three parts,
 * trailing empty parts dropped), on the bodies NCCL prints and on damaged ones.
 */
class TreeArrowsTest {

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(
      strings = {
        "2/-1/-1->0->-1", // NCCL 2.7+: children->rank->parent
        "-1->0->1/-1/-1", // older: parent->rank->children
        "-1/-1/-1->3->2",
        "1->2",
        "1->2->",
        "1->2->->",
        "1->2->3->",
        "1->2->3->->",
        "1->2->3->4",
        "1->2->3->x->",
        "->2->3",
        "1->->3",
        "->->",
        "->->x",
        "",
        "1-->2->3",
        "1->>2->3",
        "1 -> 2 -> 3",
        "no arrows",
        "1->2->3-"
      })
  void cutsAsSplitDid(String body) {
    String[] split = body.split("->");
    String[] arrows = MessageParser.arrows(body);
    if (split.length == 3) {
      assertThat(arrows).containsExactly(split);
    } else {
      assertThat(arrows).isNull();
    }
  }
}
