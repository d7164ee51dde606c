package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.Job;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Lightning's {@code Multi-processing is handled by Slurm.} is read as the statement it is (a
 * {@link io.topolens.model.SlurmManaged}), not as a rank with no rank and no world size; the ranks
 * Lightning announces stay ranks. Real lines.
 */
class SlurmManagedLineTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // line | statements | ranks announced
        // https://github.com/ashleve/lightning-hydra-template/issues/231
        "`[2021-12-19 17:50:03,095][pytorch_lightning.utilities.distributed][INFO] - Multi-processing"
            + " is handled by Slurm.` | 1 | 0",
        // https://github.com/Lightning-AI/pytorch-lightning/issues/6206
        "`initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4` | 0 | 1",
      })
  void readsTheStatementApartFromRanks(String line, int statements, int ranks, @TempDir Path dir)
      throws IOException {
    Path log = dir.resolve("a.log");
    Files.writeString(log, line + "\n");
    Job job = new NcclLogReader(1).read(LogInput.expand(List.of(log.toString())));
    assertThat(job.slurmManaged()).hasSize(statements);
    assertThat(job.launched()).hasSize(ranks);
    job.slurmManaged().forEach(s -> assertThat(s.evidence().line()).isEqualTo(1));
  }
}
