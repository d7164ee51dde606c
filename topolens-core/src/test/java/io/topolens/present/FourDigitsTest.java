package io.topolens.present;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link FourDigits} writes what {@code BigDecimal} rounding to four digits wrote. */
class FourDigitsTest {

  private static String bigDecimal(double v) {
    return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }

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
    assertThat(FourDigits.of(v)).isEqualTo(expected).isEqualTo(bigDecimal(v));
  }

  @Test
  void agreesWithBigDecimalOnRandomValues() {
    SplittableRandom r = new SplittableRandom(14);
    for (int i = 0; i < 200_000; i++) {
      double v =
          switch (i % 4) {
            case 0 -> r.nextDouble() * Math.pow(10, r.nextInt(-12, 13));
            case 1 -> Double.longBitsToDouble(r.nextLong() & Long.MAX_VALUE);
            case 2 -> r.nextInt(1, 200_000) / 16.0 / Math.pow(10, r.nextInt(0, 6));
            default -> Math.round(r.nextDouble() * 1e6) / 1e5;
          };
      if (Double.isFinite(v)) {
        assertThat(FourDigits.of(v)).as("%s", v).isEqualTo(bigDecimal(v));
        assertThat(FourDigits.of(-v)).as("%s", -v).isEqualTo(bigDecimal(-v));
      }
    }
  }

  @Test
  void writesTheSmallestDoubleInFull() {
    assertThat(FourDigits.of(Double.MIN_VALUE))
        .isEqualTo("0." + "0".repeat(323) + "4941")
        .isEqualTo(bigDecimal(Double.MIN_VALUE));
  }

  @Test
  void refusesWhatBigDecimalRefuses() {
    assertThatThrownBy(() -> FourDigits.of(Double.NaN)).isInstanceOf(NumberFormatException.class);
    assertThatThrownBy(() -> FourDigits.of(Double.POSITIVE_INFINITY))
        .isInstanceOf(NumberFormatException.class);
  }
}
