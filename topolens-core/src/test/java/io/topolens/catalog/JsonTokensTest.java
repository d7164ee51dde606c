package io.topolens.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link JsonTokens} gives the tokens and texts Jackson's streaming parser gives on valid JSON, and
 * refuses what Jackson refuses, naming the line.
 */
class JsonTokensTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{}",
        "[]",
        "{\"a\": []}",
        "{\"a\": {}, \"b\": [{}, [], [[]]]}",
        " { \"a\" : 1 , \"b\" : -0.5e+3, \"c\": 0, \"d\": 12E-2, \"e\": -0 } ",
        "{\"s\": \"x\\\"y\\\\z\\/\\b\\f\\n\\r\\t\\u005f\\u00e9\"}",
        "{\"t\": true, \"f\": false, \"n\": null, \"l\": [\"a\", \"b\", 1, true]}",
        "{\n  \"about\": \"x\",\n  \"l\": [\n    {\"k\": \"caf\u00e9 \u2014 \u00b5s\"}\n  ]\n}\n",
        "\"just a string\"",
        "-12.25"
      })
  void tokensAreJacksons(String json) throws IOException {
    assertThat(ours(json)).isEqualTo(jacksons(json));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{\"a\": 1,}                | 1: not JSON: expected a field name",
        "[1,]                       | 1: not JSON: unexpected character ']'",
        "{\"a\" 1}                  | 1: not JSON: expected ':'",
        "{\"a\": 01}                | 1: not JSON: expected ',' or '}'",
        "{\"a\": 1.}                | 1: not JSON: expected a digit after the decimal point",
        "{\"a\": .5}                | 1: not JSON: unexpected character '.'",
        "{\"a\": +1}                | 1: not JSON: unexpected character '+'",
        "{\"a\": 1e}                | 1: not JSON: expected a digit in the exponent",
        "{\"a\": tru}               | 1: not JSON: unexpected character 't'",
        "{\"a\": \"x\\q\"}          | 1: not JSON: bad escape \\q",
        "{\"a\": \"x\\u12\"}        | 1: not JSON: bad \\u escape",
        "{\"a\": 'x'}               | 1: not JSON: unexpected character '''",
        "{\"a\": [1, 2}             | 1: not JSON: expected ',' or ']'",
        "{\"a\": \"x                  | 1: not JSON: unterminated string",
      })
  void brokenJsonIsRefusedWithItsLine(String json, String message) {
    assertThatThrownBy(() -> ours(json))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("t.json:" + message);
    assertThatThrownBy(() -> jacksons(json)).isInstanceOf(IOException.class);
  }

  @ParameterizedTest
  @MethodSource("brokenLines")
  void theLineIsWhereTheTextBreaks(String json, int line) {
    assertThatThrownBy(() -> ours(json)).hasMessageStartingWith("t.json:" + line + ": not JSON");
    assertThatThrownBy(() -> jacksons(json)).isInstanceOf(IOException.class);
  }

  static Stream<Arguments> brokenLines() {
    return Stream.of(
        Arguments.of("{\n\n  \"a\": [1,\n 2,,]}", 4),
        Arguments.of("{\"a\":\n\"x\ny\"}", 2),
        Arguments.of("{\n\t\r\n/* */ }", 3));
  }

  private static List<String> ours(String json) {
    JsonTokens t = new JsonTokens("t.json", json);
    List<String> tokens = new ArrayList<>();
    for (JsonTokens.Token k = t.next(); k != JsonTokens.Token.END; k = t.next()) {
      tokens.add(
          switch (k) {
            case FIELD_NAME, STRING, NUMBER -> k + " " + t.text();
            default -> k.toString();
          });
    }
    return tokens;
  }

  private static List<String> jacksons(String json) throws IOException {
    List<String> tokens = new ArrayList<>();
    try (JsonParser p = new JsonFactory().createParser(json)) {
      for (JsonToken k = p.nextToken(); k != null; k = p.nextToken()) {
        String name =
            switch (k) {
              case FIELD_NAME -> "FIELD_NAME";
              case VALUE_STRING -> "STRING";
              case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "NUMBER";
              case VALUE_TRUE -> "TRUE";
              case VALUE_FALSE -> "FALSE";
              case VALUE_NULL -> "NULL";
              default -> k.toString();
            };
        tokens.add(
            switch (k) {
              case FIELD_NAME, VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT ->
                  name + " " + p.getText();
              default -> name;
            });
      }
    }
    return tokens;
  }
}
