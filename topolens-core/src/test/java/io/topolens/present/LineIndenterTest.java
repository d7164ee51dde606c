package io.topolens.present;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link LineIndenter} writes what Jackson's default pretty printer writes, byte for byte. */
class LineIndenterTest {

  /**
   * Documents nested {@code depth} objects deep, with arrays, empty ones and strings among them.
   */
  @ParameterizedTest(name = "depth {0}")
  @ValueSource(ints = {0, 1, 2, 5, 17, 40})
  void writesTheDefaultPrintersBytes(int depth) throws IOException {
    assertThat(write(LineIndenter.printer(), depth))
        .isEqualTo(write(new DefaultPrettyPrinter(), depth))
        .contains("\"empty\" : { }");
  }

  private static String write(DefaultPrettyPrinter printer, int depth) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
      g.setPrettyPrinter(printer);
      g.writeStartObject();
      for (int d = 0; d < depth; d++) {
        g.writeNumberField("level", d);
        g.writeStringField("text", "é \"quoted\" " + d);
        g.writeArrayFieldStart("list");
        g.writeNumber(d);
        g.writeStartObject();
        g.writeNumberField("inside", d);
        g.writeEndObject();
        g.writeEndArray();
        g.writeArrayFieldStart("none");
        g.writeEndArray();
        g.writeObjectFieldStart("next");
      }
      g.writeObjectFieldStart("empty");
      g.writeEndObject();
      for (int d = 0; d < depth; d++) {
        g.writeEndObject();
        g.writeNullField("after");
      }
      g.writeEndObject();
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
