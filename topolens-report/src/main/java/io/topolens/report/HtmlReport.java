package io.topolens.report;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.WriterOutput;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a {@link Report} as one HTML file through the precompiled jte templates, which escape
 * every value they print (HTML content type), so a log line holding markup stays text.
 */
public final class HtmlReport {
  private static final TemplateEngine ENGINE = TemplateEngine.createPrecompiled(ContentType.Html);

  public void write(Report report, Writer out) throws IOException {
    ENGINE.render("report.jte", report, new WriterOutput(out));
    out.flush();
  }

  public void write(Report report, Path file) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      write(report, w);
    }
  }

  /** The report as a string (tests). */
  public String render(Report report) {
    java.io.StringWriter w = new java.io.StringWriter();
    try {
      write(report, w);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return w.toString();
  }
}
