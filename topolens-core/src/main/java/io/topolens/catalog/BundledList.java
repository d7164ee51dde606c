package io.topolens.catalog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A bundled file of the shape {@code {"about": "...", "LIST": [{"field": value, ...}, ...]}} whose
 * entries hold flat values ({@code nccl-env.json}, {@code measurements.json}, {@code
 * known-nccl-bugs.json}), read token by token with Jackson's streaming parser ({@link
 * BundledParser}): a databind {@code ObjectMapper} takes a tenth of a second to start. A field
 * other than those named, or a value of another kind than the method allows, is an error in the
 * bundled file naming its line.
 */
final class BundledList {

  private BundledList() {}

  /** The entries as their fields' texts (a number as written); strings and numbers only. */
  static List<Map<String, String>> read(
      Class<?> owner, String resource, String list, Set<String> fields) {
    List<Map<String, String>> texts = new ArrayList<>();
    for (Map<String, Object> entry : read(owner, resource, list, fields, false)) {
      Map<String, String> text = new LinkedHashMap<>();
      entry.forEach((k, v) -> text.put(k, (String) v));
      texts.add(text);
    }
    return texts;
  }

  /**
   * The entries with their values as texts (a string, or a number as written), {@link Boolean},
   * null, or a {@code List<String>} for a list of strings.
   */
  static List<Map<String, Object>> values(
      Class<?> owner, String resource, String list, Set<String> fields) {
    return read(owner, resource, list, fields, true);
  }

  private static List<Map<String, Object>> read(
      Class<?> owner, String resource, String list, Set<String> fields, boolean flat) {
    return BundledParser.read(
        owner,
        resource,
        p -> {
          expect(p, p.nextToken() == JsonToken.START_OBJECT, resource, "an object");
          List<Map<String, Object>> entries = null;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if (name.equals("about")) {
              expect(p, value == JsonToken.VALUE_STRING, resource, "about as text");
            } else {
              expect(p, name.equals(list) && value == JsonToken.START_ARRAY, resource, list);
              entries = entries(p, resource, fields, flat);
            }
          }
          expect(p, entries != null, resource, list);
          return entries;
        });
  }

  private static List<Map<String, Object>> entries(
      JsonParser p, String resource, Set<String> fields, boolean flat) throws IOException {
    List<Map<String, Object>> entries = new ArrayList<>();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
      Map<String, Object> entry = new LinkedHashMap<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.getText();
        JsonToken value = p.nextToken();
        expect(p, fields.contains(name), resource, "one of the fields " + fields);
        if (value == JsonToken.VALUE_STRING || value.isNumeric()) {
          entry.put(name, p.getText());
        } else if (flat && (value == JsonToken.VALUE_TRUE || value == JsonToken.VALUE_FALSE)) {
          entry.put(name, value == JsonToken.VALUE_TRUE);
        } else if (flat && value == JsonToken.VALUE_NULL) {
          entry.put(name, null);
        } else if (flat && value == JsonToken.START_ARRAY) {
          entry.put(name, strings(p, resource, name));
        } else {
          expect(
              p,
              false,
              resource,
              name
                  + (flat
                      ? " as text, a number, true, false, null or texts"
                      : " as text or a number"));
        }
      }
      entries.add(entry);
    }
    expect(p, t == JsonToken.END_ARRAY, resource, "objects");
    return entries;
  }

  private static List<String> strings(JsonParser p, String resource, String name)
      throws IOException {
    List<String> items = new ArrayList<>();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.VALUE_STRING) {
      items.add(p.getText());
    }
    expect(p, t == JsonToken.END_ARRAY, resource, name + " as a list of texts");
    return Collections.unmodifiableList(items);
  }

  private static void expect(JsonParser p, boolean ok, String resource, String what) {
    if (!ok) {
      throw new IllegalStateException(
          resource + ":" + BundledParser.line(p) + ": expected " + what);
    }
  }
}
