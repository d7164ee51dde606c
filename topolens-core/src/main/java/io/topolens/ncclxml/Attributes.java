package io.topolens.ncclxml;

import io.topolens.nccl.InputProblem;

/**
 * Typed attribute values with NCCL's conventions: empty means unknown, integers may be written in
 * hex ({@code 0x1}, as newer NCCL writes device ids) or decimal. A value that is not a number where
 * NCCL expects one is an {@link InputProblem} naming the file and line: NCCL itself would refuse
 * the file.
 */
final class Attributes {
  private final XmlTree tree;

  Attributes(XmlTree tree) {
    this.tree = tree;
  }

  Integer integer(XmlNode n, String key) throws InputProblem {
    Long v = longValue(n, key);
    if (v == null) {
      return null;
    }
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw bad(n, key, "out of range");
    }
    return v.intValue();
  }

  Long longValue(XmlNode n, String key) throws InputProblem {
    String v = n.attr(key);
    if (v == null) {
      return null;
    }
    try {
      return parseLong(v);
    } catch (NumberFormatException e) {
      throw bad(n, key, "not a number");
    }
  }

  Double decimal(XmlNode n, String key) throws InputProblem {
    String v = n.attr(key);
    if (v == null) {
      return null;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw bad(n, key, "not a number");
    }
  }

  /** Decimal, or hex with a {@code 0x} prefix, optionally negative. */
  static long parseLong(String v) {
    String s = v.trim();
    boolean negative = s.startsWith("-");
    String digits = negative ? s.substring(1) : s;
    long value =
        digits.startsWith("0x") || digits.startsWith("0X")
            ? Long.parseUnsignedLong(digits.substring(2), 16)
            : Long.parseLong(digits);
    return negative ? -value : value;
  }

  private InputProblem bad(XmlNode n, String key, String why) {
    return new InputProblem(
        tree.evidence(n).file()
            + ":"
            + n.line()
            + ": <"
            + n.name()
            + "> attribute "
            + key
            + "=\""
            + n.attributes().get(key)
            + "\" is "
            + why);
  }
}
