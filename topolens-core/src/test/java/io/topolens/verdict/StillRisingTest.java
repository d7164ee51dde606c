package io.topolens.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.bench.BenchRun;
import io.topolens.bench.NcclTestsReader;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whether a sweep that stops short of 256 MiB may still be rising: held-out set 27 l03, four RTX
 * 4090s on a P2P-patched driver (tinygrad/open-gpu-kernel-modules PR 22), flat at 12.57, 12.63 and
 * 12.69 GB/s over 8, 16 and 32 MiB; the same rows cut after 1 MiB still rise (5.94 GB/s at 256 KiB,
 * 10.30 at 1 MiB).
 */
class StillRisingTest {

  private static final String L03 =
      "nccl/heldout/set27/l03-healthy-p2p-direct-four-4090s-patched-driver-2.23.4-all-reduce-perf"
          + "-tinygrad-open-gpu-kernel-modules-pr-22.log";

  private static BenchRun run(Path p) throws InputProblem {
    return new NcclTestsReader().read(p, p.getFileName().toString()).runs().get(0);
  }

  @Test
  void aFlatCurveHasReachedItsPlateau() throws InputProblem {
    assertThat(BenchJudge.stillRising(run(Fixtures.path(L03)))).isFalse();
  }

  @Test
  void aCurveCutWhileRisingMayStillRise(@TempDir Path dir) throws IOException, InputProblem {
    List<String> lines = Files.readAllLines(Fixtures.path(L03));
    int cut = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().startsWith("1048576 ")) {
        cut = i + 1;
      }
    }
    assertThat(cut).isPositive();
    Path shorter = dir.resolve("l03-cut-at-1m.log");
    Files.write(shorter, lines.subList(0, cut));
    assertThat(BenchJudge.stillRising(run(shorter))).isTrue();
  }
}
