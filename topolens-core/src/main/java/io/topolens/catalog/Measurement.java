package io.topolens.catalog;

/** A measured number and where it comes from. */
public record Measurement(String id, double value, String unit, String what, String source) {

  /** {@code 362.84 GB/s} */
  public String amount() {
    String v =
        value == Math.rint(value) && Math.abs(value) < 1e15
            ? String.valueOf((long) value)
            : String.valueOf(value);
    return v + " " + unit;
  }

  /** {@code 362.84 GB/s (what; source)} for a finding's text. */
  public String cite() {
    return amount() + " (" + what + "; " + source + ")";
  }
}
