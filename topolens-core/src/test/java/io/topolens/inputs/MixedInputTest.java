package io.topolens.inputs;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.bench.BenchRow;
import io.topolens.bench.BenchRun;
import io.topolens.diagnose.Diagnoser;
import io.topolens.model.Transport;
import io.topolens.nccl.NcclLogReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A file with NCCL lines and a results table printed by another tool with only the out-of-place
 * columns (mixed/README.md): its NCCL lines are diagnosed, and the table is one run.
 */
class MixedInputTest {

  private static final String FILE = "mixed/torch-test-out-of-place-only.log";

  @Test
  void nclLinesAreDiagnosedAndTheTableIsARun() {
    Inputs in =
        new InputsReader(new NcclLogReader(1)).read(List.of(Fixtures.path(FILE).toString()));
    assertThat(in.problems()).isEmpty();
    assertThat(in.kinds()).extracting(Inputs.Routed::kind).containsExactly(InputKind.NCCL_TESTS);
    // the log: every NCCL line read, the four GPUs' P2P connections found
    assertThat(in.job().inputs().get(0).ncclLines()).isEqualTo(217);
    assertThat(in.job().ranks()).hasSize(4);
    assertThat(
            in.job().communicators().stream()
                .flatMap(c -> c.edges().stream())
                .map(e -> e.transport())
                .distinct())
        .containsExactly(Transport.P2P);
    assertThat(Diagnoser.standard().diagnose(in.job()).findings())
        .extracting(f -> f.id() + ":" + f.severity().label())
        .containsExactly("env-override:info");
    // the table: one run, 30 sizes, out-of-place only, the measured peak
    assertThat(in.benches()).hasSize(1);
    BenchRun run = in.benches().get(0).runs().get(0);
    assertThat(run.rows()).hasSize(30);
    assertThat(run.rows()).extracting(BenchRow::inPlace).containsOnlyNulls();
    BenchRow last = run.rows().get(29);
    assertThat(last.bytes()).isEqualTo(4294967296L);
    assertThat(last.outOfPlace().busBw()).isEqualTo(362.84);
    assertThat(last.outOfPlace().timeUs()).isEqualTo(17755.8);
  }
}
