package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * PyTorch's {@code Last error:} alone on its line, NCCL's text on the next (held-out set 7's w06,
 * pytorch issue 150916), read the same wherever the reader's first parse slice ends around them:
 * the two lines are parsed together.
 */
class SliceBoundariesTest {
  @TempDir Path dir;

  private static final String ERROR =
      "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting"
          + " prematurely.\n"
          + "Last error:\n"
          + "socketProgress: Connection closed by remote peer"
          + " ip-172-31-36-217.eu-north-1.compute.internal<59116>\n";

  /** Where the slice's end falls: bytes before the end of {@code Last error:}'s line. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(ints = {-40, -1, 0, 1, 5, 12, 13, 40, 120})
  void lastErrorAndItsTextAreReadTogether(int before) throws Exception {
    int lastErrorEnd = ERROR.indexOf("Last error:\n") + "Last error:\n".length();
    int fillerBytes = NcclLogReader.SLICE - lastErrorEnd + before;
    StringBuilder filler = new StringBuilder();
    while (filler.length() < fillerBytes) {
      int n = Math.min(80, fillerBytes - filler.length());
      filler.append("-".repeat(Math.max(0, n - 1))).append('\n');
    }
    Path alone = dir.resolve("alone.log");
    Path shifted = dir.resolve("shifted.log");
    Files.writeString(alone, ERROR, StandardCharsets.US_ASCII);
    Files.writeString(shifted, filler + ERROR, StandardCharsets.US_ASCII);

    Job one = new NcclLogReader(2).read(LogInput.expand(List.of(alone.toString())));
    Job two = new NcclLogReader(2).read(LogInput.expand(List.of(shifted.toString())));

    assertThat(two.inputs().get(0).ncclLines()).isEqualTo(one.inputs().get(0).ncclLines());
    assertThat(texts(two.warnings())).isNotEmpty().isEqualTo(texts(one.warnings()));
  }

  private static List<String> texts(List<NcclWarning> warnings) {
    return warnings.stream().map(w -> w.kind() + " " + w.message()).toList();
  }
}
