package io.topolens.present;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link StepsReport#seconds} writes seconds with four significant digits, plain. */
class StepsReportSecondsTest {

  @ParameterizedTest
  @CsvSource({
    "0.12846, 0.1285",
    "2.72661, 2.727",
    "0.5, 0.5",
    "2.0, 2",
    "100.0, 100",
    "9999.5, 10000",
    "1.0625, 1.063",
    "12.125, 12.13",
    "0.0001234567, 0.0001235",
    "123456789.0, 123500000",
    "-0.0, 0",
    "-3.14159, -3.142",
    "1.0E-10, 0.0000000001",
  })
  void writesTheRoundedValue(double v, String expected) {
    assertThat(StepsReport.seconds(v)).isEqualTo(expected);
  }

  @Test
  void writesTheSmallestDoubleInFull() {
    assertThat(StepsReport.seconds(Double.MIN_VALUE)).isEqualTo("0." + "0".repeat(323) + "4941");
  }

  @Test
  void refusesWhatIsNotANumber() {
    assertThatThrownBy(() -> StepsReport.seconds(Double.NaN))
        .isInstanceOf(NumberFormatException.class);
    assertThatThrownBy(() -> StepsReport.seconds(Double.POSITIVE_INFINITY))
        .isInstanceOf(NumberFormatException.class);
  }
}
