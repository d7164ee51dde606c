package io.topolens.lab.kube;

/** The job of a variant: the probe, or the training command; each is its own job, run in turn. */
public enum Phase {
  PROBE("probe"),
  TRAIN("train");

  private final String label;

  Phase(String label) {
    this.label = label;
  }

  /** The folder of the variant the phase's logs go to, and the suffix of its job's name. */
  public String label() {
    return label;
  }
}
