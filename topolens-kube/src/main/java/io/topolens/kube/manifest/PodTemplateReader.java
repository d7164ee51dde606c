package io.topolens.kube.manifest;

import static io.topolens.kube.manifest.YamlDocument.child;
import static io.topolens.kube.manifest.YamlDocument.item;

import io.topolens.kube.model.Container;
import io.topolens.kube.model.EnvVar;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.PodTemplate;
import io.topolens.kube.model.Quantity;
import io.topolens.kube.model.Resources;
import io.topolens.kube.model.Toleration;
import io.topolens.kube.model.Volume;
import io.topolens.kube.model.VolumeMount;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a pod spec (or a Trainer pod-spec patch) at a pointer into a {@link PodTemplate}. */
final class PodTemplateReader {
  /** Node labels that name the instance type (the second is the deprecated beta label). */
  static final Set<String> INSTANCE_LABELS =
      Set.of("node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type");

  private static final Set<String> VOLUME_FIELDS = Set.of("name");

  private final Fields f;

  PodTemplateReader(Fields f) {
    this.f = f;
  }

  /**
   * Reads the pod spec at {@code spec}.
   *
   * @param patch true for a Trainer patch (containers may be absent and carry no resources)
   */
  PodTemplate read(String spec, boolean patch) throws InputProblem {
    YamlDocument d = f.doc();
    f.keys(spec, "the pod spec");
    int nc = f.size(child(spec, "containers"), "containers");
    if (nc == 0 && !patch) {
      throw f.problem(spec, "pod template has no containers");
    }
    List<Container> containers = new ArrayList<>();
    for (int i = 0; i < nc; i++) {
      containers.add(container(item(child(spec, "containers"), i)));
    }
    List<Volume> volumes = new ArrayList<>();
    String vp = child(spec, "volumes");
    for (int i = 0, n = f.size(vp, "volumes"); i < n; i++) {
      volumes.add(volume(item(vp, i)));
    }
    Map<String, Located<String>> selector = new LinkedHashMap<>();
    String sp = child(spec, "nodeSelector");
    for (String k : f.keys(sp, "nodeSelector")) {
      selector.put(k, f.locatedText(child(sp, k)));
    }
    List<Located<String>> types = new ArrayList<>();
    for (String label : INSTANCE_LABELS) {
      if (selector.containsKey(label)) {
        types.add(selector.get(label));
      }
    }
    if (types.isEmpty()) {
      types.addAll(affinityTypes(spec));
    }
    List<Toleration> tolerations = new ArrayList<>();
    String tp = child(spec, "tolerations");
    for (int i = 0, n = f.size(tp, "tolerations"); i < n; i++) {
      String t = item(tp, i);
      tolerations.add(
          new Toleration(
              f.text(child(t, "key")),
              f.text(child(t, "operator")),
              f.text(child(t, "value")),
              f.text(child(t, "effect")),
              d.at(t)));
    }
    return new PodTemplate(
        containers,
        volumes,
        types,
        selector,
        tolerations,
        f.bool(child(spec, "hostNetwork"), "hostNetwork"),
        f.bool(child(spec, "hostIPC"), "hostIPC"),
        f.bool(child(spec, "hostPID"), "hostPID"),
        spreadByHost(spec),
        d.at(spec));
  }

  private Container container(String c) throws InputProblem {
    YamlDocument d = f.doc();
    String name = f.string(child(c, "name"), "container name");
    List<String> command = new ArrayList<>(f.strings(child(c, "command"), "command"));
    command.addAll(f.strings(child(c, "args"), "args"));
    String cmdAt = f.has(child(c, "command")) ? child(c, "command") : child(c, "args");
    List<EnvVar> env = new ArrayList<>();
    String ep = child(c, "env");
    for (int i = 0, n = f.size(ep, "env"); i < n; i++) {
      String e = item(ep, i);
      String en = f.string(child(e, "name"), "env name");
      if (en == null) {
        throw f.problem(e, "env entry without a name");
      }
      String value = f.string(child(e, "value"), "env " + en + " value");
      env.add(
          new EnvVar(
              en, value == null && !f.has(child(e, "valueFrom")) ? "" : value, "env", d.at(e)));
    }
    List<VolumeMount> mounts = new ArrayList<>();
    String mp = child(c, "volumeMounts");
    for (int i = 0, n = f.size(mp, "volumeMounts"); i < n; i++) {
      String m = item(mp, i);
      mounts.add(
          new VolumeMount(
              f.string(child(m, "name"), "volumeMount name"),
              f.string(child(m, "mountPath"), "mountPath"),
              d.at(m)));
    }
    String sc = child(c, "securityContext");
    List<Located<String>> caps = new ArrayList<>();
    String cp = child(child(sc, "capabilities"), "add");
    for (int i = 0, n = f.size(cp, "capabilities.add"); i < n; i++) {
      caps.add(new Located<>(f.text(item(cp, i)), d.at(item(cp, i))));
    }
    return new Container(
        name,
        f.string(child(c, "image"), "image"),
        command,
        command.isEmpty() ? null : d.at(cmdAt),
        env,
        resources(child(c, "resources")),
        mounts,
        f.bool(child(sc, "privileged"), "privileged"),
        caps,
        d.at(c));
  }

  /** Reads a {@code ResourceRequirements} mapping. */
  Resources resources(String r) throws InputProblem {
    if (!f.has(r)) {
      return Resources.none();
    }
    f.keys(r, "resources");
    return new Resources(
        quantities(child(r, "requests")), quantities(child(r, "limits")), f.doc().at(r));
  }

  private Map<String, Located<Quantity>> quantities(String p) throws InputProblem {
    Map<String, Located<Quantity>> m = new LinkedHashMap<>();
    for (String k : f.keys(p, "resources")) {
      m.put(k, f.quantity(child(p, k), k));
    }
    return m;
  }

  private Volume volume(String v) throws InputProblem {
    String name = f.string(child(v, "name"), "volume name");
    if (name == null) {
      throw f.problem(v, "volume without a name");
    }
    String source = null;
    for (String k : f.keys(v, "volume")) {
      if (!VOLUME_FIELDS.contains(k)) {
        source = k;
      }
    }
    String ed = child(v, "emptyDir");
    return new Volume(
        name,
        source,
        f.text(child(ed, "medium")),
        f.quantity(child(ed, "sizeLimit"), "emptyDir.sizeLimit"),
        f.text(child(child(v, "hostPath"), "path")),
        f.doc().at(v));
  }

  private List<Located<String>> affinityTypes(String spec) throws InputProblem {
    List<Located<String>> types = new ArrayList<>();
    String terms =
        child(
            child(
                child(child(spec, "affinity"), "nodeAffinity"),
                "requiredDuringSchedulingIgnoredDuringExecution"),
            "nodeSelectorTerms");
    for (int i = 0, n = f.size(terms, "nodeSelectorTerms"); i < n; i++) {
      String ex = child(item(terms, i), "matchExpressions");
      for (int j = 0, m = f.size(ex, "matchExpressions"); j < m; j++) {
        String e = item(ex, j);
        if (INSTANCE_LABELS.contains(f.text(child(e, "key")))
            && "In".equals(f.text(child(e, "operator")))) {
          String vs = child(e, "values");
          for (int k = 0, nv = f.size(vs, "values"); k < nv; k++) {
            types.add(f.locatedText(item(vs, k)));
          }
        }
      }
    }
    return types;
  }

  private Located<Boolean> spreadByHost(String spec) throws InputProblem {
    String anti =
        child(
            child(child(spec, "affinity"), "podAntiAffinity"),
            "requiredDuringSchedulingIgnoredDuringExecution");
    for (int i = 0, n = f.size(anti, "podAntiAffinity"); i < n; i++) {
      if ("kubernetes.io/hostname".equals(f.text(child(item(anti, i), "topologyKey")))) {
        return new Located<>(true, f.doc().at(item(anti, i)));
      }
    }
    String tsc = child(spec, "topologySpreadConstraints");
    for (int i = 0, n = f.size(tsc, "topologySpreadConstraints"); i < n; i++) {
      String t = item(tsc, i);
      if ("kubernetes.io/hostname".equals(f.text(child(t, "topologyKey")))
          && "1".equals(f.text(child(t, "maxSkew")))
          && "DoNotSchedule".equals(f.text(child(t, "whenUnsatisfiable")))) {
        return new Located<>(true, f.doc().at(t));
      }
    }
    return null;
  }
}
