package io.topolens.diagnose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.Fixtures;
import io.topolens.inputs.Inputs;
import io.topolens.inputs.InputsReader;
import io.topolens.model.Cluster;
import io.topolens.model.Job;
import io.topolens.nccl.NcclLogReader;
import io.topolens.present.JsonReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rules run on a thread of their own while the JSON report writes the job: the same diagnosis
 * and the same bytes as run one after the other, and a rule's failure thrown where it is asked for.
 */
class DiagnoseAsideTest {

  private static Inputs read(String resource) {
    return new InputsReader(new NcclLogReader(1)).read(List.of(Fixtures.path(resource).toString()));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "fixtures/h200x4/fsdp/sock.log",
        "fixtures/h200x4/fsdp/shm.log",
        "seeds/004-eks-g6e-efa-fallback.log",
        "fixtures/h200x4/verbose/fsdp-coll-subsys.log"
      })
  void givesTheDiagnosisAndTheBytesOfTheSerialRun(String resource) throws IOException {
    Inputs in = read(resource);
    Job job = in.job();
    Diagnosis serial = Diagnoser.standard().diagnose(job, in, List.of(), Cluster.NONE, null);
    Supplier<Diagnosis> aside =
        Diagnoser.standard().diagnoseAside(job, in, List.of(), Cluster.NONE, null);
    ByteArrayOutputStream before = new ByteArrayOutputStream();
    new JsonReport(true).write(serial, before);
    ByteArrayOutputStream after = new ByteArrayOutputStream();
    new JsonReport(true).write(job, aside, after);

    assertThat(aside.get().findings()).isEqualTo(serial.findings()).isNotEmpty();
    assertThat(after.toString()).isEqualTo(before.toString());
  }

  @Test
  void throwsWhatARuleThrew() {
    IllegalStateException thrown = new IllegalStateException("rule broke");
    Rule broken =
        new Rule() {
          @Override
          public String id() {
            return "broken";
          }

          @Override
          public List<Finding> check(Job job) {
            throw thrown;
          }
        };
    Inputs in = read("fixtures/h200x4/fsdp/sock.log");
    Supplier<Diagnosis> aside =
        new Diagnoser(List.of(broken)).diagnoseAside(in.job(), in, List.of(), Cluster.NONE, null);

    assertThatThrownBy(aside::get).isSameAs(thrown);
  }

  @Test
  void leavesNoCompleteDocumentWhenARuleThrew() {
    // the job's part is written before the findings are asked for: a document closed there would
    // parse as a diagnosis without findings, which a reader of stdout takes for a healthy job
    Inputs in = read("fixtures/h200x4/fsdp/sock.log");
    Supplier<Diagnosis> broken =
        () -> {
          throw new IllegalStateException("rule broke");
        };
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    assertThatThrownBy(() -> new JsonReport(true).write(in.job(), broken, out))
        .hasMessage("rule broke");
    assertThat(out.toString()).contains("\"communicators\"");
    assertThatThrownBy(() -> new ObjectMapper().readTree(out.toByteArray()))
        .isInstanceOf(JsonProcessingException.class);
  }
}
