package io.topolens.present;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.diagnose.Finding;
import io.topolens.model.Evidence;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The JSON pieces every report writes alike: the pretty document with its schema number, evidence
 * ({@code {file, line, text}}), findings, and numbers that may be missing (written as null).
 */
public final class JsonFields {
  private JsonFields() {}

  /** Evidence's field names, encoded once (a big job's document cites a line per edge). */
  private static final SerializedString FILE = new SerializedString("file");

  private static final SerializedString LINE = new SerializedString("line");
  private static final SerializedString TEXT = new SerializedString("text");

  /** What a document holds after its {@code schema} field. */
  @FunctionalInterface
  public interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  /**
   * Writes one pretty-printed object, {@code {"schema": schema, ...}}, to {@code out}, then a line
   * break, and flushes. The generator can write any value ({@code writeObjectField}).
   */
  public static void document(PrintWriter out, int schema, Body body) {
    try (JsonGenerator g = new ObjectMapper().getFactory().createGenerator(out)) {
      g.setPrettyPrinter(new DefaultPrettyPrinter());
      g.writeStartObject();
      g.writeNumberField("schema", schema);
      body.write(g);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.println();
    out.flush();
  }

  /** One piece of evidence as {@code {"file", "line", "text"}}. */
  public static void evidence(JsonGenerator g, Evidence e) throws IOException {
    g.writeStartObject();
    g.writeFieldName(FILE);
    g.writeString(e.file());
    g.writeFieldName(LINE);
    g.writeNumber(e.line());
    g.writeFieldName(TEXT);
    g.writeString(e.text());
    g.writeEndObject();
  }

  /** The field {@code name}: an array of evidence. */
  public static void evidenceArray(JsonGenerator g, String name, List<Evidence> list)
      throws IOException {
    g.writeArrayFieldStart(name);
    for (Evidence e : list) {
      evidence(g, e);
    }
    g.writeEndArray();
  }

  /** A finding as {@code {id, severity, title, explanation, evidence, fix}}. */
  public static void finding(JsonGenerator g, Finding f) throws IOException {
    g.writeStartObject();
    g.writeStringField("id", f.id());
    g.writeStringField("severity", f.severity().label());
    g.writeStringField("title", f.title());
    g.writeStringField("explanation", f.explanation());
    evidenceArray(g, "evidence", f.evidence());
    g.writeStringField("fix", f.fix());
    g.writeEndObject();
  }

  /** The field {@code name}: the number, or null when there is none. */
  public static void numberOrNull(JsonGenerator g, String name, Integer v) throws IOException {
    if (v == null) {
      g.writeNullField(name);
    } else {
      g.writeNumberField(name, v);
    }
  }

  /** The field {@code name}: the number, or null when there is none. */
  public static void numberOrNull(JsonGenerator g, String name, Double v) throws IOException {
    if (v == null) {
      g.writeNullField(name);
    } else {
      g.writeNumberField(name, v);
    }
  }
}
