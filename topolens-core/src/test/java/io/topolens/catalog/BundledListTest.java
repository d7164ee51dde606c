package io.topolens.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link BundledList} reads the bundled files as Jackson's databind read them before (the records
 * compared whole), and says where a bundled file breaks its shape.
 */
class BundledListTest {
  private static final ObjectMapper DATABIND =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

  private record EnvFile(String about, List<EnvVariable> variables) {}

  private record MeasurementFile(String about, List<Measurement> measurements) {}

  @Test
  void ncclEnvIsWhatDatabindReads() throws IOException {
    try (InputStream in = NcclEnv.class.getResourceAsStream("nccl-env.json")) {
      List<EnvVariable> expected = DATABIND.readValue(in, EnvFile.class).variables();

      assertThat(expected).hasSizeGreaterThan(20);
      assertThat(NcclEnv.bundled().all()).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void measurementsAreWhatDatabindReads() throws IOException {
    try (InputStream in = Measurements.class.getResourceAsStream("measurements.json")) {
      List<Measurement> expected = DATABIND.readValue(in, MeasurementFile.class).measurements();

      assertThat(expected).hasSizeGreaterThan(5);
      assertThat(Measurements.bundled().all()).containsExactlyElementsOf(expected);
      assertThat(Measurements.bundled().get("h200-allreduce-busbw-p2p").value()).isEqualTo(362.84);
    }
  }

  private record BugFile(List<KnownNcclBug> bugs) {}

  @Test
  void knownNcclBugsAreWhatDatabindReads() throws IOException {
    try (InputStream in = KnownNcclBug.class.getResourceAsStream("known-nccl-bugs.json")) {
      List<KnownNcclBug> expected = DATABIND.readValue(in, BugFile.class).bugs();

      assertThat(expected).hasSizeGreaterThan(5);
      assertThat(KnownNcclBug.bundled()).containsExactlyElementsOf(expected);
      assertThat(expected).anyMatch(KnownNcclBug::versionless).anyMatch(KnownNcclBug::gpuSupport);
      assertThat(expected).anyMatch(b -> b.capability() != null);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "bundled-unknown-field.json | bundled-unknown-field.json:4: expected one of the fields",
        "bundled-nested.json        | bundled-nested.json:5: expected severity as text or a number",
        "bundled-no-list.json       | bundled-no-list.json:3: expected variables",
        "no-such.json               | no-such.json missing from the jar"
      })
  void aBrokenBundledFileIsNamedWithItsLine(String resource, String message) {
    assertThatThrownBy(
            () ->
                BundledList.read(
                    BundledListTest.class, resource, "variables", Set.of("name", "severity")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(message);
  }
}
