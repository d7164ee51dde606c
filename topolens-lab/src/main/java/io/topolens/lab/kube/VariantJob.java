package io.topolens.lab.kube;

import io.topolens.diagnose.Finding;
import io.topolens.kube.manifest.YamlDocument;
import java.util.List;

/**
 * One job of a variant as it will be applied: its manifests (the probe's ConfigMap first, then the
 * job) and what lint says about them.
 *
 * @param name the job's name
 * @param source how the job was made: the plan command that writes the same job, or the manifest
 *     patched
 * @param yaml the manifests as one YAML stream, as written to {@code PHASE/manifests.yaml}
 * @param documents the same, read back with the line of every key
 * @param findings lint's findings, most severe first
 * @param blocking the error findings that stop the job from being applied (errors the variant asks
 *     for on purpose, such as efa-not-requested for an ENI variant, are not among them)
 */
public record VariantJob(
    Phase phase,
    String name,
    String source,
    String yaml,
    List<YamlDocument> documents,
    List<Finding> findings,
    List<Finding> blocking) {

  public VariantJob {
    documents = List.copyOf(documents);
    findings = List.copyOf(findings);
    blocking = List.copyOf(blocking);
  }
}
