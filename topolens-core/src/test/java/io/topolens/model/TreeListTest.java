package io.topolens.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TreeList} reads back the trees a list of {@link Tree} records sorted stably by rank, then
 * channel, held before it: children without the -1 of a missing child, the root's parent -1.
 */
class TreeListTest {

  /** A tree as added: channel, rank, then the tree line's ranks (parent, children). */
  private record Added(int channel, int rank, int[] line) {}

  static Stream<Arguments> trees() {
    int[] root = {-1, 1, 2};
    int[] leaf = {0, -1, -1};
    int[] mid = {0, 3, -1};
    return Stream.of(
        Arguments.of(
            "in order",
            List.of(
                new Added(0, 0, root),
                new Added(1, 0, root),
                new Added(0, 1, mid),
                new Added(1, 1, leaf))),
        Arguments.of(
            "ranks out of order, as hosts' ranks start",
            List.of(
                new Added(0, 2, leaf),
                new Added(1, 2, leaf),
                new Added(0, 0, root),
                new Added(1, 0, root),
                new Added(0, 1, mid))),
        Arguments.of(
            "one rank twice (two parts of a communicator): the first part's tree first",
            List.of(new Added(0, 5, mid), new Added(0, 5, leaf), new Added(1, 5, root))),
        Arguments.of(
            "channels out of order",
            List.of(new Added(3, 0, leaf), new Added(0, 0, root), new Added(2, 0, mid))),
        Arguments.of("none", List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("trees")
  void readsBackTheTreesSortedByRankThenChannel(String name, List<Added> added) {
    for (int expected : new int[] {0, added.size(), 1}) {
      TreeList.Builder b = new TreeList.Builder(expected);
      List<Tree> records = new ArrayList<>();
      for (Added a : added) {
        b.add(a.channel(), a.rank(), a.line());
        List<Integer> children = new ArrayList<>();
        for (int k = 1; k < a.line().length; k++) {
          if (a.line()[k] >= 0) {
            children.add(a.line()[k]);
          }
        }
        records.add(new Tree(a.channel(), a.rank(), a.line()[0], children));
      }
      records.sort(Comparator.comparingInt(Tree::rank).thenComparingInt(Tree::channel));

      assertThat(b.build()).as("expected %d", expected).containsExactlyElementsOf(records);
    }
  }
}
