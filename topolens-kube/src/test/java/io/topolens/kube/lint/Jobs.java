package io.topolens.kube.lint;

import io.topolens.diagnose.Finding;
import io.topolens.kube.manifest.ManifestReader;
import io.topolens.kube.manifest.WorkloadReader;
import io.topolens.kube.model.Workload;
import io.topolens.nccl.InputProblem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A PyTorchJob of Workers, written from a few knobs, for rule tables. */
final class Jobs {
  String instance = "p4d.24xlarge";
  int replicas = 2;
  String gpus = "8";
  String efa = "4";
  String hugepages = "5120Mi";
  String memory = null;
  String shm = "64Gi";
  String nproc = null;
  String command = "torchrun --nproc_per_node=8 train.py";
  Map<String, String> env = new LinkedHashMap<>();
  String podExtra = "";
  String containerExtra = "";
  String res = null;
  String requests = null;

  static Jobs worker() {
    return new Jobs();
  }

  /** Sets a knob; "-" clears it. */
  Jobs set(String field, String raw) {
    String value = raw.equals("-") ? null : raw;
    switch (field) {
      case "instance" -> instance = value;
      case "replicas" -> replicas = Integer.parseInt(raw);
      case "gpus" -> gpus = value;
      case "efa" -> efa = value;
      case "hugepages" -> hugepages = value;
      case "memory" -> memory = value;
      case "shm" -> shm = value;
      case "nproc" -> nproc = value;
      case "command" -> command = value;
      case "pod" -> podExtra = value;
      case "container" -> containerExtra = value;
      case "res" -> res = value;
      case "requests" -> requests = value;
      default -> {
        if (field.startsWith("env.")) {
          env.put(field.substring(4), value);
        } else {
          throw new IllegalArgumentException(field);
        }
      }
    }
    return this;
  }

  /** Knobs as "field=value;field=value". */
  static Jobs of(String knobs) {
    Jobs j = new Jobs();
    if (knobs != null && !knobs.isBlank()) {
      for (String kv : knobs.split(";")) {
        int eq = kv.indexOf('=');
        j.set(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
      }
    }
    return j;
  }

  String yaml() {
    StringBuilder y = new StringBuilder();
    y.append("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: t\nspec:\n");
    if (nproc != null) {
      y.append("  nprocPerNode: \"").append(nproc).append("\"\n");
    }
    y.append("  pytorchReplicaSpecs:\n    Worker:\n      replicas: ").append(replicas).append("\n");
    y.append("      template:\n        spec:\n");
    if (instance != null) {
      y.append("          nodeSelector:\n            node.kubernetes.io/instance-type: ")
          .append(instance)
          .append("\n");
    }
    for (String l : podExtra.split("\\\\n")) {
      if (!l.isBlank()) {
        y.append("          ").append(l).append("\n");
      }
    }
    if (shm != null) {
      y.append("          volumes:\n            - name: dshm\n");
      if (shm.equals("host")) {
        y.append("              hostPath: {path: /dev/shm}\n");
      } else {
        y.append("              emptyDir: {medium: Memory, sizeLimit: ").append(shm).append("}\n");
      }
    }
    y.append("          containers:\n            - name: pytorch\n              image: img\n");
    y.append("              command: [\"/bin/bash\", \"-c\", \"").append(command).append("\"]\n");
    if (!env.isEmpty()) {
      y.append("              env:\n");
      env.forEach(
          (k, v) ->
              y.append("                - name: ")
                  .append(k)
                  .append("\n                  value: \"")
                  .append(v)
                  .append("\"\n"));
    }
    for (String l : containerExtra.split("\\\\n")) {
      if (!l.isBlank()) {
        y.append("              ").append(l).append("\n");
      }
    }
    if (shm != null) {
      y.append(
          "              volumeMounts:\n                - {name: dshm, mountPath: /dev/shm}\n");
    }
    List<String> res = new ArrayList<>();
    if (gpus != null) {
      res.add("nvidia.com/gpu: " + gpus);
    }
    if (efa != null) {
      res.add("vpc.amazonaws.com/efa: " + efa);
    }
    if (hugepages != null) {
      res.add("hugepages-2Mi: " + hugepages);
    }
    if (memory != null && !memory.equals("none")) {
      res.add("memory: " + memory);
    } else if (hugepages != null && memory == null) {
      res.add("memory: 64Gi");
    }
    if (this.res != null) {
      res.add(this.res);
    }
    if (!res.isEmpty()) {
      y.append("              resources:\n                limits:\n");
      res.forEach(r -> y.append("                  ").append(r).append("\n"));
      if (requests != null) {
        y.append("                requests:\n                  ").append(requests).append("\n");
      }
    }
    return y.toString();
  }

  Workload read() {
    try {
      WorkloadReader.Result r =
          new WorkloadReader()
              .read(
                  new ManifestReader().parse("job.yaml", yaml().getBytes(StandardCharsets.UTF_8)));
      if (!r.problems().isEmpty()) {
        throw new IllegalStateException(r.problems().get(0).getMessage() + "\n" + yaml());
      }
      return r.workloads().get(0);
    } catch (InputProblem e) {
      throw new IllegalStateException(e.getMessage() + "\n" + yaml(), e);
    }
  }

  /** "severity title" of what {@code rule} finds. */
  List<String> check(LintRule rule, LintContext ctx) {
    List<String> out = new ArrayList<>();
    for (Finding f : rule.check(read(), ctx)) {
      out.add(f.severity().label() + " " + f.title());
    }
    return out;
  }
}
