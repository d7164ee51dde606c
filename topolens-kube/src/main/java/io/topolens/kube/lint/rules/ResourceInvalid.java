package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Container;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Quantity;
import io.topolens.kube.model.Resources;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Resource requests the API server rejects or that never schedule (error): a name that is neither
 * standard nor domain-qualified ({@code nvidia.com: "1"}), a device count that is not whole, an
 * extended resource or huge pages whose request differs from its limit, huge pages without a CPU or
 * memory request.
 */
public final class ResourceInvalid implements LintRule {
  private static final Set<String> STANDARD = Set.of("cpu", "memory", "ephemeral-storage");
  private static final Pattern QUALIFIED =
      Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

  @Override
  public String id() {
    return "resource-invalid";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.groups()) {
      for (Container c : g.pod().containers()) {
        Resources r = c.resources();
        Set<String> names = new LinkedHashSet<>(r.limits().keySet());
        names.addAll(r.requests().keySet());
        for (String n : names) {
          Located<Quantity> at = r.get(n).orElseThrow();
          boolean extended = n.contains("/");
          boolean huge = n.startsWith("hugepages-");
          if (!STANDARD.contains(n) && !huge && !QUALIFIED.matcher(n).matches()) {
            out.add(
                finding(
                    w,
                    g,
                    c,
                    "resource name \"" + n + "\" is neither standard nor domain-qualified",
                    "Resource names are cpu, memory, ephemeral-storage, hugepages-<size> or domain/name (nvidia.com/gpu, vpc.amazonaws.com/efa); the API server rejects any other (seed 003's 'nvidia.com: \"1\"' asks for nothing).",
                    at,
                    "Write the full name: "
                        + (n.startsWith("nvidia")
                            ? "nvidia.com/gpu"
                            : n.startsWith("vpc") ? "vpc.amazonaws.com/efa" : "<domain>/<name>")
                        + "."));
            continue;
          }
          if (extended || huge) {
            Located<Quantity> req = r.requests().get(n);
            Located<Quantity> lim = r.limits().get(n);
            if (req != null
                && lim != null
                && req.value() != null
                && lim.value() != null
                && req.value().value().compareTo(lim.value().value()) != 0) {
              out.add(
                  finding(
                      w,
                      g,
                      c,
                      n + " requests " + req.value() + " but limits " + lim.value(),
                      (huge ? "Huge pages" : "Extended resources such as " + n)
                          + " cannot be overcommitted: the API server rejects a request that differs from the limit.",
                      req,
                      "Set requests and limits of "
                          + n
                          + " to the same value (or give only the limit)."));
            }
            if (extended && at.value() != null && !at.value().isWhole()) {
              out.add(
                  finding(
                      w,
                      g,
                      c,
                      n + ": " + at.value() + " is not a whole number",
                      "Devices are counted whole; the API server rejects fractions.",
                      at,
                      "Request a whole number of " + n + "."));
            }
          }
          if (huge && !r.names(Resources.MEMORY) && !r.names(Resources.CPU)) {
            out.add(
                finding(
                    w,
                    g,
                    c,
                    n + " without a cpu or memory request",
                    "Kubernetes rejects a container that requests huge pages but neither cpu nor memory.",
                    at,
                    "Add a memory request (and limit) beside " + n + "."));
          }
        }
      }
    }
    return out;
  }

  private Finding finding(
      Workload w,
      PodGroup g,
      Container c,
      String what,
      String why,
      Located<Quantity> at,
      String fix) {
    return new Finding(
        id(),
        Severity.ERROR,
        w.label() + " " + g.role() + ": container " + c.name() + ": " + what,
        why,
        Facts.lines(at.evidence()),
        fix);
  }
}
