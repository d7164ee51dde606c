package io.topolens.kube.plan;

import io.topolens.kube.yaml.YamlMap;
import java.util.List;

/** Writes the documents of one job kind for a sizing, from the pod parts every kind shares. */
abstract sealed class JobWriter permits MpiJobWriter, PyTorchJobWriter, TrainJobWriter {
  final Sizing s;
  final PodParts parts;

  JobWriter(Sizing s) {
    this.s = s;
    this.parts = new PodParts(s);
  }

  /** The documents to apply, in order. */
  abstract List<YamlMap> write();
}
