package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The completion scripts load in bash and complete commands and options. */
class CompletionCommandTest {
  @TempDir Path tmp;

  /**
   * Runs {@code script} in a non-interactive bash; its stdout (stderr is dropped: outside a real
   * completion, bash's compopt complains).
   */
  static String bash(String script) throws Exception {
    Process p =
        new ProcessBuilder("bash", "-c", script)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  @Test
  void theBashScriptLoadsAndCompletesCommandsAndOptions() throws Exception {
    CliRun r = CliRun.of("completion", "bash");
    assertThat(r.code()).isZero();
    Path f = tmp.resolve("topolens.bash");
    Files.writeString(f, r.out());
    assertThat(bash("source <(cat " + f + "); complete -p topolens").strip())
        .isEqualTo("complete -o default -F _complete_topolens topolens");
    // what bash offers after "topolens dia" and after "topolens diagnose --jo"
    String offer =
        "source "
            + f
            + "; COMP_WORDS=(topolens %s); COMP_CWORD=%d; COMP_LINE='topolens %s'; COMP_POINT=${#COMP_LINE};"
            + " _complete_topolens; printf '%%s\\n' \"${COMPREPLY[@]}\"";
    assertThat(bash(String.format(offer, "dia", 1, "dia")).lines()).containsExactly("diagnose");
    assertThat(bash(String.format(offer, "diagnose --jo", 2, "diagnose --jo")).lines())
        .containsExactly("--job");
    assertThat(bash(String.format(offer, "lint --format sa", 3, "lint --format sa")).lines())
        .containsExactly("sarif");
  }

  @Test
  void theZshScriptWrapsTheBashOne() {
    CliRun zsh = CliRun.of("completion", "zsh");
    assertThat(zsh.code()).isZero();
    assertThat(zsh.out())
        .startsWith("#compdef topolens\n")
        .contains("autoload -U +X bashcompinit && bashcompinit\n")
        .endsWith(CliRun.of("completion", "bash").out());
  }

  @Test
  void anUnknownShellIsAUsageError() {
    CliRun r = CliRun.of("completion", "fish");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("fish");
  }
}
