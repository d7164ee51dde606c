package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The presets' published parameter counts follow from their architecture. */
class ModelPresetsTest {

  @ParameterizedTest
  @CsvSource({
    "llama-3-8b, 8030261248, 32, 4096",
    "Llama-3-8B, 8030261248, 32, 4096",
    "llama-3-70b, 70553706496, 80, 8192",
    "Mistral-7B, 7241732096, 32, 4096",
  })
  void presetsMatchTheirArchitecture(String name, long params, int layers, int hidden) {
    ModelSpec m = ModelPresets.bundled().find(name).orElseThrow();
    assertThat(m.params()).isEqualTo(params);
    assertThat(m.architectureParams()).isEqualTo(params);
    assertThat(m.layers()).isEqualTo(layers);
    assertThat(m.hidden()).isEqualTo(hidden);
    assertThat(m.sources()).isNotEmpty();
  }

  @ParameterizedTest
  @CsvSource({"llama-3-13b", "gpt-2"})
  void unknownPresets(String name) {
    assertThat(ModelPresets.bundled().find(name)).isEmpty();
  }
}
