package io.topolens.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link RankId}'s written-out {@code equals} and {@code hashCode} are what a record of the same
 * components generates: maps keyed by rank iterate in the same order as before.
 */
class RankIdTest {
  private record Generated(String host, long pid, int cudaDev) {}

  private record GeneratedEvidence(String file, long line, String text) {}

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      value = {
        "rank0.log, 12, 'host:1:2 [0] NCCL INFO Channel 00/02 : 0 1'",
        "node n1, 0, NULL",
        "NULL, -7, ''",
        "a.log, 9223372036854775807, x"
      })
  void evidenceEqualsAndHashAreTheRecordsOwn(String file, long line, String text) {
    Evidence e = new Evidence(file, line, text);

    assertThat(e.hashCode()).isEqualTo(new GeneratedEvidence(file, line, text).hashCode());
    assertThat(e).isEqualTo(new Evidence(file, line, text));
    assertThat(e).isNotEqualTo(new Evidence(file, line + 1, text));
    assertThat(e).isNotEqualTo(new Evidence(file + "x", line, text));
    assertThat(e).isNotEqualTo(new Evidence(file, line, text + "x"));
  }

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      value = {
        "gpu-node-0, 4242, 0",
        "ip-10-0-1-17, 123456789012, 7",
        "h, -1, -3",
        "'', 0, 0",
        "NULL, 5, 1",
        "a-very-long-host-name.cluster.local, 9223372036854775807, 2147483647"
      })
  void equalsAndHashAreTheRecordsOwn(String host, long pid, int dev) {
    RankId id = new RankId(host, pid, dev);
    Generated g = new Generated(host, pid, dev);

    assertThat(id.hashCode()).isEqualTo(g.hashCode());
    assertThat(id).isEqualTo(new RankId(host, pid, dev)).isNotEqualTo(g);
    assertThat(id).isNotEqualTo(new RankId(host, pid + 1, dev));
    assertThat(id).isNotEqualTo(new RankId(host, pid, dev + 1));
    assertThat(id).isNotEqualTo(new RankId(host + "x", pid, dev));
  }
}
