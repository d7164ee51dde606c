package io.topolens.cli;

import picocli.CommandLine.Option;

/** {@code --format text|json} of the commands whose JSON docs/json.md describes. */
final class JsonFormatOption {

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "text (default) or json (see docs/json.md).")
  Format format;

  boolean json() {
    return format == Format.json;
  }
}
