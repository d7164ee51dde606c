package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --version} answers the same, exit 0, whether {@link Main} answers it before picocli loads
 * (the top-level flag alone) or a command's picocli option does.
 */
class VersionTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"--version", "-V", "diagnose --version", "topo -V"})
  void printsTheVersionLine(String command) {
    CliRun r = CliRun.of(command.split(" "));

    assertThat(r.code()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).startsWith("topolens ").contains("dev");
    assertThat(r.out().lines().count()).isEqualTo(1);
  }
}
