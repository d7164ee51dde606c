package io.topolens.kube.lint;

import io.topolens.catalog.BundledJson;
import io.topolens.diagnose.Severity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What each lint rule checks and its usual severity, as docs/lint.md says ({@code lint-rules.json};
 * a test keeps the two equal): the rule metadata of SARIF output.
 *
 * @param what one sentence: the condition the rule reports
 */
public record LintRuleInfo(String id, Severity severity, String what) {
  private static final Map<String, LintRuleInfo> BUNDLED = load();

  /** The rule {@code id}'s metadata, if docs/lint.md has it. */
  public static Optional<LintRuleInfo> of(String id) {
    return Optional.ofNullable(BUNDLED.get(id));
  }

  public static List<LintRuleInfo> all() {
    return List.copyOf(BUNDLED.values());
  }

  private record Entry(String id, String severity, String what) {}

  private record File(String about, List<Entry> rules) {}

  private static Map<String, LintRuleInfo> load() {
    File f = BundledJson.read(LintRuleInfo.class, "lint-rules.json", File.class);
    Map<String, LintRuleInfo> map = new LinkedHashMap<>();
    for (Entry e : f.rules()) {
      map.put(e.id(), new LintRuleInfo(e.id(), Severity.parse(e.severity()), e.what()));
    }
    return map;
  }
}
