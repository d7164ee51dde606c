package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The facts public/nccl-tests/README.md lists for each real public output: collective, ranks, rows,
 * largest size, busbw at it (out-of-place and in-place), the peak, the summary.
 */
class PublicNcclTestsTest {

  private static final String DIR = "public/nccl-tests/";

  /**
   * One line per run. nranks: from complete rank lines (inferred=false) or the table. 014.5's peak
   * is 15.23 GB/s in six rows: ties go to the larger size (the README names the first). 011's 1480
   * is one value of the 1350..1576 the table allows (checked in RankInferenceTest).
   */
  @ParameterizedTest(name = "{0} run {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
"""
001-scatter-perf-2x-p4d-a100-16r-srun-l-nccl-info-efa.txt      |0|SCATTER       |16  |false|29|2147483648 |80.59 |81.09 |80.59 |2147483648 |20.2635|0 OK|COMPLETE
002-scatter-perf-readme-excerpt-srun-prefix-zero-size-rows.txt |0|SCATTER       |16  |true |29|2147483648 |79.20 |79.63 |79.20 |2147483648 |-      |-   |NO_SUMMARY
003-all-reduce-2x-p5-mpirun-tag-prefix-indented.txt            |0|ALL_REDUCE    |16  |true |32|2147483648 |437.79|437.89|437.79|2147483648 |52.9753|0 OK|COMPLETE
004-all-reduce-2x-p4de-srun-prefix-no-summary.txt              |0|ALL_REDUCE    |16  |true |29|2147483648 |78.33 |78.33 |78.33 |2147483648 |-      |-   |NO_SUMMARY
005-all-reduce-2x-p5-srun-prefix-16GB-no-summary.txt           |0|ALL_REDUCE    |16  |true |32|17179869184|487.09|487.26|487.09|17179869184|-      |-   |NO_SUMMARY
006-all-reduce-p5-aws-batch-mpirun-tag-trailing-ws.txt         |0|ALL_REDUCE    |8   |true |32|17179869184|483.05|483.35|483.05|17179869184|156.742|0 OK|COMPLETE
007-all-reduce-p5en-elided-rows.txt                            |0|ALL_REDUCE    |128 |true |3 |17179869184|369.86|369.42|369.86|17179869184|84.0569|0 OK|COMPLETE
008-all-reduce-old-error-col-128r-a100-k8s-elided-ranks.txt    |0|ALL_REDUCE    |128 |true |30|2147483648 |44.74 |44.72 |45.42 |1073741824 |13.0489|0 OK|COMPLETE
009-all-reduce-old-error-col-sharp-lines-interleaved.txt       |0|ALL_REDUCE    |32  |true |31|8589934592 |115.64|115.61|115.64|8589934592 |37.7108|0 OK|COMPLETE
010-all-reduce-gb200-20-racks-1440r-single-rank-line.txt       |0|ALL_REDUCE    |1440|true |6 |17179869184|405.74|404.77|405.74|17179869184|297.808|0 OK|COMPLETE
011-all-reduce-dgx2h-superpod-check0-error-na-indented.txt     |0|ALL_REDUCE    |1480|true |31|8589934592 |81.53 |81.57 |81.53 |8589934592 |16.2513|0 OK|COMPLETE
012-all-reduce-2019-old-error-col-narrow-type-col.txt          |0|ALL_REDUCE    |16  |true |10|536870912  |54.06 |53.74 |54.06 |536870912  |35.3542|0 OK|COMPLETE
013-all-reduce-dgx1-2node-old-error-col.txt                    |0|ALL_REDUCE    |16  |true |30|4294967296 |48.15 |48.07 |48.15 |4294967296 |18.5822|0 OK|COMPLETE
014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt    |0|ALL_REDUCE    |80  |false|10|17179869184|320.54|322.70|344.87|1073741824 |265.631|0 OK|COMPLETE
014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt    |1|ALL_GATHER    |80  |false|10|17179868160|324.29|322.95|324.29|17179868160|218.677|0 OK|COMPLETE
014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt    |2|REDUCE_SCATTER|80  |false|10|17179868160|323.40|321.44|323.40|17179868160|216.683|0 OK|COMPLETE
014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt    |3|ALLTOALL      |80  |false|10|17179868160|50.38 |50.58 |50.54 |8589934080 |47.1472|0 OK|COMPLETE
014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt    |4|SENDRECV      |80  |false|10|17179869184|15.22 |15.23 |15.23 |8589934592 |15.1671|0 OK|COMPLETE
015-multi-collective-v2.17.8-2r-2node-smoke.txt                |0|ALL_REDUCE    |2   |false|5 |536870912  |46.32 |46.46 |46.32 |536870912  |43.6076|0 OK|COMPLETE
015-multi-collective-v2.17.8-2r-2node-smoke.txt                |1|SENDRECV      |2   |false|5 |536870912  |43.57 |43.65 |43.66 |268435456  |42.9182|0 OK|COMPLETE
016-all-reduce-gcp-a3mega-16r-2node.txt                        |0|ALL_REDUCE    |16  |false|31|8589934592 |338.82|337.35|338.82|8589934592 |70.742 |0 OK|COMPLETE
017-all-gather-gke-a3mega-misaligned-columns-zero-rows.txt     |0|ALL_GATHER    |16  |true |31|8589934592 |188.73|188.90|188.73|8589934592 |53.8932|0 OK|COMPLETE
018-all-gather-gke-a3high-check0-na-nccl-info-line.txt         |0|ALL_GATHER    |16  |true |10|536870912  |70.90 |71.35 |70.90 |536870912  |30.9622|0 OK|COMPLETE
019-all-gather-gke-dws-flex-start-indented.txt                 |0|ALL_GATHER    |16  |true |24|8589934592 |328.85|335.67|328.85|8589934592 |120.248|0 OK|COMPLETE
020-all-reduce-dstack-gcp-a4-no-hash-prefix.txt                |0|ALL_REDUCE    |16  |true |11|8589934592 |683.52|679.54|683.52|8589934592 |165.789|0 OK|COMPLETE
021-all-reduce-dstack-nebius-no-hash-prefix-concluded.txt      |0|ALL_REDUCE    |16  |true |31|8589934592 |467.54|468.46|467.54|8589934592 |125.499|0 OK|COMPLETE
027-all-reduce-v2.17.1-gh200-8r-2node-alps-collective-starting.txt|0|ALL_REDUCE |8   |false|25|134217728  |122.57|123.11|122.57|134217728  |19.7866|0 OK|COMPLETE
028-all-reduce-v2.18.2-gh200-2r-2node-version-header-unalign.txt|0|ALL_REDUCE   |2   |false|8 |134217728  |22.86 |22.88 |22.86 |134217728  |14.9966|0 OK|COMPLETE
029-alltoall-sendrecv-v2.17-2r-2node-no-version-line.txt       |0|ALLTOALL      |2   |false|10|17179869184|23.79 |23.72 |23.86 |8589934592 |22.4385|0 OK|COMPLETE
029-alltoall-sendrecv-v2.17-2r-2node-no-version-line.txt       |1|SENDRECV      |2   |false|10|17179869184|23.88 |23.90 |23.89 |4294967296 |22.9403|0 OK|COMPLETE
030-all-gather-2020-old-algbw-no-hash-out-of-bounds-failed.txt |0|ALL_GATHER    |8   |true |1 |4294967296 |129.05|128.84|129.05|4294967296 |128.942|2 FAILED|COMPLETE
031-all-reduce-1024r-aborted-test-nccl-failure.txt             |0|ALL_REDUCE    |1024|true |5 |17179869184|367.29|367.44|367.29|17179869184|-      |-   |ABORTED
032-broadcast-mpi-v2.18.0-2r-one-rtx5090-shared-socket.txt     |0|BROADCAST     |2   |false|9 |67108864   |2.39  |1.78  |3.43  |16777216   |0.8664 |0 OK|COMPLETE
033-gather-2r-2node-a100-pcie-ib-nccl-info-stops-before-max.txt|0|GATHER        |2   |false|85|11408506880|10.91 |10.87 |20.87 |268435456  |-      |-   |ABORTED
034-all-reduce-2r-2node-g4dn-metal-t4-efa-mpirun-tag-nccl-info.txt|0|ALL_REDUCE |2   |false|31|1073741824 |3.11  |3.12  |3.15  |268435456  |1.15327|0 OK|COMPLETE
036-all-reduce-mpi-16r-2node-dell-xe9680-h100-8x400g-ib-mpi-warnings-interleaved.txt|0|ALL_REDUCE|16|false|32|17179869184|469.21|469.10|469.21|17179869184|139.56|0 OK|COMPLETE
037-multi-collective-2x-rtx2080ti-pix-p2p-ns-g2-broadcast-reduce-single-rank-anomaly.txt|0|ALL_REDUCE|2|false|28|1073741824|4.00|4.00|4.00|1073741824|2.05774|0 OK|COMPLETE
037-multi-collective-2x-rtx2080ti-pix-p2p-ns-g2-broadcast-reduce-single-rank-anomaly.txt|1|ALL_GATHER|2|false|28|1073741824|3.79|3.84|3.79|1073741824|1.6651|0 OK|COMPLETE
037-multi-collective-2x-rtx2080ti-pix-p2p-ns-g2-broadcast-reduce-single-rank-anomaly.txt|2|BROADCAST|2|false|28|1073741824|11.09|11.09|11.09|1073741824|5.07658|0 OK|COMPLETE
037-multi-collective-2x-rtx2080ti-pix-p2p-ns-g2-broadcast-reduce-single-rank-anomaly.txt|3|REDUCE|2|false|28|1073741824|11.14|11.13|11.14|1073741824|5.23248|0 OK|COMPLETE
037-multi-collective-2x-rtx2080ti-pix-p2p-ns-g2-broadcast-reduce-single-rank-anomaly.txt|4|REDUCE|1|false|28|1073741824|267.37|5706839.35|267.37|1073741824|202818|0 OK|COMPLETE
037-multi-collective-2x-rtx2080ti-pix-p2p-ns-g2-broadcast-reduce-single-rank-anomaly.txt|5|ALLTOALL|2|false|28|1073741824|4.61|4.73|4.61|1073741824|2.06935|0 OK|COMPLETE
""")
  void readmeFacts(
      String file,
      int run,
      Collective collective,
      int nranks,
      boolean inferred,
      int rows,
      long largest,
      double oopAtLargest,
      double ipAtLargest,
      double peak,
      long peakSize,
      Double avg,
      String oob,
      Completion completion) {
    BenchFile f = Bench.read(DIR + file);
    BenchRun r = f.runs().get(run);
    assertThat(r.collective()).isEqualTo(collective);
    assertThat(r.nranks()).isEqualTo(nranks);
    assertThat(r.nranksInferred()).isEqualTo(inferred);
    assertThat(r.rows()).hasSize(rows);
    assertThat(r.largest().bytes()).isEqualTo(largest);
    assertThat(r.largest().outOfPlace().busBw()).isEqualTo(oopAtLargest);
    assertThat(r.largest().inPlace().busBw()).isEqualTo(ipAtLargest);
    assertThat(r.peak().outOfPlace().busBw()).isEqualTo(peak);
    assertThat(r.peak().bytes()).isEqualTo(peakSize);
    assertThat(r.avgBusBw()).isEqualTo(avg);
    assertThat(r.outOfBounds()).isEqualTo(oob);
    assertThat(r.completion()).isEqualTo(completion);
    assertThat(f.malformedRows()).isZero();
    assertThat(r.row(largest)).isSameAs(r.largest());
  }

  /** Every line is accounted for: lines, NCCL lines, and the few unrecognized ones named. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
001-scatter-perf-2x-p4d-a100-16r-srun-l-nccl-info-efa.txt      |887|735|96|1
009-all-reduce-old-error-col-sharp-lines-interleaved.txt       |49 |0  |2 |1
014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt    |535|0  |0 |5
015-multi-collective-v2.17.8-2r-2node-smoke.txt                |44 |0  |0 |2
018-all-gather-gke-a3high-check0-na-nccl-info-line.txt         |17 |1  |0 |1
020-all-reduce-dstack-gcp-a4-no-hash-prefix.txt                |17 |0  |1 |1
021-all-reduce-dstack-nebius-no-hash-prefix-concluded.txt      |40 |0  |1 |1
027-all-reduce-v2.17.1-gh200-8r-2node-alps-collective-starting.txt|46|0 |0 |1
029-alltoall-sendrecv-v2.17-2r-2node-no-version-line.txt       |50 |0  |0 |2
030-all-gather-2020-old-algbw-no-hash-out-of-bounds-failed.txt |7  |0  |0 |1
031-all-reduce-1024r-aborted-test-nccl-failure.txt             |14 |0  |0 |1
032-broadcast-mpi-v2.18.0-2r-one-rtx5090-shared-socket.txt     |25 |0  |0 |1
033-gather-2r-2node-a100-pcie-ib-nccl-info-stops-before-max.txt|171|74 |0 |1
034-all-reduce-2r-2node-g4dn-metal-t4-efa-mpirun-tag-nccl-info.txt|94|48 |2 |1
035-failed-before-table-cuda-system-not-initialized-h20-mpirun.txt|30|0 |23|1
036-all-reduce-mpi-16r-2node-dell-xe9680-h100-8x400g-ib-mpi-warnings-interleaved.txt|80|1|18|1
037-multi-collective-2x-rtx2080ti-pix-p2p-ns-g2-broadcast-reduce-single-rank-anomaly.txt|252|0|0|6
""")
  void lineAccount(String file, long lines, long nccl, long unrecognized, int runs)
      throws IOException {
    BenchFile f = Bench.read(DIR + file);
    assertThat(f.lines())
        .isEqualTo(Files.readAllLines(io.topolens.Fixtures.path(DIR + file)).size())
        .isEqualTo(lines);
    assertThat(f.ncclLines()).isEqualTo(nccl);
    assertThat(f.unrecognized()).isEqualTo(unrecognized);
    assertThat(f.samples()).hasSize((int) Math.min(unrecognized, 20));
    assertThat(f.runs()).hasSize(runs);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
"""
014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt  |2.17.8|22902|26549638485
028-all-reduce-v2.18.2-gh200-2r-2node-version-header-unalign.txt|2.18.2|23007|-
001-scatter-perf-2x-p4d-a100-16r-srun-l-nccl-info-efa.txt    |-     |21803|-
027-all-reduce-v2.17.1-gh200-8r-2node-alps-collective-starting.txt|-  |-    |-
032-broadcast-mpi-v2.18.0-2r-one-rtx5090-shared-socket.txt   |2.18.0|22907|-
033-gather-2r-2node-a100-pcie-ib-nccl-info-stops-before-max.txt|-   |21605|12703978837
034-all-reduce-2r-2node-g4dn-metal-t4-efa-mpirun-tag-nccl-info.txt|-  |21207|-
036-all-reduce-mpi-16r-2node-dell-xe9680-h100-8x400g-ib-mpi-warnings-interleaved.txt|-|22602|-
""")
  void versionsAndReducedMaxBytes(String file, String tests, Integer nccl, String reduced) {
    BenchRun r = Bench.read(DIR + file).runs().getFirst();
    assertThat(r.testsVersion()).isEqualTo(tests);
    assertThat(r.ncclVersion()).isEqualTo(nccl);
    assertThat(r.parameters().get("reducedMaxBytes")).isEqualTo(reduced);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
028-all-reduce-v2.18.2-gh200-2r-2node-version-header-unalign.txt|nThread=1 nGpus=1 minBytes=1048576 maxBytes=134217728 step=2(factor) warmup iters=1 iters=20 agg iters=1 validation=1 graph=0 unalign=0
008-all-reduce-old-error-col-128r-a100-k8s-elided-ranks.txt    |nThread=1 nGpus=1 minBytes=4 maxBytes=2147483648 step=2(factor) warmup iters=50 iters=50 validation=1
020-all-reduce-dstack-gcp-a4-no-hash-prefix.txt                |nThread=1 nGpus=1 minBytes=8 maxBytes=8589934592 step=2(factor) warmup iters=5 iters=20 agg iters=1 validation=1 graph=0
""")
  void parameterLine(String file, String expected) {
    BenchRun r = Bench.read(DIR + file).runs().getFirst();
    String got =
        String.join(
            " ",
            r.parameters().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    assertThat(got).isEqualTo(expected);
  }

  /** Rank lines: both forms, hosts, bus ids as printed, and the 80 ranks of each 014 run. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
"""
016-all-reduce-gcp-a3mega-16r-2node.txt                   |16|15|0|6740 |ztan-mig-gq73          |7|0000:8c:00|NVIDIA H100 80GB HBM3
008-all-reduce-old-error-col-128r-a100-k8s-elided-ranks.txt|5 |4 |-|37   |nccl-test-128-worker-0 |4|0x9e      |NVIDIA A100-SXM4-80GB
010-all-reduce-gb200-20-racks-1440r-single-rank-line.txt  |1 |1439|0|21082|slurm-gb200-218-073    |3|0x01      |NVIDIA GB200
014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt|80|79|0|-    |-                      |-|-         |NVIDIA H100 80GB HBM3
032-broadcast-mpi-v2.18.0-2r-one-rtx5090-shared-socket.txt |2 |1 |0|3038985|lab                   |0|0000:02:00|NVIDIA GeForce RTX 5090
034-all-reduce-2r-2node-g4dn-metal-t4-efa-mpirun-tag-nccl-info.txt|2|1|0|21  |test-nccl-efa-worker-1 |0|0xf5      |Tesla T4
036-all-reduce-mpi-16r-2node-dell-xe9680-h100-8x400g-ib-mpi-warnings-interleaved.txt|16|15|0|26640|bm-h100-02|7|0000:db:00|NVIDIA H100 80GB HBM3
""")
  void devices(
      String file,
      int count,
      int lastRank,
      Integer group,
      Integer pid,
      String host,
      Integer device,
      String busId,
      String name) {
    List<BenchDevice> d = Bench.read(DIR + file).runs().getFirst().devices();
    assertThat(d).hasSize(count);
    BenchDevice last = d.getLast();
    assertThat(last.rank()).isEqualTo(lastRank);
    assertThat(last.group()).isEqualTo(group);
    if (pid != null) {
      assertThat(last.pid()).isEqualTo(pid);
      assertThat(last.host()).isEqualTo(host);
      assertThat(last.device()).isEqualTo(device);
      assertThat(last.busId()).isEqualTo(busId);
    }
    assertThat(last.name()).isEqualTo(name);
    assertThat(last.evidence().text()).contains("Rank " + (lastRank < 10 ? " " : "") + lastRank);
  }

  /** #wrong as printed: 0, N/A (-c 0, or in-place alltoall/sendrecv), and the old error float. */
  @ParameterizedTest(name = "{0} run {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
"""
011-all-reduce-dgx2h-superpod-check0-error-na-indented.txt |0|N/A  |-|N/A|-
008-all-reduce-old-error-col-128r-a100-k8s-elided-ranks.txt|0|2e-06|-|2e-06|-
018-all-gather-gke-a3high-check0-na-nccl-info-line.txt     |0|N/A  |-|N/A|-
014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt|3|0    |0|N/A|-
014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt|0|0    |0|0  |0
""")
  void wrongColumn(String file, int run, String oop, Long oopCount, String ip, Long ipCount) {
    BenchRow last = Bench.read(DIR + file).runs().get(run).rows().getLast();
    assertThat(last.outOfPlace().wrong()).isEqualTo(oop);
    assertThat(last.outOfPlace().wrongCount()).isEqualTo(oopCount);
    assertThat(last.inPlace().wrong()).isEqualTo(ip);
    assertThat(last.inPlace().wrongCount()).isEqualTo(ipCount);
  }

  /** Where and why a run stopped: the first failure line of an aborted run, the summary. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
031-all-reduce-1024r-aborted-test-nccl-failure.txt            |7 |HCA-128: Test NCCL failure common.cu:1204 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '
030-all-gather-2020-old-algbw-no-hash-out-of-bounds-failed.txt|7 |Avg bus bandwidth    : 128.942
021-all-reduce-dstack-nebius-no-hash-prefix-concluded.txt     |40|Collective test concluded: all_reduce_perf
033-gather-2r-2node-a100-pcie-ib-nccl-info-stops-before-max.txt|171|output stops after the 11408506880 B row; sizes up to 12703978837 B were due (next 11542724608 B)
035-failed-before-table-cuda-system-not-initialized-h20-mpirun.txt|2|gpu: Test CUDA failure common.cu:1030 'system not yet initialized'
032-broadcast-mpi-v2.18.0-2r-one-rtx5090-shared-socket.txt     |24|# Collective test concluded: broadcast_perf_mpi
""")
  void end(String file, long line, String text) {
    BenchRun r = Bench.read(DIR + file).runs().getFirst();
    assertThat(r.end().line()).isEqualTo(line);
    assertThat(r.end().text()).isEqualTo(text);
  }

  /** A run that died after {@code # Using devices}: kept, with no rows, no name and no ranks. */
  @Test
  void failedBeforeTheTable() {
    BenchFile f =
        Bench.read(DIR + "035-failed-before-table-cuda-system-not-initialized-h20-mpirun.txt");
    assertThat(f.runs()).hasSize(1);
    BenchRun r = f.runs().getFirst();
    assertThat(r.collective()).isNull();
    assertThat(r.nranks()).isZero();
    assertThat(r.devices()).isEmpty();
    assertThat(r.rows()).isEmpty();
    assertThat(r.peak()).isNull();
    assertThat(r.largest()).isNull();
    assertThat(r.avgBusBw()).isNull();
    assertThat(r.completion()).isEqualTo(Completion.ABORTED);
    assertThat(r.start().line()).isEqualTo(1);
    assertThat(r.start().text()).isEqualTo("# Using devices");
    assertThat(f.samples().getFirst().text())
        .isEqualTo("--------------------------------------------------------------------------");
  }

  /** Key columns: the root of scatter, -1, no root column in old tables; zero-size rows kept. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
"""
002-scatter-perf-readme-excerpt-srun-prefix-zero-size-rows.txt|float |none|0 |0|0.15
017-all-gather-gke-a3mega-misaligned-columns-zero-rows.txt    |float |none|-1|0|0.30
012-all-reduce-2019-old-error-col-narrow-type-col.txt          |float |sum |- |1048576|192.4
015-multi-collective-v2.17.8-2r-2node-smoke.txt                |double|sum |-1|33554432|837.47
033-gather-2r-2node-a100-pcie-ib-nccl-info-stops-before-max.txt|float |none|0 |134217728|3324.7
""")
  void firstRow(String file, String type, String redop, Integer root, long bytes, double time) {
    BenchRow first = Bench.read(DIR + file).runs().getFirst().rows().getFirst();
    assertThat(first.type()).isEqualTo(type);
    assertThat(first.redop()).isEqualTo(redop);
    assertThat(first.root()).isEqualTo(root);
    assertThat(first.bytes()).isEqualTo(bytes);
    assertThat(first.outOfPlace().timeUs()).isEqualTo(time);
  }
}
