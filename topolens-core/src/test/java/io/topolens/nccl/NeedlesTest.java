package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link Needles#ALL} is the filter's own needles, then the needle of each failure text holding
 * none of them: the same list the plain search per text and needle gives.
 */
class NeedlesTest {

  @Test
  void failureTextsJoinAsThePlainSearchSays() {
    List<String> own = Needles.own();
    List<String> expected =
        Stream.concat(
                own.stream(),
                NcclFailureTexts.ALL.stream()
                    .filter(t -> own.stream().noneMatch(t.literal()::contains))
                    .map(NcclFailureTexts.Text::needle)
                    .distinct())
            .toList();

    assertThat(Needles.ALL).isEqualTo(expected);
    assertThat(Needles.ALL.size()).isGreaterThan(own.size() + 100).isLessThan(expected.size() + 1);
  }
}
