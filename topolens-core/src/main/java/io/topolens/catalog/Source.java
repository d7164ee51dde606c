package io.topolens.catalog;

import java.util.LinkedHashMap;
import java.util.Map;

/** Where a catalog number comes from: a short key, what it says, and its address. */
public record Source(String key, String title, String url) {

  /** A source as the bundled JSON files list it, under its key: {@code "KEY": {title, url}}. */
  public record Entry(String title, String url) {}

  /** {@code KEY (url)} for a line of output. */
  public String cite() {
    return key + " (" + url + ")";
  }

  /** A file's {@code sources} object as sources, in the file's order. */
  public static Map<String, Source> all(Map<String, Entry> entries) {
    Map<String, Source> m = new LinkedHashMap<>();
    entries.forEach((k, v) -> m.put(k, new Source(k, v.title(), v.url())));
    return m;
  }
}
