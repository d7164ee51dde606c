package io.topolens.lab.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.kube.manifest.YamlDocument;
import io.topolens.lab.experiment.ExperimentSpec;
import io.topolens.lab.experiment.SpecReader;
import io.topolens.lab.experiment.Variant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The manifests of a variant: planned, or the user's own shaped as the variant. */
class VariantManifestsTest {
  static final Path SEED_PYTORCHJOB =
      Path.of("../examples/k8s/lint/seed-pytorchjob-master-no-gpu.yaml").toAbsolutePath();

  static final Path PLANNED_TRAINJOB =
      Path.of("../examples/k8s/plan/trainjob-g6e-4x4-seed001.yaml").toAbsolutePath();

  @TempDir Path dir;

  ExperimentSpec spec(String where, String variants) throws Exception {
    Path f = dir.resolve("x.yaml");
    Files.writeString(
        f,
        "name: x\nrun: probe+train\ntrain: [torchrun, train.py, --offload, \"{offload}\"]\n"
            + "where:\n  kubernetes:\n"
            + where
            + "variants:\n"
            + variants);
    return SpecReader.read(f);
  }

  @ParameterizedTest(name = "{0} on {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # layout | nodes | network | pods | GPUs per pod | EFA per pod (absent: -)
          1x4      | 1     | efa     | 1    | 4            | 4
          4x1      | 1     | efa     | 4    | 1            | 1
          2x2      | 2     | efa     | 4    | 2            | 2
          4x1      | 1     | eni     | 4    | 1            | -
          1x8      | 2     | efa     | 2    | 8            | 4
          """)
  void aPlannedVariantHasItsLayoutOnP4d(
      String layout, int nodes, String network, int pods, int gpus, String efa) throws Exception {
    ExperimentSpec s =
        spec(
            "    instance: p4d.24xlarge\n",
            "  layout: " + layout + "\n  nodes: " + nodes + "\n  network: " + network + "\n");
    Variant v = s.variants().getFirst();
    VariantJob job = new VariantManifests(s, null, HardwareCatalog.builtIn()).job(v, Phase.TRAIN);
    YamlDocument d = job.documents().getFirst();
    assertThat(d.get("/spec/trainer/numNodes").asInt()).isEqualTo(pods);
    assertThat(d.get("/spec/trainer/numProcPerNode").asInt()).isEqualTo(gpus);
    assertThat(d.get("/spec/trainer/resourcesPerNode/limits/nvidia.com~1gpu").asInt())
        .isEqualTo(gpus);
    assertThat(d.get("/spec/trainer/resourcesPerNode/limits/vpc.amazonaws.com~1efa").asText("-"))
        .isEqualTo(efa);
    assertThat(d.get("/spec/trainer/command/2").asText())
        .isEqualTo("torchrun train.py --offload none");
    assertThat(job.blocking()).isEmpty();
  }

  @Test
  void theUsersPyTorchJobIsShapedAsTheVariantAndGetsTheProbe() throws Exception {
    ExperimentSpec s =
        spec(
            "    manifest: " + SEED_PYTORCHJOB + "\n",
            "  layout: 2x1\n  network: eni\n  offload: cpu\n  env: {NCCL_P2P_DISABLE: 1}\n");
    Variant v = s.variants().getFirst();
    VariantJob job = new VariantManifests(s, "ml", HardwareCatalog.builtIn()).job(v, Phase.PROBE);
    List<YamlDocument> docs = job.documents();
    assertThat(docs)
        .extracting(d -> d.root().path("kind").asText())
        .containsExactly("ConfigMap", "PyTorchJob");
    YamlDocument cm = docs.get(0);
    assertThat(cm.get("/metadata/name").asText()).isEqualTo("x-2x1-probe-py");
    assertThat(cm.get("/data/probe.py").asText()).contains("def launch_environment(env):");
    YamlDocument pj = docs.get(1);
    assertThat(pj.get("/metadata/name").asText()).isEqualTo("x-2x1-probe");
    assertThat(pj.get("/spec/nprocPerNode").asText()).isEqualTo("1");
    assertThat(pj.get("/spec/runPolicy/backoffLimit").asInt()).isZero();
    for (String r : List.of("Master", "Worker")) {
      String at = "/spec/pytorchReplicaSpecs/" + r;
      assertThat(pj.get(at + "/replicas").asInt()).as(r).isEqualTo(1);
      assertThat(pj.get(at + "/restartPolicy").asText()).isEqualTo("Never");
      String c = at + "/template/spec/containers/0";
      // the seed's Master had no GPU: every rank pod gets the variant's
      assertThat(pj.get(c + "/resources/limits/nvidia.com~1gpu").asInt()).as(r).isEqualTo(1);
      assertThat(pj.get(c + "/command").toString())
          .startsWith(
              "[\"/bin/bash\",\"-c\",\"exec env -u RANK -u WORLD_SIZE -u LOCAL_RANK python3 /topolens/probe.py");
      assertThat(pj.get(c + "/args").isMissingNode()).isTrue();
      assertThat(pj.get(c + "/env").toString())
          .contains("{\"name\":\"NCCL_P2P_DISABLE\",\"value\":\"1\"}")
          .contains("{\"name\":\"TOPOLENS_OFFLOAD\",\"value\":\"cpu\"}");
      assertThat(pj.get(c + "/volumeMounts").toString())
          .contains("{\"name\":\"topolens-probe\",\"mountPath\":\"/topolens\",\"readOnly\":true}");
      assertThat(pj.get(at + "/template/spec/volumes").toString())
          .contains("{\"name\":\"topolens-probe\",\"configMap\":{\"name\":\"x-2x1-probe-py\"}}");
    }
    assertThat(job.source()).isEqualTo(SEED_PYTORCHJOB + ", patched for the variant");
  }

  /**
   * The user's TrainJob (plan's for 4 x g6e.12xlarge, one pod per node by hostname anti-affinity on
   * its own name, llama-3-8b) made each variant: sizes, EFA, and a placement that really gives the
   * variant's pods per node under the variant job's name.
   */
  @ParameterizedTest(name = "{0} on {1} node(s), {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # layout | nodes | network | numNodes | procs | EFA | anti-affinity on    | affinity on
          1x4      | 4     | efa     | 4        | 4     | 1   | x-1x4-train         | -
          1x4      | 1     | efa     | 1        | 4     | 1   | x-1x4-train         | -
          2x2      | 1     | efa     | 2        | 2     | 1   | -                   | x-2x2-train
          4x1      | 1     | eni     | 4        | 1     | -   | -                   | x-4x1-train
          2x2      | 2     | efa     | 4        | 2     | 1   | -                   | -
          """)
  void theUsersTrainJobIsShapedAsTheVariantWithItsPlacement(
      String layout,
      int nodes,
      String network,
      int numNodes,
      int procs,
      String efa,
      String antiAffinity,
      String affinity)
      throws Exception {
    ExperimentSpec s =
        spec(
            "    manifest: " + PLANNED_TRAINJOB + "\n    instance: g6e.12xlarge\n",
            "  layout: " + layout + "\n  nodes: " + nodes + "\n  network: " + network + "\n");
    VariantJob job =
        new VariantManifests(s, "ml", HardwareCatalog.builtIn())
            .job(s.variants().getFirst(), Phase.TRAIN);
    YamlDocument d = job.documents().getFirst();
    assertThat(d.get("/metadata/name").asText()).isEqualTo("x-" + layout + "-train");
    assertThat(d.get("/spec/trainer/numNodes").asInt()).isEqualTo(numNodes);
    assertThat(d.get("/spec/trainer/numProcPerNode").asInt()).isEqualTo(procs);
    for (String side : List.of("limits", "requests")) {
      String r = "/spec/trainer/resourcesPerNode/" + side + "/";
      assertThat(d.get(r + "nvidia.com~1gpu").asInt()).isEqualTo(procs);
      assertThat(d.get(r + "vpc.amazonaws.com~1efa").asText(null)).as(side).isEqualTo(efa);
    }
    String pod =
        "/spec/runtimePatches/0/trainingRuntimeSpec/template/spec/replicatedJobs/0/template/spec"
            + "/template/spec/affinity/";
    String term = "/requiredDuringSchedulingIgnoredDuringExecution/0/";
    assertThat(
            d.get(
                    pod
                        + "podAntiAffinity"
                        + term
                        + "labelSelector/matchLabels/jobset.sigs.k8s.io~1jobset-name")
                .asText(null))
        .isEqualTo(antiAffinity);
    assertThat(
            d.get(
                    pod
                        + "podAffinity"
                        + term
                        + "labelSelector/matchLabels/jobset.sigs.k8s.io~1jobset-name")
                .asText(null))
        .isEqualTo(affinity);
    if (affinity != null) {
      assertThat(d.get(pod + "podAffinity" + term + "topologyKey").asText())
          .isEqualTo("kubernetes.io/hostname");
    }
    // the rest of the user's pod settings stay
    assertThat(
            d.get(pod.replace("affinity/", "nodeSelector/node.kubernetes.io~1instance-type"))
                .asText())
        .isEqualTo("g6e.12xlarge");
    assertThat(job.blocking()).as(job.findings().toString()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          kx           | 1x2                                  | PROBE | kx-1x2-probe
          seeds-g6e    | 1x4-eni-NCCL_P2P_LEVEL=NVL           | TRAIN | seeds-g6e-1x4-eni-nccl-p2p-b8104a-train
          2026-run     | 4x1                                  | PROBE | x-2026-run-4x1-probe
          """)
  void jobNamesAreDnsLabelsShortEnoughForTheirPods(
      String experiment, String variant, Phase phase, String name) {
    assertThat(Names.job(experiment, variant, phase)).isEqualTo(name).hasSizeLessThanOrEqualTo(40);
  }
}
