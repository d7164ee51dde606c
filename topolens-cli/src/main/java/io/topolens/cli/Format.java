package io.topolens.cli;

/** What a command writes on standard output: readable text or JSON. */
enum Format {
  text,
  json
}
