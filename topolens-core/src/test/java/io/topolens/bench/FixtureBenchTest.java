package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The 4 x H200 runs of fixtures/h200x4 (nccl-tests 2.19.6, NCCL 2.28.9, NCCL_DEBUG=INFO lines
 * interleaved): the peaks the README gives, the rest read from the files.
 */
class FixtureBenchTest {

  private static final String DIR = "fixtures/h200x4/";

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
ar-p2p.log     |ALL_REDUCE    |4|30|362.84|4294967296|4294967296|362.81|116.566|266|217
ar-p2p-g2.log  |ALL_REDUCE    |2|30|343.83|4294967296|4294967296|345.07|104.276|175|128
ag-p2p.log     |ALL_GATHER    |4|30|339.79|4294967296|4294967296|351.21|98.086 |265|216
rs-p2p.log     |REDUCE_SCATTER|4|30|348.03|4294967296|4294967296|345.81|99.5764|264|215
ar-shm.log     |ALL_REDUCE    |4|29|30.80 |8388608   |2147483648|25.81 |11.3786|317|269
ag-shm.log     |ALL_GATHER    |4|29|29.49 |16777216  |2147483648|25.80 |11.0085|170|122
ar-sock.log    |ALL_REDUCE    |4|27|3.85  |536870912 |536870912 |2.76  |1.2639 |191|145
ag-sock.log    |ALL_GATHER    |4|27|3.57  |16777216  |536870912 |3.49  |1.2797 |171|125
ar-ring.log    |ALL_REDUCE    |4|7 |362.26|4294967296|4294967296|363.06|253.847|257|230
ar-tree.log    |ALL_REDUCE    |4|7 |259.44|4294967296|4294967296|260.40|181.302|301|274
ar-p2p-json.log|ALL_REDUCE    |4|6 |353.35|1073741824|1073741824|354.64|243.55 |27 |1
""")
  void runs(
      String file,
      Collective collective,
      int nranks,
      int rows,
      double peak,
      long peakSize,
      long largest,
      double ipAtLargest,
      double avg,
      long lines,
      long ncclLines) {
    BenchFile f = Bench.read(DIR + file);
    assertThat(f.runs()).hasSize(1);
    assertThat(f.lines()).isEqualTo(lines);
    assertThat(f.ncclLines()).isEqualTo(ncclLines);
    assertThat(f.unrecognized()).isZero();
    assertThat(f.malformedRows()).isZero();
    BenchRun r = f.runs().getFirst();
    assertThat(r.collective()).isEqualTo(collective);
    assertThat(r.testsVersion()).isEqualTo("2.19.6");
    assertThat(r.ncclVersion()).isEqualTo(22809);
    assertThat(r.nranks()).isEqualTo(nranks);
    assertThat(r.nranksInferred()).isFalse();
    assertThat(r.devices()).hasSize(nranks);
    assertThat(r.devices()).extracting(BenchDevice::host).containsOnly("vm");
    assertThat(r.devices()).extracting(BenchDevice::name).containsOnly("NVIDIA H200");
    assertThat(r.rows()).hasSize(rows);
    assertThat(r.peak().outOfPlace().busBw()).isEqualTo(peak);
    assertThat(r.peak().bytes()).isEqualTo(peakSize);
    assertThat(r.largest().bytes()).isEqualTo(largest);
    assertThat(r.largest().inPlace().busBw()).isEqualTo(ipAtLargest);
    assertThat(r.avgBusBw()).isEqualTo(avg);
    assertThat(r.outOfBounds()).isEqualTo("0 OK");
    assertThat(r.completion()).isEqualTo(Completion.COMPLETE);
    assertThat(r.end().text()).isEqualTo("# Collective test concluded: " + collective.testName());
    assertThat(r.parameters()).containsEntry("nGpus", Integer.toString(nranks));
  }

  /** The JSON of {@code -J} holds the same rows as the text of the same run, as printed. */
  @Test
  void jsonEqualsTheTextRows() {
    BenchRun text = Bench.read(DIR + "ar-p2p-json.log").runs().getFirst();
    BenchFile jsonFile = Bench.read(DIR + "ar-p2p.json");
    assertThat(jsonFile.runs()).hasSize(1);
    BenchRun json = jsonFile.runs().getFirst();
    assertThat(json.collective()).isEqualTo(Collective.ALL_REDUCE);
    assertThat(json.ncclVersion()).isEqualTo(text.ncclVersion());
    assertThat(json.nranks()).isEqualTo(4);
    assertThat(json.nranksInferred()).isFalse();
    assertThat(json.completion()).isEqualTo(Completion.COMPLETE);
    assertThat(json.outOfBounds()).isEqualTo(text.outOfBounds());
    assertThat(Bench.printed(json.avgBusBw(), 6)).isEqualTo(text.avgBusBw());
    for (String key : List.of("nThread", "nGpus", "minBytes", "maxBytes", "step", "iters")) {
      assertThat(json.parameters().get(key)).as(key).isEqualTo(text.parameters().get(key));
    }
    assertThat(json.devices()).hasSize(1);
    BenchDevice d = json.devices().getFirst();
    BenchDevice t = text.devices().getFirst();
    assertThat(List.of(d.rank(), d.group(), d.pid(), d.device()))
        .isEqualTo(List.of(t.rank(), t.group(), t.pid(), t.device()));
    assertThat(List.of(d.host(), d.busId(), d.name()))
        .isEqualTo(List.of(t.host(), t.busId(), t.name()));
    assertThat(json.rows()).hasSameSizeAs(text.rows());
    for (int i = 0; i < text.rows().size(); i++) {
      BenchRow j = json.rows().get(i);
      BenchRow x = text.rows().get(i);
      assertThat(List.of(j.bytes(), j.count())).isEqualTo(List.of(x.bytes(), x.count()));
      assertThat(List.of(j.type(), j.redop())).isEqualTo(List.of(x.type(), x.redop()));
      assertThat(j.root()).isEqualTo(x.root());
      same(j.outOfPlace(), x.outOfPlace());
      same(j.inPlace(), x.inPlace());
      assertThat(j.evidence().line()).isEqualTo(1);
      assertThat(j.evidence().text()).startsWith("results[" + i + "]");
    }
  }

  private static void same(BenchResult json, BenchResult text) {
    assertThat(Bench.printed(json.timeUs(), 7)).isEqualTo(text.timeUs());
    assertThat(Bench.printed(json.algBw(), 6)).isEqualTo(text.algBw());
    assertThat(Bench.printed(json.busBw(), 6)).isEqualTo(text.busBw());
    assertThat(json.wrong()).isEqualTo(text.wrong());
    assertThat(json.wrongCount()).isEqualTo(0L);
  }

  /** One NCCL log of the public set has a single result row between NCCL lines, no header. */
  @Test
  void headerlessRowAmongNcclLines() {
    BenchFile f =
        Bench.read("nccl/public/010-nccl2x-direct-shared-memory-with-nccl-tests-output.log");
    assertThat(f.ncclLines()).isEqualTo(14);
    assertThat(f.unrecognized()).isZero();
    BenchRun r = f.runs().getFirst();
    assertThat(r.rows()).hasSize(1);
    assertThat(r.collective()).isEqualTo(Collective.ALL_REDUCE);
    assertThat(r.nranks()).isEqualTo(4);
    assertThat(r.nranksInferred()).isTrue();
    assertThat(r.rows().getFirst().root()).isNull();
    assertThat(r.rows().getFirst().inPlace().wrong()).isEqualTo("2e-07");
    assertThat(r.completion()).isEqualTo(Completion.NO_SUMMARY);
  }
}
