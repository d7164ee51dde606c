package io.topolens.kube.model;

import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A container of a pod template.
 *
 * @param command {@code command} then {@code args}, as the process sees them
 * @param privileged {@code securityContext.privileged}, or null when not set
 * @param capabilities {@code securityContext.capabilities.add}
 */
public record Container(
    String name,
    String image,
    List<String> command,
    Evidence commandEvidence,
    List<EnvVar> env,
    Resources resources,
    List<VolumeMount> mounts,
    Located<Boolean> privileged,
    List<Located<String>> capabilities,
    Evidence evidence) {

  public Container {
    command = List.copyOf(command);
    env = List.copyOf(env);
    mounts = List.copyOf(mounts);
    capabilities = List.copyOf(capabilities);
  }

  /** An empty container named {@code name}, for merging patches into. */
  public static Container named(String name, Evidence at) {
    return new Container(
        name, null, List.of(), null, List.of(), Resources.none(), List.of(), null, List.of(), at);
  }

  /** The command and arguments joined by spaces (scripts keep their newlines). */
  public String commandLine() {
    return String.join(" ", command);
  }

  /** Whether it asks for at least one GPU. */
  public boolean hasGpu() {
    return resources.count(Resources.GPU).orElse(0L) > 0 || resources.names(Resources.GPU);
  }

  /**
   * This container with {@code over}'s settings on top: scalars and the command replace, env and
   * mounts merge by name, resources as {@code resourcesMerge} says.
   */
  public Container overlay(Container over, boolean mergeResources) {
    Map<String, EnvVar> e = new LinkedHashMap<>();
    env.forEach(v -> e.put(v.name(), v));
    over.env.forEach(v -> e.put(v.name(), v));
    Map<String, VolumeMount> m = new LinkedHashMap<>();
    mounts.forEach(v -> m.put(v.path(), v));
    over.mounts.forEach(v -> m.put(v.path(), v));
    List<Located<String>> caps = new ArrayList<>(capabilities);
    caps.addAll(over.capabilities);
    Resources r =
        over.resources.isEmpty()
            ? resources
            : mergeResources ? resources.mergedWith(over.resources) : over.resources;
    return new Container(
        name,
        over.image != null ? over.image : image,
        over.command.isEmpty() ? command : over.command,
        over.command.isEmpty() ? commandEvidence : over.commandEvidence,
        List.copyOf(e.values()),
        r,
        List.copyOf(m.values()),
        over.privileged != null ? over.privileged : privileged,
        caps,
        evidence != null ? evidence : over.evidence);
  }
}
