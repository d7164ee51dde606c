package io.topolens.diagnose;

/** How much a finding matters: errors fail the command (exit 1). */
public enum Severity {
  INFO,
  WARN,
  ERROR;

  /** Parses error/warn/info in any case. */
  public static Severity parse(String s) {
    return valueOf(s.strip().toUpperCase(java.util.Locale.ROOT));
  }

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
