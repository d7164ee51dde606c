package io.topolens.catalog;

import io.topolens.catalog.JsonTokens.Token;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A bundled file of the shape {@code {"about": "...", "LIST": [{"field": value, ...}, ...]}} whose
 * entries hold flat values ({@code nccl-env.json}, {@code measurements.json}, {@code
 * known-nccl-bugs.json}), read token by token ({@link JsonTokens}): a databind {@code ObjectMapper}
 * takes a tenth of a second to start, and Jackson's streaming parser starts {@code BigDecimal}, a
 * third of a small diagnose together. A field other than those named, or a value of another kind
 * than the method allows, is an error in the bundled file naming its line.
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
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " missing from the jar");
      }
      JsonTokens p = JsonTokens.of(resource, in);
      expect(p, p.next() == Token.START_OBJECT, resource, "an object");
      List<Map<String, Object>> entries = null;
      while (p.next() == Token.FIELD_NAME) {
        String name = p.text();
        Token value = p.next();
        if (name.equals("about")) {
          expect(p, value == Token.STRING, resource, "about as text");
        } else {
          expect(p, name.equals(list) && value == Token.START_ARRAY, resource, list);
          entries = entries(p, resource, fields, flat);
        }
      }
      expect(p, entries != null, resource, list);
      return entries;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Map<String, Object>> entries(
      JsonTokens p, String resource, Set<String> fields, boolean flat) {
    List<Map<String, Object>> entries = new ArrayList<>();
    Token t;
    while ((t = p.next()) == Token.START_OBJECT) {
      Map<String, Object> entry = new LinkedHashMap<>();
      while (p.next() == Token.FIELD_NAME) {
        String name = p.text();
        Token value = p.next();
        expect(p, fields.contains(name), resource, "one of the fields " + fields);
        if (value == Token.STRING || value == Token.NUMBER) {
          entry.put(name, p.text());
        } else if (flat && (value == Token.TRUE || value == Token.FALSE)) {
          entry.put(name, value == Token.TRUE);
        } else if (flat && value == Token.NULL) {
          entry.put(name, null);
        } else if (flat && value == Token.START_ARRAY) {
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
    expect(p, t == Token.END_ARRAY, resource, "objects");
    return entries;
  }

  private static List<String> strings(JsonTokens p, String resource, String name) {
    List<String> items = new ArrayList<>();
    Token t;
    while ((t = p.next()) == Token.STRING) {
      items.add(p.text());
    }
    expect(p, t == Token.END_ARRAY, resource, name + " as a list of texts");
    return Collections.unmodifiableList(items);
  }

  private static void expect(JsonTokens p, boolean ok, String resource, String what) {
    if (!ok) {
      throw new IllegalStateException(resource + ":" + p.line() + ": expected " + what);
    }
  }
}
