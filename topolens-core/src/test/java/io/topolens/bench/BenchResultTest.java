package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BenchResultTest {

  /** {@code %6g} counts, N/A, and the old {@code %5.0le} error column (null). */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "-",
      value = {
        "0,0",
        "12,12",
        "999999,999999",
        "1.23457e+06,1234570",
        "1e+06,1000000",
        "2e+07,20000000",
        "N/A,-",
        "5e-07,-",
        "0e+00,-",
        "2e+00,-",
        "1e-06,-"
      })
  void wrongCount(String wrong, Long count) {
    assertThat(new BenchResult(1, 1, 1, wrong).wrongCount()).isEqualTo(count);
  }
}
