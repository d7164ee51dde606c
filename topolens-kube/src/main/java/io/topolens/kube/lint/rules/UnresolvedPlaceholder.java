package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.Workload;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Values left as {@code ${NAME}} for envsubst, which topolens cannot judge (info): it names them so
 * {@code --var NAME=VALUE} can fill them in.
 */
public final class UnresolvedPlaceholder implements LintRule {
  private static final Pattern NAME = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)");

  @Override
  public String id() {
    return "unresolved-placeholder";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    if (w.placeholders().isEmpty()) {
      return List.of();
    }
    Set<String> names = new LinkedHashSet<>();
    for (Located<String> p : w.placeholders()) {
      Matcher m = NAME.matcher(p.value());
      while (m.find()) {
        names.add(m.group(1));
      }
    }
    return List.of(
        new Finding(
            id(),
            Severity.INFO,
            w.label()
                + ": "
                + names.size()
                + " value(s) left for envsubst: "
                + String.join(", ", names),
            "topolens cannot judge a value it does not know; rules that need these (GPU and EFA counts, node counts, the instance type) stayed silent about them.",
            w.placeholders().stream().map(Located::evidence).distinct().toList(),
            "Pass the values as envsubst would: "
                + String.join(" ", names.stream().map(n -> "--var " + n + "=...").toList())
                + "."));
  }
}
