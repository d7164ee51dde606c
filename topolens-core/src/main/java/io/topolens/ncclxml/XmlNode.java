package io.topolens.ncclxml;

import java.util.List;
import java.util.Map;

/** One element of an NCCL XML file: its name, attributes in order, children and 1-based line. */
record XmlNode(String name, Map<String, String> attributes, List<XmlNode> children, long line) {

  /** The attribute, or null when absent or empty (NCCL writes {@code ""} for unknown values). */
  String attr(String key) {
    String v = attributes.get(key);
    return v == null || v.isBlank() ? null : v.trim();
  }
}
