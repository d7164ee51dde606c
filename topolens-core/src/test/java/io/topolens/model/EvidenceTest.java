package io.topolens.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Evidence whose text a {@link LineTexts} keeps is the evidence of the same line held as a String:
 * equal, same hash, same text, whether its block is being filled or deflated, and read back alike
 * by threads reading at once (the JSON writer and the rules).
 */
class EvidenceTest {

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      value = {
        "rank0.log, 12, 'node-00012:130:130 [0] NCCL INFO NET/Plugin: Using internal network plugin.'",
        "a.log, 9223372036854775807, ''",
        "b.log, 1, NULL"
      })
  void keptTextIsTheSameEvidence(String file, long line, String text) {
    LineTexts texts = new LineTexts();
    Evidence kept = texts.evidence(file, line, text);
    Evidence plain = new Evidence(file, line, text);

    assertThat(kept).isEqualTo(plain);
    assertThat(plain).isEqualTo(kept);
    assertThat(kept.hashCode()).isEqualTo(plain.hashCode());
    assertThat(kept.text()).isEqualTo(text);
    assertThat(kept.toString()).isEqualTo(plain.toString());
    texts.seal();
    assertThat(kept.text()).as("after its block is deflated").isEqualTo(text);
  }

  /** The record Evidence was, as Jackson writes records: its components in order. */
  private record AsRecord(String file, long line, String text) {}

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      value = {
        "rank0.log, 12, 'node-00012:130:130 [0] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [send] via NET/Socket/0'",
        "node n1, 0, NULL",
        "'a \"quoted\" name', 7, 'tab\there'"
      })
  void writesAndReadsJsonAsTheRecordDid(String file, long line, String text) throws Exception {
    ObjectMapper json = new ObjectMapper();
    String record = json.writeValueAsString(new AsRecord(file, line, text));
    LineTexts texts = new LineTexts();

    assertThat(json.writeValueAsString(new Evidence(file, line, text))).isEqualTo(record);
    assertThat(json.writeValueAsString(texts.evidence(file, line, text))).isEqualTo(record);
    assertThat(json.readValue(record, Evidence.class)).isEqualTo(new Evidence(file, line, text));
  }

  @Test
  void threadsReadBackTheirOwnBlocks() throws Exception {
    LineTexts texts = new LineTexts();
    List<Evidence> kept = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 60_000; i++) {
      String t =
          "node-%05d:%d:%d [%d] NCCL INFO NET/Socket : Using [0]eth0:10.%d.%d.%d<0>"
              .formatted(i / 4, 1000 + i / 4, 2000 + i, i % 4, i % 250, i % 7, i % 13);
      lines.add(t);
      kept.add(texts.evidence("big.log", i + 1, t));
    }
    texts.seal();
    try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
      List<Future<Integer>> readers = new ArrayList<>();
      for (int r = 0; r < 3; r++) {
        int start = r * 7;
        readers.add(
            pool.submit(
                () -> {
                  int read = 0;
                  for (int i = start; i < kept.size(); i += 1 + start % 3) {
                    assertThat(kept.get(i).text()).isEqualTo(lines.get(i));
                    read++;
                  }
                  return read;
                }));
      }
      for (Future<Integer> f : readers) {
        assertThat(f.get()).isPositive();
      }
    }
  }
}
