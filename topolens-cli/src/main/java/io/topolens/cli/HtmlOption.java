package io.topolens.cli;

import io.topolens.report.HtmlReport;
import io.topolens.report.Report;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --html FILE}: also write the HTML report of what the command read (diagnose, bench,
 * compare).
 */
final class HtmlOption {

  @Option(
      names = "--html",
      paramLabel = "FILE",
      description = "Also write the HTML report of what was read to FILE (see topolens report).")
  Path html;

  /** Whether a report was asked for. */
  boolean wanted() {
    return html != null;
  }

  /** Writes the report where --html says; false after saying on {@code err} why it could not. */
  boolean write(Report.Builder report, PrintWriter err) {
    return write(report.build(), html, err);
  }

  static boolean write(Report report, Path file, PrintWriter err) {
    try {
      new HtmlReport().write(report, file);
      return true;
    } catch (java.nio.file.NoSuchFileException e) {
      err.println("topolens: cannot write " + file + ": no such folder");
      return false;
    } catch (java.nio.file.AccessDeniedException e) {
      err.println("topolens: cannot write " + file + ": permission denied");
      return false;
    } catch (IOException e) {
      err.println("topolens: cannot write " + file + ": " + e.getMessage());
      return false;
    }
  }
}
