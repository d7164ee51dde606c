package io.topolens.present;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The command docs/model-validation.md says generated it is the README's validate-model command, so
 * a data set added to one is added to the other.
 */
class ValidationMarkdownCommandTest {
  @Test
  void theDocumentsCommandIsTheReadmes() throws Exception {
    String readme = Files.readString(Path.of("../README.md"));
    int from = readme.indexOf("./topolens validate-model bench/");
    assertThat(from).isNotNegative();
    int to = readme.indexOf("--out docs/model-validation.md", from);
    assertThat(to).isPositive();
    String command =
        readme
            .substring(from + 2, to + "--out docs/model-validation.md".length())
            .replaceAll("\\s*\\\\\\n\\s*", " ");
    assertThat(command).isEqualTo(ValidationMarkdown.COMMAND);
  }
}
