package io.topolens.kube.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.Quantity;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Typed reads from a {@link YamlDocument} that turn a wrong type into an {@link InputProblem}
 * naming file:line, and that keep unsubstituted {@code ${NAME}} placeholders as unknown values.
 */
final class Fields {
  private static final Pattern PLACEHOLDER = Pattern.compile(".*\\$\\{?[A-Za-z_][A-Za-z0-9_]*}?.*");

  private final YamlDocument doc;
  private final List<Located<String>> placeholders = new ArrayList<>();

  Fields(YamlDocument doc) {
    this.doc = doc;
  }

  YamlDocument doc() {
    return doc;
  }

  /** The placeholders met so far, with their lines. */
  List<Located<String>> placeholders() {
    return List.copyOf(placeholders);
  }

  static boolean isPlaceholder(String s) {
    return s != null
        && PLACEHOLDER.matcher(s).matches()
        && (s.contains("${") || s.strip().startsWith("$"));
  }

  InputProblem problem(String ptr, String message) {
    return new InputProblem(doc.file() + ":" + doc.line(ptr) + ": " + message);
  }

  boolean has(String ptr) {
    JsonNode n = doc.get(ptr);
    return !n.isMissingNode() && !n.isNull();
  }

  /** A string field; numbers and booleans are rejected where Kubernetes wants a string. */
  String string(String ptr, String what) throws InputProblem {
    JsonNode n = doc.get(ptr);
    if (n.isMissingNode() || n.isNull()) {
      return null;
    }
    if (!n.isTextual()) {
      throw problem(
          ptr,
          what + " must be a string, not " + n.asText() + " (quote it: \"" + n.asText() + "\")");
    }
    return n.asText();
  }

  /** A scalar of any type as text (for values whose type varies across releases). */
  String text(String ptr) {
    JsonNode n = doc.get(ptr);
    return n.isMissingNode() || n.isNull() || n.isContainerNode() ? null : n.asText();
  }

  Located<String> locatedText(String ptr) {
    String t = text(ptr);
    if (t == null) {
      return null;
    }
    if (isPlaceholder(t)) {
      placeholders.add(new Located<>(t, doc.at(ptr)));
      return new Located<>(null, doc.at(ptr));
    }
    return new Located<>(t, doc.at(ptr));
  }

  /** An integer field; a placeholder gives a null value, anything else not an integer fails. */
  Located<Integer> integer(String ptr, String what) throws InputProblem {
    JsonNode n = doc.get(ptr);
    if (n.isMissingNode() || n.isNull()) {
      return null;
    }
    if (n.isTextual() && isPlaceholder(n.asText())) {
      placeholders.add(new Located<>(n.asText(), doc.at(ptr)));
      return new Located<>(null, doc.at(ptr));
    }
    if (!n.isIntegralNumber() || !n.canConvertToInt()) {
      throw problem(ptr, what + " must be an integer, not " + describe(n));
    }
    return new Located<>(n.intValue(), doc.at(ptr));
  }

  Located<Boolean> bool(String ptr, String what) throws InputProblem {
    JsonNode n = doc.get(ptr);
    if (n.isMissingNode() || n.isNull()) {
      return null;
    }
    if (!n.isBoolean()) {
      throw problem(ptr, what + " must be true or false, not " + describe(n));
    }
    return new Located<>(n.booleanValue(), doc.at(ptr));
  }

  /** A quantity (number or string); a placeholder gives a null value. */
  Located<Quantity> quantity(String ptr, String what) throws InputProblem {
    JsonNode n = doc.get(ptr);
    if (n.isMissingNode() || n.isNull()) {
      return null;
    }
    String t = n.asText();
    if (n.isTextual() && isPlaceholder(t)) {
      placeholders.add(new Located<>(t, doc.at(ptr)));
      return new Located<>(null, doc.at(ptr));
    }
    if (n.isContainerNode() || n.isBoolean()) {
      throw problem(ptr, what + " must be a quantity (8, 64Gi, 500m), not " + describe(n));
    }
    return new Located<>(
        Quantity.parse(t)
            .orElseThrow(() -> problem(ptr, what + " is not a Kubernetes quantity: \"" + t + "\"")),
        doc.at(ptr));
  }

  /** The size of the list at {@code ptr}; 0 when absent; a non-list fails. */
  int size(String ptr, String what) throws InputProblem {
    JsonNode n = doc.get(ptr);
    if (n.isMissingNode() || n.isNull()) {
      return 0;
    }
    if (!n.isArray()) {
      throw problem(ptr, what + " must be a list, not " + describe(n));
    }
    return n.size();
  }

  /** The keys of the mapping at {@code ptr}; empty when absent; a non-mapping fails. */
  List<String> keys(String ptr, String what) throws InputProblem {
    JsonNode n = doc.get(ptr);
    if (n.isMissingNode() || n.isNull()) {
      return List.of();
    }
    if (!n.isObject()) {
      throw problem(ptr, what + " must be a mapping, not " + describe(n));
    }
    List<String> keys = new ArrayList<>();
    n.fieldNames().forEachRemaining(keys::add);
    return keys;
  }

  /**
   * A list of strings ({@code command}, {@code args}); a lone string is rejected as Kubernetes
   * does.
   */
  List<String> strings(String ptr, String what) throws InputProblem {
    int n = size(ptr, what);
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      JsonNode v = doc.get(YamlDocument.item(ptr, i));
      if (v.isContainerNode()) {
        throw problem(YamlDocument.item(ptr, i), what + " items must be strings");
      }
      out.add(v.asText());
    }
    return out;
  }

  static String describe(JsonNode n) {
    if (n.isObject()) {
      return "a mapping";
    }
    if (n.isArray()) {
      return "a list";
    }
    return n.isTextual() ? "\"" + n.asText() + "\"" : n.asText();
  }
}
