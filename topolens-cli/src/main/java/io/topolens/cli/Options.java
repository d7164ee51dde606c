package io.topolens.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing of option values shared by commands. */
final class Options {
  private static final Pattern PARAMS =
      Pattern.compile("(\\d+(?:\\.\\d+)?(?:[eE]\\d+)?)\\s*([kKmMbBtT]?)");

  private Options() {}

  /** A parameter count: {@code 8e9}, {@code 8B}, {@code 1.5b}, {@code 125M}, {@code 8000000000}. */
  static double params(String s) {
    Matcher m = PARAMS.matcher(s.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "--params must be a count such as 8e9, 8B or 125M, not \"" + s + "\"");
    }
    double v = Double.parseDouble(m.group(1));
    return switch (m.group(2).toUpperCase(Locale.ROOT)) {
      case "K" -> v * 1e3;
      case "M" -> v * 1e6;
      case "B" -> v * 1e9;
      case "T" -> v * 1e12;
      default -> v;
    };
  }
}
