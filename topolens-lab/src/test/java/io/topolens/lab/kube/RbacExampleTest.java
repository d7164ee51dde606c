package io.topolens.lab.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * examples/k8s/rbac/topolens-experiment.yaml grants every call a Kubernetes experiment makes: the
 * Role those in the namespace, the ClusterRole the node reads; and nothing it does not make.
 */
class RbacExampleTest {
  static final Path FILE = Path.of("../examples/k8s/rbac/topolens-experiment.yaml");

  static JsonNode role(String kind) throws Exception {
    try (var it =
        new ObjectMapper(new YAMLFactory()).readerFor(JsonNode.class).readValues(FILE.toFile())) {
      while (it.hasNext()) {
        JsonNode d = (JsonNode) it.next();
        if (d.path("kind").asText().equals(kind)) {
          return d;
        }
      }
    }
    throw new AssertionError("no " + kind + " in " + FILE);
  }

  static List<String> grants(JsonNode role) {
    List<String> out = new ArrayList<>();
    for (JsonNode rule : role.path("rules")) {
      for (JsonNode g : rule.path("apiGroups")) {
        for (JsonNode r : rule.path("resources")) {
          for (JsonNode v : rule.path("verbs")) {
            out.add(v.asText() + " " + g.asText() + " " + r.asText());
          }
        }
      }
    }
    return out;
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          Role        | list, '', configmaps; create, '', configmaps; delete, '', configmaps
          Role        | create, trainer.kubeflow.org, trainjobs; get, trainer.kubeflow.org, trainjobs; delete, trainer.kubeflow.org, trainjobs
          Role        | create, kubeflow.org, pytorchjobs; get, kubeflow.org, pytorchjobs; delete, kubeflow.org, pytorchjobs
          Role        | get, '', pods; list, '', pods; get, '', pods/log; list, '', events
          ClusterRole | get, '', nodes
          """)
  void eachCallIsGranted(String kind, String calls) throws Exception {
    List<String> granted = grants(role(kind));
    for (String call : calls.split(";")) {
      String[] p = call.strip().split(",\\s*");
      String want = p[0] + " " + p[1].replace("''", "") + " " + p[2];
      assertThat(granted).as(kind).contains(want);
    }
  }

  @org.junit.jupiter.api.Test
  void nothingMoreThanTheCallsIsGranted() throws Exception {
    assertThat(grants(role("Role")))
        .containsExactlyInAnyOrder(
            "create trainer.kubeflow.org trainjobs",
            "get trainer.kubeflow.org trainjobs",
            "delete trainer.kubeflow.org trainjobs",
            "create trainer.kubeflow.org trainingruntimes",
            "get trainer.kubeflow.org trainingruntimes",
            "delete trainer.kubeflow.org trainingruntimes",
            "create kubeflow.org pytorchjobs",
            "get kubeflow.org pytorchjobs",
            "delete kubeflow.org pytorchjobs",
            "create  configmaps",
            "list  configmaps",
            "delete  configmaps",
            "get  pods",
            "list  pods",
            "get  pods/log",
            "list  events");
    assertThat(grants(role("ClusterRole"))).containsExactly("get  nodes");
  }
}
