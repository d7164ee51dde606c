package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.Communicator;
import io.topolens.model.Edge;
import io.topolens.model.Job;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Connection lines NCCL cannot print, found by the fuzzer (docs/fuzzing.md): a rank that is
 * negative or past an int, a channel past MAXCHANNELS, a rank past the size of the communicator the
 * line names. Each is counted malformed with its line, never turned into an edge (a rank of two
 * billion made the report allocate a row per rank).
 */
class DamagedConnectionLinesTest {
  private static final String INIT =
      "h:1:1 [0] NCCL INFO comm 0x5580 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n";
  private static final String GOOD =
      "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n";

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "negative rank (fuzz seed 3 #1615)    | h:1:1 [0] NCCL INFO Channel 01 : -1[0] -> 1[1] via P2P/IPC/read          | 1 | 1",
        "rank past an int (fuzz seed 3 #120)  | h:1:1 [0] NCCL INFO Channel 01/0 : 99999999999[1] -> 1[1] via P2P/IPC     | 1 | 1",
        "channel past MAXCHANNELS             | h:1:1 [0] NCCL INFO Channel 4096/0 : 0[0] -> 1[1] via P2P/IPC           | 1 | 1",
        "channel past an int                  | h:1:1 [0] NCCL INFO Channel 99999999999/0 : 0[0] -> 1[1] via P2P/IPC    | 1 | 1",
        "rank past its comm's nranks          | h:1:1 [0] NCCL INFO Channel 01/0 : 0[0] -> 4096[1] via P2P/IPC comm 0x5580 | 1 | 1",
        "an ordinary line stays an edge       | h:1:1 [0] NCCL INFO Channel 01/0 : 1[1] -> 0[0] via P2P/IPC             | 0 | 2",
      })
  void damagedConnectionIsMalformedNotAnEdge(String name, String line, long malformed, int edges)
      throws IOException {
    Path log = dir.resolve("rank0.log");
    Files.writeString(log, INIT + GOOD + line + "\n", StandardCharsets.UTF_8);

    Job job = new NcclLogReader(1).read(LogInput.expand(List.of(log.toString())));

    assertThat(job.malformed().count()).isEqualTo(malformed);
    if (malformed > 0) {
      assertThat(job.malformed().samples().getFirst().line()).isEqualTo(3);
      assertThat(job.malformed().samples().getFirst().text()).isEqualTo(line.strip());
    }
    List<Edge> all =
        job.communicators().stream().map(Communicator::edges).flatMap(List::stream).toList();
    assertThat(all).hasSize(edges);
    assertThat(all).allMatch(e -> e.from() >= 0 && e.from() < 2 && e.to() >= 0 && e.to() < 2);
  }
}
