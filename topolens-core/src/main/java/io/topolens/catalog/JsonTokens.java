package io.topolens.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The tokens of a JSON text (RFC 8259, nothing more: no comments, no trailing commas), one at a
 * time as Jackson's streaming parser gives them with its default settings and limits, with the line
 * the reading has reached. The bundled catalogs and the step-time reader's JSON lines are read with
 * it instead of Jackson: Jackson's parser starts {@code BigDecimal} (its class initializer takes 15
 * ms) and a databind {@code ObjectMapper} a tenth of a second, about a third of a small diagnose
 * (docs/performance.md). A text that breaks JSON's grammar is a {@link NotJson} naming the source
 * and the line. Only the first value is read when the caller stops at its end, as Jackson does.
 */
public final class JsonTokens {

  /** Jackson's default limits ({@code StreamReadConstraints}): JsonTokensTest holds them equal. */
  static final int MAX_DEPTH = 1000;

  static final int MAX_NUMBER_LENGTH = 1000;
  static final int MAX_STRING_LENGTH = 20_000_000;
  static final int MAX_NAME_LENGTH = 50_000;

  /** A text that is not JSON, or breaks one of the limits. */
  public static final class NotJson extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    NotJson(String message) {
      super(message);
    }
  }

  /** The kinds of token. */
  public enum Token {
    START_OBJECT,
    END_OBJECT,
    START_ARRAY,
    END_ARRAY,
    FIELD_NAME,
    STRING,
    NUMBER,
    TRUE,
    FALSE,
    NULL,
    END
  }

  private final String resource;
  private final String text;
  private int at;
  private int line = 1;
  private String value;

  /** The closing characters of the containers open, innermost last. */
  private final StringBuilder open = new StringBuilder();

  /** Whether the innermost container has had no element yet. */
  private boolean first;

  /** Whether a field name was read and its value comes next. */
  private boolean valueDue;

  private boolean started;

  public JsonTokens(String resource, String text) {
    this.resource = resource;
    this.text = text;
  }

  static JsonTokens of(String resource, InputStream in) throws IOException {
    return new JsonTokens(resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
  }

  /** The line the reading has reached (1 for the first). */
  public int line() {
    return line;
  }

  /** The text of the last field name, string or number (a number as written). */
  public String text() {
    return value;
  }

  /** The next token; {@link Token#END} once the one value of the text is read. */
  public Token next() {
    skipSpace();
    if (valueDue) {
      valueDue = false;
      return value();
    }
    if (open.isEmpty()) {
      if (!started) {
        started = true;
        return value();
      }
      if (at < text.length()) {
        throw fail("expected the end of the text");
      }
      return Token.END;
    }
    char close = open.charAt(open.length() - 1);
    if (at < text.length() && text.charAt(at) == close) {
      at++;
      open.setLength(open.length() - 1);
      first = false;
      return close == '}' ? Token.END_OBJECT : Token.END_ARRAY;
    }
    if (!first) {
      if (at >= text.length() || text.charAt(at) != ',') {
        throw fail("expected ',' or '" + close + "'");
      }
      at++;
      skipSpace();
    }
    first = false;
    if (close == ']') {
      return value();
    }
    if (at >= text.length() || text.charAt(at) != '"') {
      throw fail("expected a field name");
    }
    value = string();
    if (value.length() > MAX_NAME_LENGTH) {
      throw fail("a field name longer than " + MAX_NAME_LENGTH);
    }
    skipSpace();
    if (at >= text.length() || text.charAt(at) != ':') {
      throw fail("expected ':'");
    }
    at++;
    valueDue = true;
    return Token.FIELD_NAME;
  }

  private Token value() {
    if (at >= text.length()) {
      throw fail("unexpected end of the text");
    }
    char c = text.charAt(at);
    switch (c) {
      case '{', '[' -> {
        at++;
        if (open.length() == MAX_DEPTH) {
          throw fail("nested deeper than " + MAX_DEPTH);
        }
        open.append(c == '{' ? '}' : ']');
        first = true;
        return c == '{' ? Token.START_OBJECT : Token.START_ARRAY;
      }
      case '"' -> {
        value = string();
        if (value.length() > MAX_STRING_LENGTH) {
          throw fail("a string longer than " + MAX_STRING_LENGTH);
        }
        return Token.STRING;
      }
      case 't' -> {
        return word("true", Token.TRUE);
      }
      case 'f' -> {
        return word("false", Token.FALSE);
      }
      case 'n' -> {
        return word("null", Token.NULL);
      }
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          value = number();
          return Token.NUMBER;
        }
        throw fail("unexpected character '" + c + "'");
      }
    }
  }

  private void skipSpace() {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c == '\n') {
        line++;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        return;
      }
      at++;
    }
  }

  private Token word(String w, Token t) {
    if (!text.startsWith(w, at)) {
      throw fail("unexpected character '" + text.charAt(at) + "'");
    }
    at += w.length();
    return t;
  }

  private String number() {
    int start = at;
    if (text.charAt(at) == '-') {
      at++;
    }
    int whole = 1;
    if (at < text.length() && text.charAt(at) == '0') {
      at++;
    } else if ((whole = digits()) == 0) {
      throw fail("expected a digit");
    }
    boolean fraction = false;
    if (at < text.length() && text.charAt(at) == '.') {
      at++;
      fraction = true;
      if (digits() == 0) {
        throw fail("expected a digit after the decimal point");
      }
    }
    if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
      at++;
      if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) {
        at++;
      }
      if (digits() == 0) {
        throw fail("expected a digit in the exponent");
      }
      fraction = true;
    }
    if ((fraction ? at - start : whole) > MAX_NUMBER_LENGTH) {
      throw fail("a number longer than " + MAX_NUMBER_LENGTH);
    }
    return text.substring(start, at);
  }

  private int digits() {
    int start = at;
    while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
      at++;
    }
    return at - start;
  }

  private String string() {
    at++; // the opening quote
    StringBuilder s = null;
    int start = at;
    while (true) {
      if (at >= text.length()) {
        throw fail("unterminated string");
      }
      char c = text.charAt(at);
      if (c == '"') {
        String plain = text.substring(start, at++);
        return s == null ? plain : s.append(plain).toString();
      }
      if (c < 0x20) {
        throw fail("control character in a string");
      }
      if (c != '\\') {
        at++;
        continue;
      }
      if (s == null) {
        s = new StringBuilder();
      }
      s.append(text, start, at);
      if (at + 1 >= text.length()) {
        throw fail("unterminated string");
      }
      char e = text.charAt(at + 1);
      at += 2;
      switch (e) {
        case '"', '\\', '/' -> s.append(e);
        case 'b' -> s.append('\b');
        case 'f' -> s.append('\f');
        case 'n' -> s.append('\n');
        case 'r' -> s.append('\r');
        case 't' -> s.append('\t');
        case 'u' -> {
          if (at + 4 > text.length()) {
            throw fail("bad \\u escape");
          }
          try {
            s.append((char) Integer.parseInt(text, at, at + 4, 16));
          } catch (NumberFormatException x) {
            throw fail("bad \\u escape");
          }
          at += 4;
        }
        default -> throw fail("bad escape \\" + e);
      }
      start = at;
    }
  }

  /** Skips the rest of the container just opened (after START_OBJECT or START_ARRAY). */
  public void skipChildren() {
    int depth = open.length();
    Token t;
    do {
      t = next();
    } while (open.length() >= depth && t != Token.END);
  }

  private NotJson fail(String what) {
    return new NotJson(resource + ":" + line + ": not JSON: " + what);
  }
}
