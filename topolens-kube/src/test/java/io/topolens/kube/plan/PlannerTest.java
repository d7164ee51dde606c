package io.topolens.kube.plan;

import static io.topolens.kube.plan.Knobs.plan;
import static io.topolens.kube.plan.Knobs.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.Linter;
import io.topolens.kube.manifest.ManifestReader;
import io.topolens.kube.manifest.WorkloadReader;
import io.topolens.kube.model.OffloadMode;
import io.topolens.kube.model.Quantity;
import io.topolens.nccl.InputProblem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlannerTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // knobs | kind name | pods | gpus/pod | efa/pod | memory | cpu | shm | warnings (pods
        // sharing a node)
        "instance=p4d.24xlarge;nodes=4 | TrainJob train-p4d-4x8 | 4 | 8 | 4 | 979Gi | 81 | 64Gi | 0",
        "instance=p5.48xlarge;nodes=2;workload=nccl-tests | MPIJob nccl-tests-p5-2x8 | 2 | 8 | 32 | 1740Gi | 163 | 64Gi | 0",
        "instance=p5en.48xlarge;nodes=2;kind=pytorchjob | PyTorchJob train-p5en-2x8 | 2 | 8 | 16 | 1740Gi | 163 | 64Gi | 0",
        "instance=g6e.12xlarge;nodes=4 | TrainJob train-g6e-4x4 | 4 | 4 | 1 | 326Gi | 40 | 32Gi | 0",
        "instance=g6e.48xlarge;nodes=2;gpusPerPod=4 | TrainJob train-g6e-2x8-split4 | 4 | 4 | 2 | 652Gi | 81 | 32Gi | 1",
        "instance=p4d.24xlarge;nodes=1;gpusPerPod=2 | TrainJob train-p4d-1x8-split2 | 4 | 2 | 1 | 244Gi | 20 | 16Gi | 1",
        "instance=p4d.24xlarge;nodes=1 | TrainJob train-p4d-1x8 | 1 | 8 | 0 | 979Gi | 81 | 64Gi | 0",
        "instance=g5.xlarge;nodes=2 | TrainJob train-g5-2x1 | 2 | 1 | 0 | 13Gi | 3 | 3Gi | 0",
        "instance=g5.48xlarge;nodes=2;network=eni | TrainJob train-g5-2x8 | 2 | 8 | 0 | 652Gi | 163 | 64Gi | 0",
        "instance=p4d.24xlarge;nodes=2;shm=200Gi;name=my-job | TrainJob my-job | 2 | 8 | 4 | 979Gi | 81 | 200Gi | 0",
      })
  void sizesFromTheCatalog(
      String knobs,
      String job,
      int pods,
      int gpus,
      int efa,
      String memory,
      long cpu,
      String shm,
      int warnings)
      throws InputProblem {
    Plan p = plan(knobs);
    assertThat(p.jobKind() + " " + p.name()).isEqualTo(job);
    assertThat(p.summary()).contains(pods + " pod(s) of " + gpus + " GPU(s)");
    assertThat(choice(p, "GPUs per pod")).isEqualTo(String.valueOf(gpus));
    assertThat(
            p.choices().stream()
                .filter(c -> c.field().equals("vpc.amazonaws.com/efa"))
                .map(Choice::value)
                .findFirst()
                .orElse("0"))
        .isEqualTo(String.valueOf(efa));
    assertThat(choice(p, "memory")).isEqualTo(memory);
    assertThat(choice(p, "cpu")).isEqualTo(String.valueOf(cpu));
    assertThat(choice(p, "/dev/shm")).isEqualTo(shm);
    assertThat(p.warnings()).hasSize(warnings);
  }

  @org.junit.jupiter.api.Test
  void eniQuotesTheSeedsMeasuredJobTimesFromTheMeasurements() throws InputProblem {
    Choice network =
        plan("instance=g6e.12xlarge;nodes=4;network=eni").choices().stream()
            .filter(c -> c.field().equals("network"))
            .findFirst()
            .orElseThrow();
    // measurements.json: seed-g6e-eni-job and seed-g6e-efa-job (seed 001)
    assertThat(network.why()).contains("5408.85 s over ENI against 2441.04 s over EFA");
  }

  private static String choice(Plan p, String field) {
    return p.choices().stream()
        .filter(c -> c.field().equals(field))
        .map(Choice::value)
        .findFirst()
        .orElseThrow();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "instance=p9.99xlarge;nodes=2 | unknown instance type p9.99xlarge; the catalog knows p4d.24xlarge, p4de.24xlarge, p5.48xlarge, p5e.48xlarge, p5en.48xlarge, p6-b200.48xlarge, g5.xlarge, g5.8xlarge, g5.12xlarge, g5.24xlarge, g5.48xlarge, g6e.8xlarge, g6e.12xlarge, g6e.24xlarge, g6e.48xlarge, g6.12xlarge, g6.48xlarge (add others with --catalog FILE)",
        "instance=p4d.24xlarge;nodes=0 | --nodes must be at least 1, not 0",
        "instance=p4d.24xlarge;nodes=2;trainerVersion=2.1 | --trainer-version v2.1: plan writes TrainJobs for Kubeflow Trainer v2.2 and later (pod settings in runtimePatches); Trainer v2.1 takes podTemplateOverrides, which plan does not write: upgrade Trainer, or use --kind pytorchjob",
        "instance=p4d.24xlarge;nodes=2;gpusPerPod=3 | --gpus-per-pod 3 does not divide p4d.24xlarge's 8 GPUs (use all, or a divisor of 8)",
        "instance=g6e.12xlarge;nodes=4;gpusPerPod=1 | g6e.12xlarge has 1 EFA for 4 GPUs: a pod of 1 GPU(s) cannot get a whole one, and an EFA device belongs to one pod only; use --gpus-per-pod 4 or more, or --network eni",
        "instance=p4d.24xlarge;nodes=2;gpusPerPod=1 | p4d.24xlarge has 4 EFA for 8 GPUs: a pod of 1 GPU(s) cannot get a whole one, and an EFA device belongs to one pod only; use --gpus-per-pod 2 or more, or --network eni",
        "instance=g5.xlarge;nodes=2;network=efa | g5.xlarge has no EFA; use --network eni or an instance type with EFA",
        "instance=p4d.24xlarge;nodes=2;workload=nccl-tests;kind=pytorchjob | --kind pytorchjob runs torchrun, not MPI: use --kind mpijob (or trainjob) for --workload nccl-tests",
        "instance=p4d.24xlarge;nodes=2;kind=mpijob | --kind mpijob is for --workload nccl-tests; training runs torchrun: use --kind trainjob or pytorchjob",
        "instance=p4d.24xlarge;nodes=2;name=Bad_Name | --name Bad_Name must be lower-case letters, digits and '-', start with a letter and end with a letter or digit, at most 63 characters (it names the job's pods)",
        "instance=p4d.24xlarge;nodes=2;network=fast | unknown network (efa or eni): fast",
        "instance=p4d.24xlarge;nodes=2;gpusPerPod=some | gpusPerPod must be all or a number, not \"some\"",
        "instance=p4d.24xlarge;nodes=2;shm=big | shm must be a quantity such as 64Gi, not \"big\"",
      })
  void requestsThatCannotWorkAreOneLine(String knobs, String message) {
    assertThatThrownBy(() -> plan(knobs)).isInstanceOf(InputProblem.class).hasMessage(message);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "instance=p4d.24xlarge;nodes=4",
        "instance=p4d.24xlarge;nodes=4;kind=pytorchjob",
        "instance=p5.48xlarge;nodes=2;workload=nccl-tests",
        "instance=p5.48xlarge;nodes=2;workload=nccl-tests;kind=trainjob",
        "instance=g6e.12xlarge;nodes=4;zone=us-west-2a;sameZone=true;nodeLabel=pg=training",
        "instance=g5.xlarge;nodes=2;toleration=efa-workload:NoSchedule",
        "instance=p4d.24xlarge;nodes=1;namespace=ml;image=my/image:1;command=python train.py --deepspeed",
      })
  void plansPassTheirOwnLintAndReadBackAsWritten(String knobs) throws Exception {
    Plan p = plan(knobs);
    String yaml = p.yaml();
    List<JsonNode> back = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
      it.forEachRemaining(back::add);
    }
    assertThat(back.toString())
        .isEqualTo(p.documents().stream().map(d -> d.toJson()).toList().toString());
    for (Choice c : p.choices()) {
      assertThat(c.why()).isNotBlank();
    }
    var docs = new ManifestReader().parse("plan.yaml", yaml.getBytes(StandardCharsets.UTF_8));
    var read = new WorkloadReader().read(docs);
    assertThat(read.problems()).isEmpty();
    List<Finding> findings = Linter.standard().lint(read.workloads(), LintContext.defaults());
    assertThat(findings).filteredOn(f -> f.severity() != Severity.INFO).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({"p4d.24xlarge, 2, 2", "p4d.24xlarge, 1, 4", "g6e.48xlarge, 2, 4"})
  void podsPerGpuWarnWhatTheyCostAndLintAgrees(String instance, int nodes, int gpus)
      throws Exception {
    Plan p =
        plan(
            "instance="
                + instance
                + ";nodes="
                + nodes
                + ";gpusPerPod="
                + gpus
                + (gpus == 1 ? ";network=eni" : ""));
    assertThat(p.warnings())
        .singleElement()
        .asString()
        .contains("pods share each " + instance)
        .contains("Prefer one pod per node");
    assertThat(p.yaml()).contains("# WARNING: ");
    var read =
        new WorkloadReader()
            .read(
                new ManifestReader().parse("plan.yaml", p.yaml().getBytes(StandardCharsets.UTF_8)));
    assertThat(Linter.standard().lint(read.workloads(), LintContext.defaults()))
        .extracting(f -> f.severity().label() + " " + f.id())
        .contains("warn pod-per-gpu")
        .allMatch(s -> s.startsWith("info") || s.equals("warn pod-per-gpu"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "instance=g6e.12xlarge;nodes=1;offload=params;params=8B | - ",
        "instance=g6e.12xlarge;nodes=1;offload=params;params=70B | CPU offload needs about 1890.0 GB of host memory per pod",
        "instance=p4d.24xlarge;nodes=2;offload=params;params=70B | CPU offload fits with zero.Init (945.0 GB per pod) but not when every process loads the whole model first (3360.0 GB",
      })
  void offloadIsCheckedAgainstThePodsMemory(String knobs, String warning) throws InputProblem {
    Plan p = plan(knobs);
    if (warning == null || warning.equals("-")) {
      assertThat(p.warnings()).isEmpty();
    } else {
      assertThat(p.warnings()).singleElement().asString().startsWith(warning);
    }
    assertThat(spec(knobs).offload()).isEqualTo(OffloadMode.PARAMS);
  }

  @org.junit.jupiter.api.Test
  void theSeedsJobPlannedRight() throws InputProblem {
    // seed 001's g6e run: 4 x g6e.12xlarge, one pod of 4 L40S per node, EFA, ZeRO-3 offload of an
    // 8B model
    Plan p = plan("instance=g6e.12xlarge;nodes=4;offload=params;params=8B");
    String y = p.yaml();
    assertThat(y)
        .contains(
            "numNodes: 4",
            "numProcPerNode: 4",
            "vpc.amazonaws.com/efa: 1",
            "hugepages-2Mi: 5120Mi",
            "sizeLimit: 32Gi",
            "node.kubernetes.io/instance-type: g6e.12xlarge",
            "value: INFO");
    assertThat(y)
        .doesNotContain("NCCL_P2P_LEVEL:", "privileged", "hostNetwork:", "hostIPC:", "FI_PROVIDER");
    assertThat(Quantity.parse(choice(p, "memory")).orElseThrow().value().doubleValue())
        .isGreaterThan(
            io.topolens.kube.settings.KubeSettings.bundled()
                .policy()
                .offload()
                .bytesPerNode(8e9, 4, 4, true, false));
  }
}
