package io.topolens.kube.collect;

import io.topolens.kube.run.RunKind;
import io.topolens.nccl.InputProblem;
import java.util.List;
import java.util.Locale;

/**
 * A job named as kubectl names it: {@code KIND/NAME}, where KIND is a kind, its plural or its
 * plural with its group ({@code trainjob/llama}, {@code pytorchjobs/llama}, {@code
 * jobs.batch/nccl}).
 */
public record JobRef(RunKind kind, String name) {
  private static final List<RunKind> KINDS =
      List.of(
          RunKind.TRAIN_JOB, RunKind.PYTORCH_JOB, RunKind.MPI_JOB, RunKind.JOB_SET, RunKind.JOB);

  public static JobRef parse(String text) throws InputProblem {
    int slash = text.indexOf('/');
    if (slash <= 0 || slash == text.length() - 1 || text.indexOf('/', slash + 1) >= 0) {
      throw new InputProblem(
          "--job "
              + text
              + ": expected KIND/NAME, such as trainjob/llama-8b, pytorchjob/NAME, mpijob/NAME,"
              + " jobset/NAME or job/NAME");
    }
    String kind = text.substring(0, slash).toLowerCase(Locale.ROOT);
    String name = text.substring(slash + 1);
    for (RunKind k : KINDS) {
      String singular = k.kind().toLowerCase(Locale.ROOT);
      if (kind.equals(singular)
          || kind.equals(k.plural())
          || kind.equals(singular + "." + k.group())
          || kind.equals(k.plural() + "." + k.group())) {
        return new JobRef(k, name);
      }
    }
    throw new InputProblem(
        "--job "
            + text
            + ": "
            + text.substring(0, slash)
            + " is not a job kind topolens reads (trainjob, pytorchjob, mpijob, jobset, job)");
  }

  /** {@code TrainJob llama-8b} */
  public String label() {
    return kind.kind() + " " + name;
  }
}
