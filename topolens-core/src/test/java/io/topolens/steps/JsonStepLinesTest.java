package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.topolens.catalog.JsonTokens;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link JsonStepLines} reads a line's object as Jackson's streaming parser read it before: the
 * same fields, numbers of the same value and convertibility, lists of the same items; the same
 * lines refused.
 */
class JsonStepLinesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"step\": 3, \"step_time\": 0.12846, \"fwd\": 0.04122, \"bwd\": 0.05663}",
        "{\"iteration\": 9223372036854775807, \"iter_time\": 1e-3}",
        "{\"iteration\": 9223372036854775808, \"iter_time\": 12}",
        "{\"step\": -9223372036854775808, \"step_ms\": 1E+2}",
        "{\"step\": -9223372036854775809, \"step_ms\": 100000000000000000000000}",
        "{\"step\": 123456789012345678, \"step_time\": -0, \"x\": -0.0}",
        "{\"step\": 1.5e19, \"step_time\": 1e400, \"iter\": 2.5}",
        "{\"step\": 1, \"step_time\": 0.5, \"step_time\": 0.25}",
        "{\"step\\u005ftime\": 0.5, \"\\\"q\\\"\": \"a\\\\b\", \"e\": \"\\u00e9\"}",
        "{\"steps_s\": [2.5622, 0.096, [1, 2], {\"a\": [3]}, \"x\", null, true], \"n\": {}}",
        "{\"step_times\": [], \"deep\": {\"a\": {\"b\": [[[[{\"c\": 1}]]]]}}}",
        "{ } ",
        "{\"a\": 1} trailing words {\"b\": 2}",
        "{\"a\": 1}}",
      })
  void readsWhatJacksonRead(String json) throws IOException {
    assertThat(ours(json)).isEqualTo(jacksons(json));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"step\": 1, \"step_time\": 0.5,}",
        "{\"step\": 01, \"step_time\": 0.5}",
        "{\"step_time\": .5}",
        "{\"step_time\": NaN}",
        "{'step_time': 0.5}",
        "{step_time: 0.5}",
        "{\"step_time\": 0.5 /* ms */}",
        "{\"step_time\": [1, 2}",
        "{\"step_time\": \"a\tb\"}",
        "{\"x\": {\"y\": [1 2]}, \"step_time\": 1}",
      })
  void refusesWhatJacksonRefused(String json) {
    assertThatThrownBy(() -> ours(json)).isInstanceOf(JsonTokens.NotJson.class);
    assertThatThrownBy(() -> jacksons(json)).isInstanceOf(IOException.class);
  }

  @Test
  void readsEveryObjectOfTheFixturesAsJacksonDid() throws IOException {
    List<String> objects = new ArrayList<>();
    try (Stream<Path> files =
        Stream.of(Path.of("src/test/resources"), Path.of("../examples"), Path.of("../fixtures"))
            .filter(Files::isDirectory)
            .flatMap(JsonStepLinesTest::walk)) {
      for (Path f : files.toList()) {
        String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
        for (String line : text.split("\n")) {
          int open = line.indexOf('{');
          int close = line.lastIndexOf('}');
          if (open >= 0 && close > open) {
            objects.add(line.substring(open, close + 1));
          }
        }
      }
    }
    assertThat(objects).hasSizeGreaterThan(500);
    int read = 0;
    for (String json : objects) {
      Object jackson;
      try {
        jackson = jacksons(json);
        read++;
      } catch (IOException e) {
        assertThatThrownBy(() -> ours(json)).as(json).isInstanceOf(JsonTokens.NotJson.class);
        continue;
      }
      assertThat(ours(json)).as(json).isEqualTo(jackson);
    }
    assertThat(read).isGreaterThan(30);
  }

  private static Stream<Path> walk(Path dir) {
    try {
      return Files.walk(dir).filter(Files::isRegularFile);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** What the step formats see of each field: kind, double value, long convertibility and value. */
  private static Map<String, String> ours(String json) {
    Map<String, JsonStepLines.Value> node = JsonStepLines.object(json);
    if (node == null) {
      return null;
    }
    Map<String, String> seen = new TreeMap<>();
    node.forEach((k, v) -> seen.put(k, describe(v)));
    return seen;
  }

  private static String describe(JsonStepLines.Value v) {
    if (v.isNumber()) {
      return v.asDouble() + (v.canConvertToLong() ? " long " + v.number().longValue() : "");
    }
    if (v.items() != null) {
      return v.items().stream().map(JsonStepLinesTest::describe).toList().toString();
    }
    return "other";
  }

  /** The same, read as before: Jackson's streaming parser and its number types. */
  private static Map<String, String> jacksons(String json) throws IOException {
    try (JsonParser p = new JsonFactory().createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      Map<String, String> seen = new TreeMap<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        seen.put(name, jacksonValue(p, p.nextToken(), true));
      }
      return seen;
    }
  }

  private static String jacksonValue(JsonParser p, JsonToken t, boolean listed) throws IOException {
    if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
      Number n = p.getNumberValue();
      boolean toLong =
          switch (n) {
            case Integer i -> true;
            case Long l -> true;
            case BigInteger b -> b.bitLength() < 64;
            default -> n.doubleValue() >= Long.MIN_VALUE && n.doubleValue() <= Long.MAX_VALUE;
          };
      return n.doubleValue() + (toLong ? " long " + n.longValue() : "");
    }
    if (t == JsonToken.START_ARRAY && listed) {
      List<String> items = new ArrayList<>();
      JsonToken next;
      while ((next = p.nextToken()) != JsonToken.END_ARRAY) {
        items.add(jacksonValue(p, next, false));
      }
      return items.toString();
    }
    p.skipChildren();
    return "other";
  }
}
