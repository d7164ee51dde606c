package io.topolens.kube.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.kube.Examples;
import io.topolens.nccl.InputProblem;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ManifestReaderTest {

  private static List<YamlDocument> parse(String yaml) throws InputProblem {
    return new ManifestReader().parse("m.yaml", yaml.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void everyKeyAndItemKeepsItsLine() throws InputProblem {
    YamlDocument d = new ManifestReader().read(Examples.lint("aws-nccl-tests-p5.yaml")).get(0);
    assertThat(d.line("/spec/slotsPerWorker")).isEqualTo(11);
    assertThat(d.line("/spec/mpiReplicaSpecs/Launcher/template/spec/containers/0/command/3"))
        .isEqualTo(31);
    assertThat(
            d.get("/spec/mpiReplicaSpecs/Launcher/template/spec/containers/0/command/4").asText())
        .isEqualTo("16");
    assertThat(
            d.at(
                "/spec/mpiReplicaSpecs/Worker/template/spec/containers/0/resources/limits/vpc.amazonaws.com~1efa"))
        .hasToString(Examples.lint("aws-nccl-tests-p5.yaml") + ":90: vpc.amazonaws.com/efa: 32");
  }

  @Test
  void aMissingPointerFallsBackToItsNearestAncestor() throws InputProblem {
    YamlDocument d = parse("kind: Pod\nspec:\n  containers:\n    - name: a\n").get(0);
    assertThat(d.line("/spec/containers/0/resources/limits")).isEqualTo(4);
  }

  @Test
  void readsEveryDocumentAndSkipsEmptyOnes() throws InputProblem {
    List<YamlDocument> docs = parse("---\na: 1\n---\n---\nb: 2\n...\n");
    assertThat(docs).extracting(YamlDocument::index).containsExactly(0, 1);
    assertThat(docs.get(1).line("/b")).isEqualTo(5);
  }

  @Test
  void findsAWordInsideAScript() throws InputProblem {
    YamlDocument d =
        new ManifestReader().read(Examples.lint("seed-trainjob-pod-per-gpu.yaml")).get(0);
    assertThat(d.find("/spec/trainer/command", "--nproc_per_node=1").line()).isEqualTo(46);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "a: 1\\nb: [1\\n| m.yaml:2: malformed YAML: while parsing a flow sequence",
        "a: 1\\na: 2\\n| m.yaml:2: duplicate key \"a\" (kubectl rejects it)",
        "- a\\n- b\\n| m.yaml:1: a manifest document must be a mapping (apiVersion, kind, ...), not a list",
        "x: &a 1\\ny: *a\\n| m.yaml:2: YAML aliases (*a) are not supported; expand them",
        "\\n\\n| m.yaml: no YAML documents (empty file)"
      })
  void badYamlIsOneLineWithFileAndLine(String yaml, String message) {
    assertThatThrownBy(() -> parse(yaml.replace("\\n", "\n")))
        .isInstanceOf(InputProblem.class)
        .hasMessage(message);
  }

  @Test
  void theSeedsMisindentedPyTorchJobIsMalformedAtItsLine() {
    String f = Examples.lint("seed-pytorchjob-bad-indent.yaml");
    assertThatThrownBy(() -> new ManifestReader().read(f))
        .hasMessage(f + ":16: malformed YAML: mapping values are not allowed here");
  }

  @Test
  void binaryAndMissingFilesAreProblems() {
    assertThatThrownBy(() -> new ManifestReader().parse("b.bin", new byte[] {1, 0, 2}))
        .hasMessage("b.bin: binary file; not a manifest");
    assertThatThrownBy(
            () -> new ManifestReader().parse("u.yaml", new byte[] {(byte) 0xff, (byte) 0xfe, 0x41}))
        .hasMessage("u.yaml: not UTF-8 text; not a manifest");
    assertThatThrownBy(() -> new ManifestReader().read("/no/such.yaml"))
        .hasMessage("/no/such.yaml: no such file");
  }

  @Test
  void substitutesOnlyTheGivenVariablesAndKeepsLines() throws InputProblem {
    YamlDocument d =
        new ManifestReader(Map.of("NODE_NUM", "4", "INSTANCE_TYPE", "g6e.12xlarge"))
            .read(Examples.lint("seed-trainjob-g6e-envsubst.yaml"))
            .get(0);
    assertThat(d.get("/spec/trainer/numNodes").asInt()).isEqualTo(4);
    assertThat(d.line("/spec/trainer/numNodes")).isEqualTo(31);
    assertThat(
            d.get(
                    "/spec/podTemplateOverrides/0/spec/nodeSelector/node.kubernetes.io~1instance-type")
                .asText())
        .isEqualTo("g6e.12xlarge");
    assertThat(d.get("/spec/trainer/resourcesPerNode/limits/nvidia.com~1gpu").asText())
        .isEqualTo("${GPU_PER_NODE}");
  }

  @Test
  void keepsScalarTypes() throws InputProblem {
    YamlDocument d = parse("a: 8\nb: \"8\"\nc: true\nd: 1.5\ne: null\n").get(0);
    assertThat(d.get("/a").isIntegralNumber()).isTrue();
    assertThat(d.get("/b").isTextual()).isTrue();
    assertThat(d.get("/c").isBoolean()).isTrue();
    assertThat(d.get("/d").isNumber()).isTrue();
    assertThat(d.get("/e").isNull()).isTrue();
  }
}
