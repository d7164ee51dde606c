package io.topolens.kube.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.topolens.kube.Examples;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assumptions;

/**
 * The upstream CRDs' OpenAPI v3 schemas, read from {@code ../shared/crds} (never copied into the
 * project), as JSON Schema draft 4 with {@code additionalProperties: false} added to every object
 * that lists its properties and does not preserve unknown fields, so misspelt or misplaced fields
 * fail as the API server's strict field validation would. CEL rules are not checked.
 */
final class CrdSchemas {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Map<String, JsonNode> OPEN_API = new ConcurrentHashMap<>();
  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4);

  /** file under crds/ for each apiVersion/kind. */
  static final Map<String, String> FILES =
      Map.of(
          "trainer.kubeflow.org/v1alpha1/TrainJob",
              "trainer-v2.3.0_trainer.kubeflow.org_trainjobs.yaml",
          "trainer.kubeflow.org/v1alpha1/TrainingRuntime",
              "trainer-v2.3.0_trainer.kubeflow.org_trainingruntimes.yaml",
          "trainer.kubeflow.org/v1alpha1/ClusterTrainingRuntime",
              "trainer-v2.3.0_trainer.kubeflow.org_clustertrainingruntimes.yaml",
          "kubeflow.org/v1/PyTorchJob", "training-operator-v1.9.0_kubeflow.org_pytorchjobs.yaml",
          "kubeflow.org/v2beta1/MPIJob", "mpi-operator-v0.8.0_kubeflow.org_mpijobs.yaml");

  private CrdSchemas() {}

  private static final java.util.concurrent.atomic.AtomicBoolean WARNED =
      new java.util.concurrent.atomic.AtomicBoolean();

  /**
   * Skips the calling test when ../shared/crds is not there, saying so on stderr in a banner (once
   * per run) as well as in the skip reason: these tests are plan's only independent check, and
   * .ci/run fails when the CRDs are there but the tests did not run.
   */
  static Path dir() {
    Path d = Examples.crds();
    String why =
        "CRD validation of planned manifests SKIPPED: no CRDs at "
            + d
            + " (clone the repository next to shared/, or set TOPOLENS_SHARED to the shared folder)";
    if (!Files.isDirectory(d) && WARNED.compareAndSet(false, true)) {
      System.err.println("*".repeat(100));
      System.err.println("WARNING: " + why);
      System.err.println("*".repeat(100));
    }
    Assumptions.assumeTrue(Files.isDirectory(d), why);
    return d;
  }

  /** The strict schema of a kind's served version. */
  static Schema of(String apiVersion, String kind) {
    String key = apiVersion + "/" + kind;
    String file = FILES.get(key);
    if (file == null) {
      throw new IllegalArgumentException("no CRD for " + key);
    }
    JsonNode open =
        OPEN_API.computeIfAbsent(
            key, k -> load(dir().resolve(file), apiVersion.substring(apiVersion.indexOf('/') + 1)));
    return REGISTRY.getSchema(open);
  }

  /**
   * Kubernetes' core PodSpec schema, as the MPIJob CRD embeds it for replica templates (the same
   * generator writes it into every CRD), made strict the same way.
   */
  static Schema podSpec() {
    JsonNode mpi =
        OPEN_API.computeIfAbsent(
            "kubeflow.org/v2beta1/MPIJob", k -> load(dir().resolve(FILES.get(k)), "v2beta1"));
    return REGISTRY.getSchema(
        mpi.at(
            "/properties/spec/properties/mpiReplicaSpecs/additionalProperties/properties/template/properties/spec"));
  }

  /** Error messages of validating {@code doc}; empty when it is valid. */
  static List<String> errors(Schema schema, JsonNode doc) {
    return schema.validate(doc).stream().map(Object::toString).toList();
  }

  private static JsonNode load(Path file, String version) {
    try {
      JsonNode crd = YAML.readTree(Files.readString(file));
      for (JsonNode v : crd.at("/spec/versions")) {
        if (v.path("name").asText().equals(version)) {
          JsonNode schema = v.at("/schema/openAPIV3Schema").deepCopy();
          strict(schema);
          return schema;
        }
      }
      throw new IllegalStateException(file + " has no version " + version);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void strict(JsonNode n) {
    if (n instanceof ObjectNode o) {
      if (o.has("properties")
          && !o.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
          && !o.has("additionalProperties")) {
        o.put("additionalProperties", false);
      }
      o.properties().forEach(e -> strict(e.getValue()));
    } else if (n.isArray()) {
      n.forEach(CrdSchemas::strict);
    }
  }
}
