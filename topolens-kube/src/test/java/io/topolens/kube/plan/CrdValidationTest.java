package io.topolens.kube.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.topolens.kube.yaml.YamlMap;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every manifest plan writes validates against the upstream CRD schemas in ../shared/crds (Trainer
 * v2.3.0, training-operator v1.9.0, MPI Operator v0.8.0) with unknown fields forbidden, and every
 * pod it describes against Kubernetes' core PodSpec schema.
 */
class CrdValidationTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "instance=p4d.24xlarge;nodes=4",
        "instance=p4d.24xlarge;nodes=2;gpusPerPod=2",
        "instance=p5.48xlarge;nodes=16;zone=us-east-1a;sameZone=true;nodeLabel=eks.amazonaws.com/nodegroup=pg",
        "instance=g6e.12xlarge;nodes=4;offload=params;params=8B;toleration=efa-workload=true:NoSchedule",
        "instance=g5.xlarge;nodes=2;namespace=ml;command=python train.py --epochs 1",
        "instance=p4d.24xlarge;nodes=4;kind=pytorchjob",
        "instance=p4d.24xlarge;nodes=1;kind=pytorchjob",
        "instance=g6e.48xlarge;nodes=2;gpusPerPod=4;kind=pytorchjob",
        "instance=p5.48xlarge;nodes=2;workload=nccl-tests",
        "instance=p4d.24xlarge;nodes=4;workload=nccl-tests;gpusPerPod=4",
        "instance=g6e.12xlarge;nodes=2;workload=nccl-tests;network=eni",
        "instance=p5en.48xlarge;nodes=2;workload=nccl-tests;kind=trainjob",
      })
  void plannedManifestsValidateAgainstTheirCrds(String knobs) throws InputProblem {
    CrdSchemas.dir();
    Plan p = Knobs.plan(knobs);
    for (YamlMap doc : p.documents()) {
      JsonNode json = doc.toJson();
      String api = json.path("apiVersion").asText();
      String kind = json.path("kind").asText();
      assertThat(CrdSchemas.errors(CrdSchemas.of(api, kind), json))
          .as(kind + " " + knobs)
          .isEmpty();
      for (JsonNode pod : pods(json)) {
        assertThat(CrdSchemas.errors(CrdSchemas.podSpec(), pod))
            .as("pod of " + kind + " " + knobs)
            .isEmpty();
      }
    }
  }

  /**
   * The pod specs a document describes; for a TrainJob, its patch with the trainer's container in
   * it.
   */
  private static List<JsonNode> pods(JsonNode doc) {
    List<JsonNode> out = new ArrayList<>();
    switch (doc.path("kind").asText()) {
      case "PyTorchJob" ->
          doc.at("/spec/pytorchReplicaSpecs").forEach(r -> out.add(r.at("/template/spec")));
      case "MPIJob" ->
          doc.at("/spec/mpiReplicaSpecs").forEach(r -> out.add(r.at("/template/spec")));
      case "TrainingRuntime", "ClusterTrainingRuntime" ->
          doc.at("/spec/template/spec/replicatedJobs")
              .forEach(r -> out.add(r.at("/template/spec/template/spec")));
      case "TrainJob" -> {
        JsonNode t = doc.at("/spec/trainer");
        for (JsonNode patch : doc.at("/spec/runtimePatches")) {
          for (JsonNode rj : patch.at("/trainingRuntimeSpec/template/spec/replicatedJobs")) {
            ObjectNode pod = (ObjectNode) rj.at("/template/spec/template/spec").deepCopy();
            ObjectNode node = (ObjectNode) pod.withArray("containers").get(0);
            node.set("image", t.get("image"));
            node.set("command", t.get("command"));
            node.set("env", t.get("env"));
            node.set("resources", t.get("resourcesPerNode"));
            out.add(pod);
          }
        }
      }
      default -> throw new IllegalStateException(doc.path("kind").asText());
    }
    return out;
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // the validator is strict: what the seeds wrote fails where the API server fails it
        "/spec/trainer | numNodes | \"two\"",
        "/spec/trainer | nprocPerNode | 8",
        "/spec | podTemplateOverrides | []",
        "/spec/trainer | numProcPerNode | \"auto\"",
      })
  void theValidatorCatchesWhatTheApiServerRejects(String at, String field, String value)
      throws Exception {
    CrdSchemas.dir();
    JsonNode doc = Knobs.plan("instance=p4d.24xlarge;nodes=4").documents().get(0).toJson();
    ((ObjectNode) doc.at(at)).set(field, YAML.readTree(value));
    assertThat(CrdSchemas.errors(CrdSchemas.of("trainer.kubeflow.org/v1alpha1", "TrainJob"), doc))
        .isNotEmpty();
  }

  @Test
  void theCorePodSchemaCatchesAMisplacedField() throws Exception {
    CrdSchemas.dir();
    JsonNode mpi =
        Knobs.plan("instance=p5.48xlarge;nodes=2;workload=nccl-tests").documents().get(0).toJson();
    ObjectNode pod = (ObjectNode) mpi.at("/spec/mpiReplicaSpecs/Worker/template/spec").deepCopy();
    assertThat(CrdSchemas.errors(CrdSchemas.podSpec(), pod)).isEmpty();
    ((ArrayNode) pod.get("containers")).get(0).withObject("resources").put("limitz", 1);
    assertThat(CrdSchemas.errors(CrdSchemas.podSpec(), pod)).isNotEmpty();
  }

  @Test
  void awsNcclTestsShapedMpiJobValidates() throws Exception {
    CrdSchemas.dir();
    JsonNode aws =
        YAML.readTree(
            java.nio.file.Files.readString(
                io.topolens.kube.Examples.k8s("lint/aws-nccl-tests-p5.yaml")));
    assertThat(CrdSchemas.errors(CrdSchemas.of("kubeflow.org/v2beta1", "MPIJob"), aws)).isEmpty();
  }
}
