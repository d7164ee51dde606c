package io.topolens.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.InstanceSpec;
import io.topolens.inputs.Inputs;
import io.topolens.inputs.InputsReader;
import io.topolens.nccl.NcclLogReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Verdicts on the real public nccl-tests outputs (public/nccl-tests/README.md), with the hardware
 * their sources name given as {@code --instance} or {@code --nic-gbps} would give it, and the
 * topology file of the same machine beside them where one was published: the path the run took
 * (from its own NCCL lines), the path the hardware offers, and the grade.
 */
class PublicBenchVerdictTest {
  private static final HardwareCatalog CATALOG = HardwareCatalog.builtIn();
  private static final Expectations EXPECT = new Expectations(CATALOG);
  private static final String NT = "public/nccl-tests/";
  private static final String SMI = "public/smi-topo/";

  /** As {@code topolens bench [--instance TYPE] [--nic-gbps GBPS] FILE [BESIDE]} decides. */
  static List<BenchVerdict> verdicts(String instance, Double nicGbps, String file, String beside) {
    List<String> paths = new ArrayList<>();
    paths.add(Fixtures.path(NT + file).toString());
    if (beside != null) {
      paths.add(Fixtures.path(SMI + beside).toString());
    }
    Inputs in = new InputsReader(new NcclLogReader(2)).read(paths);
    InstanceSpec inst = instance == null ? null : CATALOG.instance(instance).orElseThrow();
    Hardware hw =
        new Hardware(
            inst == null ? null : CATALOG.gpuOf(inst),
            inst,
            nicGbps,
            nicGbps == null ? null : "--nic-gbps");
    return new BenchAnalysis(EXPECT).judge(in, hw);
  }

  @ParameterizedTest(name = "{0} run {5} {1} {2} {3}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
"""
# file | beside | --instance | --nic-gbps | runs | run | test | peak busbw | ran on | offered | grade | ratio % | the sentence has
001-scatter-perf-2x-p4d-a100-16r-srun-l-nccl-info-efa.txt | - | p4d.24xlarge | - | 1 | 0 | scatter_perf | 80.59 | EFA | EFA | UNJUDGED | 161 | this collective's busbw has another bound
003-all-reduce-2x-p5-mpirun-tag-prefix-indented.txt | - | p5.48xlarge | - | 1 | 0 | all_reduce_perf | 437.79 | - | EFA | HEALTHY | 109 | over EFA (assumed: the best path the hardware offers; no NCCL connection lines): 109% of 32 EFA on p5.48xlarge
004-all-reduce-2x-p4de-srun-prefix-no-summary.txt | - | p4de.24xlarge | - | 1 | 0 | all_reduce_perf | 78.33 | - | EFA | HEALTHY | 157 | 157% of 4 EFA on p4de.24xlarge: 400 Gbps = 50 GB/s per node
005-all-reduce-2x-p5-srun-prefix-16GB-no-summary.txt | - | p5.48xlarge | - | 1 | 0 | all_reduce_perf | 487.09 | - | EFA | HEALTHY | 122 | 16 ranks on 2 nodes
006-all-reduce-p5-aws-batch-mpirun-tag-trailing-ws.txt | - | p5.48xlarge | - | 1 | 0 | all_reduce_perf | 483.05 | - | NVLINK | HEALTHY | 107 | 8 ranks on 1 node) over NVLink/NVSwitch (assumed
007-all-reduce-p5en-elided-rows.txt | - | p5en.48xlarge | - | 1 | 0 | all_reduce_perf | 369.86 | - | EFA | HEALTHY | 92 | 128 ranks on 16 nodes
033-gather-2r-2node-a100-pcie-ib-nccl-info-stops-before-max.txt | - | - | 200 | 1 | 0 | gather_perf | 20.87 | IB | IB | UNJUDGED | 83 | NET/IB/1/GDRDMA/Shared, NET/IB/1/GDRDMA on 3 of 3 connections between nodes in the NCCL log). 83% of 200 Gbps = 25 GB/s per node (--nic-gbps)
033-gather-2r-2node-a100-pcie-ib-nccl-info-stops-before-max.txt | 018-1x-a100-pcie-4nic-realigned-tabs-spaces.txt | - | - | 1 | 0 | gather_perf | 20.87 | IB | IB | UNJUDGED | - | Cannot judge: NIC rate unknown (pass --nic-gbps or --instance).
034-all-reduce-2r-2node-g4dn-metal-t4-efa-mpirun-tag-nccl-info.txt | - | - | - | 1 | 0 | all_reduce_perf | 3.15 | EFA | EFA | UNJUDGED | - | over EFA (NET/AWS Libfabric/0 on 4 of 4 connections between nodes in the NCCL log)
035-failed-before-table-cuda-system-not-initialized-h20-mpirun.txt | - | - | - | 1 | 0 | - | 0 | - | - | UNJUDGED | - | No row of nccl-tests completed; nothing to judge.
036-all-reduce-mpi-16r-2node-dell-xe9680-h100-8x400g-ib-mpi-warnings-interleaved.txt | - | - | 3200 | 1 | 0 | all_reduce_perf | 469.21 | - | IB | HEALTHY | 117 | 117% of 3200 Gbps = 400 GB/s per node (--nic-gbps)
008-all-reduce-old-error-col-128r-a100-k8s-elided-ranks.txt | - | - | - | 1 | 0 | all_reduce_perf | 45.42 | - | - | UNJUDGED | - | Not judged: the output lists 5 of its 128 ranks' devices (all on nccl-test-128-worker-0), so the nodes of the run, and the path between them, are unknown
010-all-reduce-gb200-20-racks-1440r-single-rank-line.txt | - | - | - | 1 | 0 | all_reduce_perf | 405.74 | - | - | UNJUDGED | - | the output lists 1 of its 1440 ranks' devices (all on slurm-gb200-218-073)
032-broadcast-mpi-v2.18.0-2r-one-rtx5090-shared-socket.txt | - | - | - | 1 | 0 | broadcast_perf | 3.43 | - | - | UNJUDGED | - | 2 ranks on 1 node). The path is unknown
037-multi-collective-2x-rtx2080ti-pix-p2p-ns-g2-broadcast-reduce-single-rank-anomaly.txt | - | - | - | 6 | 0 | all_reduce_perf | 4.00 | - | - | UNJUDGED | - | The path is unknown
037-multi-collective-2x-rtx2080ti-pix-p2p-ns-g2-broadcast-reduce-single-rank-anomaly.txt | 019-autodl-2x-rtx2080ti-pix-container-and-p2p-p-ns.txt | - | - | 6 | 0 | all_reduce_perf | 4.00 | - | SHM | UNJUDGED | - | over SHM through host memory (assumed: the best path the hardware offers; no NCCL connection lines)
037-multi-collective-2x-rtx2080ti-pix-p2p-ns-g2-broadcast-reduce-single-rank-anomaly.txt | 019-autodl-2x-rtx2080ti-pix-container-and-p2p-p-ns.txt | - | - | 6 | 2 | broadcast_perf | 11.09 | - | SHM | UNJUDGED | - | Cannot judge: GPU model unknown (pass --gpu or --instance).
037-multi-collective-2x-rtx2080ti-pix-p2p-ns-g2-broadcast-reduce-single-rank-anomaly.txt | 019-autodl-2x-rtx2080ti-pix-container-and-p2p-p-ns.txt | - | - | 6 | 4 | reduce_perf | 267.37 | - | - | UNJUDGED | - | (1 GiB, out-of-place, 1 rank on 1 node). One rank moves no data between GPUs
""")
  void verdict(
      String file,
      String beside,
      String instance,
      Double nicGbps,
      int runs,
      int run,
      String test,
      double peak,
      PathKind ranOn,
      PathKind offered,
      Grade grade,
      Long percent,
      String sentenceHas) {
    List<BenchVerdict> vs = verdicts(instance, nicGbps, file, beside);

    assertThat(vs).hasSize(runs);
    BenchVerdict v = vs.get(run);
    assertThat(v.run().collective() == null ? null : v.run().collective().testName())
        .isEqualTo(test);
    assertThat(v.peakBusBw()).isEqualTo(peak);
    assertThat(v.ranOn() == null ? null : v.ranOn().path()).isEqualTo(ranOn);
    assertThat(v.offered()).isEqualTo(offered);
    assertThat(v.grade()).as(v.sentence()).isEqualTo(grade);
    if (percent == null) {
      assertThat(v.ratio()).isNull();
    } else {
      assertThat(Math.round(v.ratio() * 100)).isEqualTo(percent);
    }
    assertThat(v.sentence()).contains(sentenceHas);
    assertThat(v.evidence()).isNotEmpty();
  }

  /**
   * 019 beside the runs of the same machine: topo -m alone offers PCIe P2P (PIX), its topo -p2p
   * block says NS on the pair, so the hint says P2P is blocked and names the matrix row.
   */
  @Test
  void p2pBlockInTheHint() {
    Inputs in =
        new InputsReader(new NcclLogReader(2))
            .read(
                List.of(
                    Fixtures.path(SMI + "019-autodl-2x-rtx2080ti-pix-container-and-p2p-p-ns.txt")
                        .toString()));
    TopologyHint h = BenchAnalysis.topology(in);
    assertThat(h.nvlink()).isFalse();
    assertThat(h.summary()).isEqualTo("PIX between all 1 GPU pair");
    assertThat(h.p2pBlocked())
        .isEqualTo("topo -p2p prop shows NS (not supported) on all 1 GPU pair");
    assertThat(h.evidence()).extracting(e -> e.line()).containsExactly(2L, 3L, 4L, 18L);
  }
}
