package io.topolens.bench;

import io.topolens.nccl.OpenMpiTag;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Strips what launchers and loggers put before a line of nccl-tests output: indentation (markdown,
 * dstack), timestamps (ISO, {@code kubectl --timestamps}, containerd's {@code stdout F}, bracketed
 * or not), Slurm's {@code srun -l} rank label ({@code 13: }) and Open MPI's {@code --tag-output}
 * ({@code [1,0]<stdout>:}). The launcher label names the process that printed the line: each
 * process's output is read as its own stream. Open MPI tags every write, so a line printed in
 * several writes (every nccl-tests result row) carries its tag again inside: those copies are
 * removed ({@link OpenMpiTag}); only lines that start with a tag pay for the search.
 *
 * @param stream the launcher label ({@code srun:13}, {@code mpi:1,0}) or empty
 * @param content the rest of the line, trailing blanks removed
 */
record LinePrefix(String stream, String content) {

  private static final Pattern TIMESTAMP =
      Pattern.compile(
          "^\\[?(?:\\d{4}-\\d{2}-\\d{2}[T ])?\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?"
              + "(?:Z|[+-]\\d{2}:?\\d{2})?(?: UTC)?\\]?(?:\\s+(?:stdout|stderr)\\s+[FP])?(?:[\\s|]+|$)");
  private static final Pattern SRUN = Pattern.compile("^(\\d+):(?: |$)");
  private static final Pattern MPI_TAG = OpenMpiTag.AT_START;

  static LinePrefix strip(String line) {
    String s = line.strip();
    String stream = "";
    String tag = null;
    for (int pass = 0; pass < 6; pass++) {
      String before = s;
      Matcher m = TIMESTAMP.matcher(s);
      if (m.lookingAt()) {
        s = s.substring(m.end());
      }
      m = SRUN.matcher(s);
      if (m.lookingAt()) {
        stream = "srun:" + m.group(1);
        s = s.substring(m.end());
      }
      m = MPI_TAG.matcher(s);
      if (m.lookingAt()) {
        stream = "mpi:" + m.group(1) + "," + m.group(2);
        tag = m.group();
        s = s.substring(m.end());
      }
      s = s.strip();
      if (s.equals(before)) {
        break;
      }
    }
    if (tag != null) {
      s = OpenMpiTag.joinWrites(s, tag).strip();
    }
    return new LinePrefix(stream, s);
  }
}
