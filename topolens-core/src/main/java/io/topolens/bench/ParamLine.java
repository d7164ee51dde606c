package io.topolens.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parameter line, {@code nThread 1 nGpus 4 minBytes 8 maxBytes 4294967296 step: 2(factor)
 * warmup iters: 1 iters: 20 agg iters: 1 validation: 1 graph: 0 unalign: 0}: names of one or more
 * words (a trailing colon dropped), each followed by its value, which starts with a digit or a
 * sign. Older versions print fewer of them; forks print more; all are kept as printed.
 */
final class ParamLine {
  private ParamLine() {}

  static Map<String, String> parse(String body) {
    Map<String, String> out = new LinkedHashMap<>();
    List<String> name = new ArrayList<>();
    for (String token : body.strip().split("\\s+")) {
      char c = token.charAt(0);
      boolean value = Character.isDigit(c) || ((c == '-' || c == '+') && token.length() > 1);
      if (value && !name.isEmpty()) {
        String key = String.join(" ", name);
        if (key.endsWith(":")) {
          key = key.substring(0, key.length() - 1);
        }
        out.put(key, token);
        name.clear();
      } else {
        name.add(token);
      }
    }
    return out;
  }
}
