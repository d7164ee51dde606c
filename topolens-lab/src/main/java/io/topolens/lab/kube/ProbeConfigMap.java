package io.topolens.lab.kube;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.topolens.lab.probe.ProbeScript;

/**
 * The ConfigMap that carries the probe into the pods: {@code probe.py} as its one key, mounted
 * read-only at {@link #MOUNT}. Created before the job, deleted after it.
 */
public final class ProbeConfigMap {
  /** Where the ConfigMap is mounted in the rank container. */
  public static final String MOUNT = "/topolens";

  /** The probe's path inside the pods. */
  public static final String SCRIPT = MOUNT + "/" + ProbeScript.FILE_NAME;

  /** The pod volume that holds the ConfigMap. */
  public static final String VOLUME = "topolens-probe";

  /** The label every object an experiment creates carries, with the experiment's name. */
  public static final String EXPERIMENT_LABEL = "topolens.io/experiment";

  private ProbeConfigMap() {}

  /**
   * The ConfigMap {@code name} in {@code namespace} (null: the run's), labelled with the
   * experiment.
   */
  public static ObjectNode of(String name, String namespace, String experiment, String variant) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode cm = f.objectNode();
    cm.put("apiVersion", "v1");
    cm.put("kind", "ConfigMap");
    ObjectNode meta = cm.putObject("metadata");
    meta.put("name", name);
    if (namespace != null) {
      meta.put("namespace", namespace);
    }
    ObjectNode labels = meta.putObject("labels");
    labels.put(EXPERIMENT_LABEL, Names.label(experiment));
    labels.put("topolens.io/variant", Names.label(variant));
    cm.putObject("data").put(ProbeScript.FILE_NAME, ProbeScript.text());
    return cm;
  }
}
