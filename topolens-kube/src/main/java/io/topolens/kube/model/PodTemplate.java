package io.topolens.kube.model;

import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The parts of a pod spec topolens judges.
 *
 * @param instanceTypes the instance types the pod may land on: {@code
 *     node.kubernetes.io/instance-type} from the node selector or a required node affinity (a value
 *     may be null when it is an unsubstituted placeholder)
 * @param hostNetwork {@code hostNetwork}, or null when not set; likewise hostIPC, hostPID
 * @param spreadByHost a required pod anti-affinity on {@code kubernetes.io/hostname}, or a topology
 *     spread with maxSkew 1 on it
 */
public record PodTemplate(
    List<Container> containers,
    List<Volume> volumes,
    List<Located<String>> instanceTypes,
    Map<String, Located<String>> nodeSelector,
    List<Toleration> tolerations,
    Located<Boolean> hostNetwork,
    Located<Boolean> hostIPC,
    Located<Boolean> hostPID,
    Located<Boolean> spreadByHost,
    Evidence evidence) {

  public PodTemplate {
    containers = List.copyOf(containers);
    volumes = List.copyOf(volumes);
    instanceTypes = List.copyOf(instanceTypes);
    nodeSelector = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(nodeSelector));
    tolerations = List.copyOf(tolerations);
  }

  public static PodTemplate empty(Evidence at) {
    return new PodTemplate(
        List.of(), List.of(), List.of(), Map.of(), List.of(), null, null, null, null, at);
  }

  /**
   * The container that runs the training processes: the one asking for GPUs, else the one named
   * {@code node} (Trainer) or {@code pytorch} (PyTorchJob), else the first.
   */
  public Optional<Container> main() {
    for (Container c : containers) {
      if (c.hasGpu()) {
        return Optional.of(c);
      }
    }
    for (Container c : containers) {
      if (c.name() != null && (c.name().equals("node") || c.name().equals("pytorch"))) {
        return Optional.of(c);
      }
    }
    return containers.stream().findFirst();
  }

  public Optional<Container> container(String name) {
    return containers.stream().filter(c -> name.equals(c.name())).findFirst();
  }

  public Optional<Volume> volume(String name) {
    return volumes.stream().filter(v -> v.name().equals(name)).findFirst();
  }

  /** GPUs per pod: the sum over containers ({@code nvidia.com/gpu}), empty when unknown. */
  public Optional<Long> gpus() {
    long sum = 0;
    for (Container c : containers) {
      if (c.resources().names(Resources.GPU) && c.resources().count(Resources.GPU).isEmpty()) {
        return Optional.empty();
      }
      sum += c.resources().count(Resources.GPU).orElse(0L);
    }
    return Optional.of(sum);
  }

  /**
   * This template with {@code over} on top (a Trainer runtime patch or a TrainJob's trainer
   * settings): containers merge by name, volumes by name, node selector by key, tolerations add.
   */
  public PodTemplate overlay(PodTemplate over, boolean mergeResources) {
    Map<String, Container> cs = new LinkedHashMap<>();
    containers.forEach(c -> cs.put(c.name(), c));
    for (Container c : over.containers) {
      Container base = cs.get(c.name());
      cs.put(c.name(), base == null ? c : base.overlay(c, mergeResources));
    }
    Map<String, Volume> vs = new LinkedHashMap<>();
    volumes.forEach(v -> vs.put(v.name(), v));
    over.volumes.forEach(v -> vs.put(v.name(), v));
    Map<String, Located<String>> sel = new LinkedHashMap<>(nodeSelector);
    sel.putAll(over.nodeSelector);
    List<Toleration> tol = new ArrayList<>(tolerations);
    tol.addAll(over.tolerations);
    return new PodTemplate(
        List.copyOf(cs.values()),
        List.copyOf(vs.values()),
        over.instanceTypes.isEmpty() ? instanceTypes : over.instanceTypes,
        sel,
        tol,
        over.hostNetwork != null ? over.hostNetwork : hostNetwork,
        over.hostIPC != null ? over.hostIPC : hostIPC,
        over.hostPID != null ? over.hostPID : hostPID,
        over.spreadByHost != null ? over.spreadByHost : spreadByHost,
        evidence != null ? evidence : over.evidence);
  }
}
