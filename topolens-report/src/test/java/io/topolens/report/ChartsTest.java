package io.topolens.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The arithmetic under the charts: number formats, axes, the transport map's shape. */
class ChartsTest {

  @ParameterizedTest
  @CsvSource({"8, 8 B", "1024, 1 KiB", "65536, 64 KiB", "134217728, 128 MiB", "4294967296, 4 GiB"})
  void bytesInBinaryUnits(double bytes, String text) {
    assertThat(Num.bytes(bytes)).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({"362.84, 363", "30.8, 30.8", "3.85, 3.85", "0.0578, 0.0578", "20, 20", "0, 0"})
  void ratesWithThreeSignificantDigits(double v, String text) {
    assertThat(Num.sig(v)).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({"12.0, 12", "12.04, 12", "12.05, 12.1", "0.25, 0.3"})
  void coordinatesWithOneDecimal(double v, String text) {
    assertThat(Num.px(v)).isEqualTo(text);
  }

  @Test
  void logAxisSpansWholeDecadesAroundTheValues() {
    LogAxis y = LogAxis.around(List.of(3.85, 362.84, 0.0), 300, 16, 10, 1);
    assertThat(y.min()).isEqualTo(1);
    assertThat(y.max()).isEqualTo(1000);
    assertThat(y.ticks(Num::sig))
        .extracting(LogAxis.Tick::label)
        .containsExactly("1", "10", "100", "1000");
    assertThat(y.px(1)).isEqualTo("300");
    assertThat(y.px(1000)).isEqualTo("16");
  }

  @Test
  void linearAxisRoundsUpToAOneTwoFiveStep() {
    LinearAxis a = LinearAxis.upTo(70.5, 170, 620);
    assertThat(a.tick()).isEqualTo(20);
    assertThat(a.max()).isEqualTo(80);
    assertThat(a.ticks())
        .extracting(LogAxis.Tick::label)
        .containsExactly("0", "20", "40", "60", "80");
  }

  @ParameterizedTest
  @CsvSource({"22809, 2.28.9", "21903, 2.19.3", "2804, 2.8.4"})
  void ncclVersionCodes(int code, String version) {
    assertThat(Summary.version(code)).isEqualTo(version);
  }

  @Test
  void aSmallJobIsMappedRankByRankWithItsNodeBoundaries() throws Exception {
    Report r = Examples.report(List.of(Examples.example("eks-efa-fallback")), null);
    TransportGrid g = r.maps().get(0);
    assertThat(g.unit()).isEqualTo("rank");
    assertThat(g.labels()).containsExactly("0", "1", "2", "3");
    // rank 0's log only: ranks 1 to 3 have no log, so a node boundary after rank 0
    assertThat(g.boundaries()).containsExactly(1);
    assertThat(g.title()).contains("4 ranks (3 without a log) on 1 node");
    assertThat(g.cells()).extracting(TransportGrid.Cell::path).containsOnly(PathClass.NET_TCP);
  }
}
