package io.topolens.inputs;

import io.topolens.nccl.InputProblem;

/**
 * The longest line a YAML input may have. SnakeYAML scans a long scalar in time that grows with the
 * square of its length (a 10 MB line takes a minute); no manifest or configuration has such a line
 * (Kubernetes stores an object of at most 1.5 MiB), so one is reported instead of parsed.
 */
public final class YamlLineLimit {
  /** Characters on one line. */
  public static final int MAX = 1 << 20;

  private YamlLineLimit() {}

  /** Throws naming the file and line of the first line longer than {@link #MAX}. */
  public static void check(String name, CharSequence text) throws InputProblem {
    int line = 1;
    int start = 0;
    for (int i = 0; i <= text.length(); i++) {
      if (i == text.length() || text.charAt(i) == '\n') {
        if (i - start > MAX) {
          throw new InputProblem(
              name
                  + ":"
                  + line
                  + ": a line of "
                  + (i - start)
                  + " characters, more than YAML topolens reads ("
                  + MAX
                  + "); not YAML");
        }
        line++;
        start = i + 1;
      }
    }
  }
}
