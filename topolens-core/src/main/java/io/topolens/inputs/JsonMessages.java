package io.topolens.inputs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.CharConversionException;
import java.util.Collection;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What is wrong with a JSON or YAML input in a user's words, from Jackson's exception: which key
 * holds what instead of what (not {@code Cannot deserialize value of type `java.lang.Integer`}),
 * "not UTF-8 text", "empty". Found by the fuzzer (docs/fuzzing.md).
 */
public final class JsonMessages {
  private static final Pattern FROM = Pattern.compile("from (\\w+)(?: value)?");

  private JsonMessages() {}

  public static String plain(JsonProcessingException e) {
    String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    if (e.getCause() instanceof CharConversionException
        || original.contains("CharConversionException")
        || original.startsWith("Invalid UTF-8")) {
      return "not UTF-8 text";
    }
    if (original.startsWith("No content to map due to end-of-input")) {
      return "empty";
    }
    if (e instanceof MismatchedInputException m
        && !(e instanceof UnrecognizedPropertyException)
        && m.getTargetType() != null) {
      String key = key(m);
      return (key.isEmpty() ? "" : key + ": ")
          + "expected "
          + kind(m.getTargetType())
          + ", not "
          + got(m, original);
    }
    return original.lines().findFirst().orElse(original);
  }

  /** The key path of the value, such as {@code instances[0].gpus}. */
  private static String key(JsonMappingException m) {
    StringBuilder sb = new StringBuilder();
    for (JsonMappingException.Reference r : m.getPath()) {
      if (r.getFieldName() != null) {
        sb.append(sb.isEmpty() ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        sb.append('[').append(r.getIndex()).append(']');
      }
    }
    return sb.toString();
  }

  private static String kind(Class<?> type) {
    if (type == String.class) {
      return "text";
    }
    if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
      return "a whole number";
    }
    if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
      return "a number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "a list";
    }
    if (Map.class.isAssignableFrom(type)) {
      return "a mapping";
    }
    return "a mapping (" + type.getSimpleName() + ")";
  }

  private static String got(MismatchedInputException m, String original) {
    if (m instanceof InvalidFormatException f && f.getValue() != null) {
      return "\"" + f.getValue() + "\"";
    }
    Matcher from = FROM.matcher(original);
    if (from.find()) {
      return switch (from.group(1)) {
        case "Array" -> "a list";
        case "Object" -> "a mapping";
        case "Boolean" -> "true or false";
        case "Floating" -> "a fraction";
        case "Integer" -> "a whole number";
        case "String" -> "text";
        default -> from.group(1).toLowerCase(java.util.Locale.ROOT);
      };
    }
    return original.contains("out of range") ? "a number out of range" : "that value";
  }
}
