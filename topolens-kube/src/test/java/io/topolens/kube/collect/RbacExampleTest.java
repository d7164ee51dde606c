package io.topolens.kube.collect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.topolens.kube.Examples;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The ClusterRole of examples/k8s/rbac/topolens-diagnose.yaml grants every read the collector makes
 * (the verbs and resources its refusals name), and only reads.
 */
class RbacExampleTest {

  static List<JsonNode> documents() throws Exception {
    List<JsonNode> out = new ArrayList<>();
    try (var it =
        new ObjectMapper(new YAMLFactory())
            .readerFor(JsonNode.class)
            .readValues(Examples.k8s("rbac/topolens-diagnose.yaml").toFile())) {
      while (it.hasNext()) {
        out.add((JsonNode) it.next());
      }
    }
    return out;
  }

  @ParameterizedTest
  @CsvSource({
    "list, '', pods",
    "get, '', pods/log",
    "get, '', nodes",
    "get, trainer.kubeflow.org, trainjobs",
    "get, trainer.kubeflow.org, clustertrainingruntimes",
    "get, trainer.kubeflow.org, trainingruntimes",
    "get, kubeflow.org, pytorchjobs",
    "get, kubeflow.org, mpijobs",
    "get, jobset.x-k8s.io, jobsets",
    "get, batch, jobs",
  })
  void theClusterRoleGrantsEachRead(String verb, String group, String resource) throws Exception {
    JsonNode role =
        documents().stream()
            .filter(d -> d.path("kind").asText().equals("ClusterRole"))
            .findFirst()
            .orElseThrow();
    boolean granted = false;
    for (JsonNode rule : role.path("rules")) {
      List<String> verbs = new ArrayList<>();
      rule.path("verbs").forEach(v -> verbs.add(v.asText()));
      assertThat(verbs).isSubsetOf("get", "list");
      boolean g = false;
      boolean r = false;
      for (JsonNode x : rule.path("apiGroups")) {
        g |= x.asText().equals(group);
      }
      for (JsonNode x : rule.path("resources")) {
        r |= x.asText().equals(resource);
      }
      granted |= g && r && verbs.contains(verb);
    }
    assertThat(granted).as(verb + " " + resource).isTrue();
  }
}
