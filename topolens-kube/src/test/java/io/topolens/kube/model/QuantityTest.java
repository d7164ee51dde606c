package io.topolens.kube.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantityTest {

  @ParameterizedTest
  @CsvSource({
    "64Gi, 68719476736",
    "5120Mi, 5368709120",
    "32000Mi, 33554432000",
    "8, 8",
    "500m, 0.5",
    "1e3, 1000",
    "2G, 2000000000",
    "1.5Gi, 1610612736",
    "0.5, 0.5",
    "+4, 4",
    "100k, 100000"
  })
  void parsesKubernetesQuantities(String text, String value) {
    Quantity q = Quantity.parse(text).orElseThrow();
    assertThat(q.value()).isEqualByComparingTo(new BigDecimal(value));
    assertThat(q.text()).isEqualTo(text);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "two", "64GB", "1 Gi", "Gi", "${GPU_PER_NODE}", "1.2.3"})
  void rejectsWhatIsNotAQuantity(String text) {
    assertThat(Quantity.parse(text)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    "68719476736, 64Gi",
    "5368709120, 5Gi",
    "5242880, 5Mi",
    "1073741824, 1Gi",
    "1000, 1000",
    "1024, 1Ki"
  })
  void writesBytesInTheLargestWholeBinaryUnit(long bytes, String text) {
    assertThat(Quantity.ofBytes(bytes).text()).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({"1, true", "4, true", "0.5, false", "500m, false"})
  void devicesAreWhole(String text, boolean whole) {
    assertThat(Quantity.parse(text).orElseThrow().isWhole()).isEqualTo(whole);
  }
}
