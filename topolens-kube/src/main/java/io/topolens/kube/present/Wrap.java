package io.topolens.kube.present;

import java.io.PrintWriter;

/** Word-wrapping for the text reports. */
final class Wrap {
  static final int WIDTH = 100;

  private Wrap() {}

  /**
   * Prints {@code text} after {@code label}, wrapped, continuation lines indented like the text.
   */
  static void print(PrintWriter out, String label, String text) {
    String indent = " ".repeat(label.length());
    StringBuilder line = new StringBuilder(label);
    int start = label.length();
    for (String word : text.split(" ")) {
      if (line.length() > start && line.length() + 1 + word.length() > WIDTH) {
        out.println(line);
        line = new StringBuilder(indent);
      }
      if (line.length() > indent.length() && !line.toString().equals(label)) {
        line.append(' ');
      }
      line.append(word);
    }
    out.println(line);
  }

  static String clip(String s) {
    return s.length() <= 160 ? s : s.substring(0, 157) + "...";
  }
}
