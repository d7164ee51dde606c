package io.topolens.catalog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A bundled file of the shape {@code {"about": "...", "LIST": [{"field": value, ...}, ...]}} whose
 * entries hold strings and numbers only ({@code nccl-env.json}, {@code measurements.json}), read
 * with Jackson's streaming parser: a databind {@code ObjectMapper} takes a tenth of a second to
 * start, a third of a small diagnose. Each entry comes back as its fields' texts (a number as
 * written); a field other than those named, or a value that is no string or number, is an error in
 * the bundled file.
 */
final class BundledList {
  private static final JsonFactory JSON = new JsonFactory();

  private BundledList() {}

  static List<Map<String, String>> read(
      Class<?> owner, String resource, String list, Set<String> fields) {
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " missing from the jar");
      }
      try (JsonParser p = JSON.createParser(in)) {
        expect(p, p.nextToken() == JsonToken.START_OBJECT, resource, "an object");
        List<Map<String, String>> entries = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          JsonToken value = p.nextToken();
          if (name.equals("about")) {
            expect(p, value == JsonToken.VALUE_STRING, resource, "about as text");
          } else {
            expect(p, name.equals(list) && value == JsonToken.START_ARRAY, resource, list);
            entries = entries(p, resource, fields);
          }
        }
        expect(p, entries != null, resource, list);
        return entries;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Map<String, String>> entries(
      JsonParser p, String resource, Set<String> fields) throws IOException {
    List<Map<String, String>> entries = new ArrayList<>();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
      Map<String, String> entry = new LinkedHashMap<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        expect(p, fields.contains(name), resource, "one of the fields " + fields);
        expect(
            p,
            value == JsonToken.VALUE_STRING || value.isNumeric(),
            resource,
            name + " as text or a number");
        entry.put(name, p.getText());
      }
      entries.add(entry);
    }
    expect(p, t == JsonToken.END_ARRAY, resource, "objects");
    return entries;
  }

  private static void expect(JsonParser p, boolean ok, String resource, String what) {
    if (!ok) {
      throw new IllegalStateException(
          resource + ":" + p.currentLocation().getLineNr() + ": expected " + what);
    }
  }
}
