package io.topolens.kube.lint.rules;

import io.topolens.kube.model.Container;
import io.topolens.kube.model.EnvVar;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Quantity;
import io.topolens.kube.model.Resources;
import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Small reads of the model that several rules share. */
final class Facts {
  private Facts() {}

  /** Evidence lines without the nulls, in order. */
  static List<Evidence> lines(Evidence... e) {
    return Arrays.stream(e).filter(Objects::nonNull).distinct().toList();
  }

  /** A resource of any container of the pod, the main one first. */
  static Optional<Located<Quantity>> resource(PodGroup g, String name) {
    Optional<Container> main = g.pod().main();
    if (main.isPresent() && main.get().resources().names(name)) {
      return main.get().resources().get(name);
    }
    for (Container c : g.pod().containers()) {
      if (c.resources().names(name)) {
        return c.resources().get(name);
      }
    }
    return Optional.empty();
  }

  /** Whether any container names the resource. */
  static boolean names(PodGroup g, String name) {
    return g.pod().containers().stream().anyMatch(c -> c.resources().names(name));
  }

  /** Whether the pods ask for EFA (a count above 0, or an unknown count). */
  static boolean requestsEfa(PodGroup g) {
    Optional<Located<Quantity>> e = resource(g, Resources.EFA);
    return e.isPresent() && (e.get().value() == null || e.get().value().asLong() > 0);
  }

  /** The rank environment entries named {@code name}. */
  static List<EnvVar> env(PodGroup g, String name) {
    List<EnvVar> out = new ArrayList<>();
    for (EnvVar v : g.rankEnv()) {
      if (v.name().equals(name)) {
        out.add(v);
      }
    }
    return out;
  }

  /** "TrainJob llama-3-8b" or "MPIJob nccl-tests Worker" for a finding's title. */
  static String who(io.topolens.kube.model.Workload w, PodGroup g) {
    return w.rankGroups().size() > 1 || w.kind().isMpiJob() || !g.ranks()
        ? w.label() + " " + g.role()
        : w.label();
  }

  static String plural(long n, String one) {
    return n + " " + (n == 1 ? one : one + "s");
  }
}
