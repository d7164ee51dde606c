package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@link Main}'s table of subcommands, and the command line it builds: only the named subcommand
 * (picocli reflects over each one it is given), all of them where help and completion list them.
 */
class MainTest {

  static List<Arguments> subcommands() {
    return Main.SUBCOMMANDS.entrySet().stream()
        .map(e -> Arguments.of(e.getKey(), e.getValue()))
        .toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("subcommands")
  void eachNameIsTheOneItsCommandAnnotationGives(String name, Class<?> type) {
    assertThat(type.getAnnotation(Command.class).name()).isEqualTo(name);
    assertThat(type.getAnnotation(Command.class).aliases()).isEmpty();
  }

  static List<Arguments> commandLines() {
    List<String> all = List.copyOf(Main.SUBCOMMANDS.keySet());
    return List.of(
        Arguments.of("diagnose examples/h200-p2p", List.of("diagnose")),
        Arguments.of("topo --help", List.of("topo")),
        Arguments.of("validate-model", List.of("validate-model")),
        Arguments.of("help diagnose", all),
        Arguments.of("completion", all),
        Arguments.of("--help", all),
        Arguments.of("", all),
        Arguments.of("diagnos examples/h200-p2p", all));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @MethodSource("commandLines")
  void aCommandLineHoldsTheSubcommandsItCanReach(String args, List<String> expected) {
    String[] split = args.isEmpty() ? new String[0] : args.split(" ");

    Map<String, CommandLine> subs = Main.commandLine(split).getSubcommands();

    assertThat(subs.keySet()).containsExactlyElementsOf(expected);
  }

  @Test
  void helpListsEveryCommandInTheTableOrder() {
    CliRun r = CliRun.of("--help");

    assertThat(r.code()).isZero();
    assertThat(
            r.out().lines().map(String::strip).filter(l -> !l.isEmpty()).map(l -> l.split(" +")[0]))
        .containsSubsequence(Main.SUBCOMMANDS.keySet());
  }
}
