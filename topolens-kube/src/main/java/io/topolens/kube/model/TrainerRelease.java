package io.topolens.kube.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Kubeflow Trainer release (v2.x), whose API semantics some rules depend on. */
public record TrainerRelease(int major, int minor) implements Comparable<TrainerRelease> {
  /** The release the CRDs in shared/crds come from; the default target. */
  public static final TrainerRelease V2_3 = new TrainerRelease(2, 3);

  private static final Pattern FORM = Pattern.compile("v?(\\d+)\\.(\\d+)(?:\\.\\d+)?");

  /** Parses {@code 2.3}, {@code v2.3.0}. */
  public static TrainerRelease parse(String text) {
    Matcher m = FORM.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "not a Trainer release: " + text + " (want 2.3 or v2.3.0)");
    }
    return new TrainerRelease(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
  }

  /** Whether {@code resourcesPerNode} merges with the runtime's resources (v2.3.0, #3602). */
  public boolean mergesResources() {
    return compareTo(V2_3) >= 0;
  }

  @Override
  public int compareTo(TrainerRelease o) {
    return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
  }

  @Override
  public String toString() {
    return "v" + major + "." + minor;
  }
}
