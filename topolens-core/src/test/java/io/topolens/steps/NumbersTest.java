package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Numbers#plainDecimal} gives what {@link Double#parseDouble} gives, bit for bit, on the
 * numbers step-time lines print and on random plain decimals, and leaves every other text to the
 * general parser.
 */
class NumbersTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "4.32",
        "3.36",
        "1722",
        "0.1",
        "0.2",
        "0.3",
        ".5",
        "5.",
        "007.250",
        "46.16",
        "3857.31",
        "999999999999999",
        "0.00000000000001",
        "123456789.012345",
        "9007199254740.99",
        "0",
        "0.0"
      })
  void plainDecimalsAsParseDoubleReadsThem(String s) {
    assertThat(Double.doubleToRawLongBits(Numbers.plainDecimal(s)))
        .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(s)));
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5})
  void randomPlainDecimalsAsParseDoubleReadsThem(int seed) {
    Random r = new Random(seed);
    for (int n = 0; n < 100_000; n++) {
      int digits = 1 + r.nextInt(15);
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < digits; i++) {
        b.append((char) ('0' + r.nextInt(10)));
      }
      b.insert(r.nextInt(digits + 1), '.');
      String s = b.toString();
      assertThat(Double.doubleToRawLongBits(Numbers.plainDecimal(s)))
          .as(s)
          .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(s)));
    }
  }

  @ParameterizedTest(name = "`{0}`")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "`1,722` | 1722",
        "`'2307.9654'` | 2307.9654",
        "`1.117136E+01` | 11.17136",
        "` 4.5 ` | 4.5",
        "`1234567890123456` | 1234567890123456",
        "`.` | NaN",
        "`` | NaN",
        "`-1` | NaN",
        "`1.2.3` | NaN",
        "`nan` | NaN",
        "`١٢` | NaN"
      })
  void otherTextIsLeftToTheGeneralParser(String s, double value) {
    assertThat(Numbers.plainDecimal(s)).isNaN();
    assertThat(Double.valueOf(Numbers.parse(s))).isEqualTo(Double.valueOf(value));
  }
}
