package io.topolens.kube.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.nccl.InputProblem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobRefTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "trainjob/a | TrainJob a",
        "TrainJobs/a | TrainJob a",
        "pytorchjob.kubeflow.org/b | PyTorchJob b",
        "mpijobs/c | MPIJob c",
        "jobset/d | JobSet d",
        "job/e | Job e",
        "jobs.batch/e | Job e",
      })
  void jobRefsAsKubectlWritesThem(String text, String label) throws InputProblem {
    assertThat(JobRef.parse(text).label()).isEqualTo(label);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "llama | --job llama: expected KIND/NAME, such as trainjob/llama-8b, pytorchjob/NAME, mpijob/NAME, jobset/NAME or job/NAME",
        "deployment/x | --job deployment/x: deployment is not a job kind topolens reads (trainjob, pytorchjob, mpijob, jobset, job)",
      })
  void badJobRefs(String text, String message) {
    assertThatThrownBy(() -> JobRef.parse(text)).hasMessage(message);
  }
}
