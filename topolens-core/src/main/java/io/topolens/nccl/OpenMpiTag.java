package io.topolens.nccl;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Open MPI's {@code --tag-output} tag, {@code [jobid,rank]<stdout>:} or {@code <stderr>:}. Open MPI
 * tags every write a process makes, not every line: a line printed in several writes carries the
 * tag again where each later write begins. nccl-tests prints a result row in three writes (size to
 * root, the out-of-place columns, the in-place columns), so under {@code mpirun --tag-output} every
 * row reads {@code [1,0]<stdout>: 8 2 float sum -1[1,0]<stdout>: 85.70 ...}; any line longer than a
 * pipe read can be cut the same way. The writes of one line are joined by removing the later copies
 * of its first tag; a different tag inside a line (another process's write glued to it) is left in
 * place.
 */
public final class OpenMpiTag {
  private OpenMpiTag() {}

  /** The tag at the start of a text: group 1 the job id, group 2 the rank. */
  public static final Pattern AT_START = Pattern.compile("^\\[(\\d+),(\\d+)\\]<std(?:out|err)>:");

  private static final Pattern ANYWHERE = Pattern.compile("\\[\\d+,\\d+\\]<std(?:out|err)>:");

  /** The text that stands in every tag: a cheap test before {@link #joinWrites(String)}. */
  static final String MARK = "]<std";

  /**
   * {@code text} without the copies of {@code tag} that follow it: the rest of the line written
   * after the first write. The same instance when there are none.
   */
  public static String joinWrites(String text, String tag) {
    return text.indexOf(tag) < 0 ? text : text.replace(tag, "");
  }

  /**
   * The line with every copy of its first tag after that tag removed, the tag itself kept where it
   * stands; the same instance when the line holds no tag or only one copy of it.
   */
  public static String joinWrites(String line) {
    Matcher m = ANYWHERE.matcher(line);
    if (!m.find()) {
      return line;
    }
    String tag = m.group();
    int after = m.end();
    if (line.indexOf(tag, after) < 0) {
      return line;
    }
    return line.substring(0, after) + line.substring(after).replace(tag, "");
  }
}
