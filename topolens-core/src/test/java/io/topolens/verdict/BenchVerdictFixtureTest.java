package io.topolens.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.inputs.Inputs;
import io.topolens.inputs.InputsReader;
import io.topolens.nccl.NcclLogReader;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Verdicts on the real 4 x H200 runs (fixtures/h200x4, NCCL 2.28.9, nccl-tests 2.19.6): P2P over
 * NVSwitch is healthy; SHM and sockets on NVLink-connected GPUs are errors, with or without the
 * topology matrix beside them.
 */
class BenchVerdictFixtureTest {
  private static final Expectations EXPECT = new Expectations(HardwareCatalog.builtIn());

  static List<BenchVerdict> verdicts(String... resources) {
    List<String> paths = Arrays.stream(resources).map(r -> Fixtures.path(r).toString()).toList();
    Inputs in = new InputsReader(new NcclLogReader(2)).read(paths);
    return new BenchAnalysis(EXPECT).judge(in, Hardware.unknown());
  }

  @ParameterizedTest(name = "{0} + {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // file | beside | collective | peak busbw | ran on | offered | grade | ratio % | sentence
        // has
        "ar-p2p.log | - | all_reduce | 362.84 | NVLINK | NVLINK | HEALTHY | 81 | 81% of NVLink 4, 18 links, on NVIDIA H200: 450 GB/s per direction",
        "ar-p2p-g2.log | - | all_reduce | 343.83 | NVLINK | NVLINK | HEALTHY | 76 | Healthy",
        "ag-p2p.log | - | all_gather | 339.79 | NVLINK | NVLINK | HEALTHY | 76 | Healthy",
        "rs-p2p.log | - | reduce_scatter | 348.03 | NVLINK | NVLINK | HEALTHY | 77 | Healthy",
        "ar-ring.log | - | all_reduce | 362.26 | NVLINK | NVLINK | HEALTHY | 81 | Healthy",
        "ar-tree.log | - | all_reduce | 259.44 | NVLINK | NVLINK | BELOW | 58 | Below the 65%",
        "ar-shm.log | smi.txt | all_reduce | 30.8 | SHM | NVLINK | SLOWER_PATH | 48 | nvidia-smi topo -m shows NV18 between all 6 GPU pairs",
        "ar-shm.log | - | all_reduce | 30.8 | SHM | NVLINK | SLOWER_PATH | 48 | the catalog gives NVIDIA H200 NVLink",
        "ag-shm.log | smi.txt | all_gather | -1 | SHM | NVLINK | SLOWER_PATH | -1 | That is SHM through host memory speed",
        "ar-sock.log | smi.txt | all_reduce | -1 | TCP | NVLINK | SLOWER_PATH | -1 | That is TCP sockets speed",
        "ag-sock.log | topo.xml | all_gather | -1 | TCP | NVLINK | SLOWER_PATH | -1 | NCCL topology dump",
      })
  void h200Verdicts(
      String file,
      String beside,
      String collective,
      double peak,
      PathKind ranOn,
      PathKind offered,
      Grade grade,
      int percent,
      String sentenceHas) {
    String dir = "fixtures/h200x4/";
    List<BenchVerdict> vs =
        beside.equals("-") ? verdicts(dir + file) : verdicts(dir + file, dir + beside);

    assertThat(vs).hasSize(1);
    BenchVerdict v = vs.get(0);
    assertThat(v.run().collective().testName()).isEqualTo(collective + "_perf");
    if (peak > 0) {
      assertThat(v.peakBusBw()).isEqualTo(peak);
    }
    assertThat(v.ranOn().path()).isEqualTo(ranOn);
    assertThat(v.offered()).isEqualTo(offered);
    assertThat(v.grade()).as(v.sentence()).isEqualTo(grade);
    if (percent >= 0) {
      assertThat(Math.round(v.ratio() * 100)).isEqualTo(percent);
    }
    assertThat(v.sentence()).contains(sentenceHas);
    assertThat(v.evidence()).isNotEmpty();
  }

  @ParameterizedTest
  @CsvSource({"ar-sock.log, 3.5, 4.0", "ag-sock.log, 3.3, 4.0"})
  void socketPeaksAreSocketSpeed(String file, double low, double high) {
    BenchVerdict v = verdicts("fixtures/h200x4/" + file).get(0);
    assertThat(v.peakBusBw()).isBetween(low, high);
    assertThat(v.sentence()).contains("NET/Socket");
  }
}
