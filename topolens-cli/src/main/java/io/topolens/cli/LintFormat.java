package io.topolens.cli;

/** What {@code topolens lint} writes: text, its JSON, or SARIF 2.1.0 for code scanning. */
enum LintFormat {
  text,
  json,
  sarif
}
