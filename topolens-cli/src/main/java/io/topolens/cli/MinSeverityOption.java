package io.topolens.cli;

import io.topolens.diagnose.Severity;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** {@code --min-severity LEVEL}: which findings a command shows. */
final class MinSeverityOption {

  @Option(
      names = "--min-severity",
      defaultValue = "info",
      paramLabel = "LEVEL",
      description = "Show findings of at least this severity: info (default), warn or error.")
  String minSeverity;

  /** The level asked for, or null after saying on {@code err} that it is not one. */
  Severity parse(PrintWriter err) {
    try {
      return Severity.parse(minSeverity);
    } catch (IllegalArgumentException e) {
      err.println(
          "topolens: --min-severity must be error, warn or info, not \"" + minSeverity + "\"");
      return null;
    }
  }
}
