package io.topolens.kube.present;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintResult;
import io.topolens.kube.lint.LintRuleInfo;
import io.topolens.model.Evidence;
import java.io.IOException;
import java.io.Writer;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code topolens lint --format sarif}: SARIF 2.1.0 for code scanning. One run; every rule with its
 * metadata (docs/lint.md); each finding a result at its first evidence line, the other evidence
 * lines as related locations; unreadable files as tool notifications. Relative paths stay relative
 * to the working directory ({@code %SRCROOT%}), so a CI that runs in the repository root gets
 * repository paths.
 */
public final class LintSarifReport {
  static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

  private final String version;

  /**
   * @param version topolens's version, for the tool's driver
   */
  public LintSarifReport(String version) {
    this.version = version;
  }

  public void write(LintResult r, Writer w) throws IOException {
    List<LintRuleInfo> rules = LintRuleInfo.all();
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < rules.size(); i++) {
      index.put(rules.get(i).id(), i);
    }
    try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeStringField("$schema", SCHEMA);
      g.writeStringField("version", "2.1.0");
      g.writeArrayFieldStart("runs");
      g.writeStartObject();
      g.writeObjectFieldStart("tool");
      g.writeObjectFieldStart("driver");
      g.writeStringField("name", "topolens lint");
      g.writeStringField("version", version);
      g.writeArrayFieldStart("rules");
      for (LintRuleInfo rule : rules) {
        rule(g, rule);
      }
      g.writeEndArray();
      g.writeEndObject();
      g.writeEndObject();
      g.writeArrayFieldStart("invocations");
      g.writeStartObject();
      g.writeBooleanField("executionSuccessful", r.problems().isEmpty());
      g.writeArrayFieldStart("toolExecutionNotifications");
      for (String p : r.problems()) {
        g.writeStartObject();
        g.writeStringField("level", "error");
        message(g, p);
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
      g.writeEndArray();
      g.writeArrayFieldStart("results");
      for (Finding f : r.findings()) {
        result(g, f, index.get(f.id()));
      }
      g.writeEndArray();
      g.writeEndObject();
      g.writeEndArray();
      g.writeEndObject();
    }
  }

  private static void rule(JsonGenerator g, LintRuleInfo rule) throws IOException {
    g.writeStartObject();
    g.writeStringField("id", rule.id());
    g.writeStringField("name", camel(rule.id()));
    g.writeObjectFieldStart("shortDescription");
    g.writeStringField("text", rule.what());
    g.writeEndObject();
    g.writeObjectFieldStart("help");
    g.writeStringField(
        "text", "docs/lint.md, section " + rule.id() + ": why it matters and the fix.");
    g.writeEndObject();
    g.writeObjectFieldStart("defaultConfiguration");
    g.writeStringField("level", level(rule.severity()));
    g.writeEndObject();
    g.writeEndObject();
  }

  private static void result(JsonGenerator g, Finding f, Integer ruleIndex) throws IOException {
    g.writeStartObject();
    g.writeStringField("ruleId", f.id());
    if (ruleIndex != null) {
      g.writeNumberField("ruleIndex", ruleIndex);
    }
    g.writeStringField("level", level(f.severity()));
    message(g, f.title() + ". " + f.explanation() + " Fix: " + f.fix());
    List<Evidence> ev = f.evidence();
    g.writeArrayFieldStart("locations");
    if (!ev.isEmpty()) {
      location(g, ev.get(0), null);
    }
    g.writeEndArray();
    if (ev.size() > 1) {
      g.writeArrayFieldStart("relatedLocations");
      for (int i = 1; i < ev.size(); i++) {
        location(g, ev.get(i), i);
      }
      g.writeEndArray();
    }
    g.writeObjectFieldStart("properties");
    g.writeStringField("title", f.title());
    g.writeStringField("fix", f.fix());
    g.writeEndObject();
    g.writeEndObject();
  }

  private static void location(JsonGenerator g, Evidence e, Integer id) throws IOException {
    g.writeStartObject();
    if (id != null) {
      g.writeNumberField("id", id);
    }
    g.writeObjectFieldStart("physicalLocation");
    g.writeObjectFieldStart("artifactLocation");
    Path p = Path.of(e.file());
    if (p.isAbsolute()) {
      g.writeStringField("uri", p.toUri().toString());
    } else {
      g.writeStringField("uri", relative(e.file()));
      g.writeStringField("uriBaseId", "%SRCROOT%");
    }
    g.writeEndObject();
    if (e.line() > 0) {
      g.writeObjectFieldStart("region");
      g.writeNumberField("startLine", e.line());
      g.writeObjectFieldStart("snippet");
      g.writeStringField("text", e.text());
      g.writeEndObject();
      g.writeEndObject();
    }
    g.writeEndObject();
    g.writeEndObject();
  }

  private static void message(JsonGenerator g, String text) throws IOException {
    g.writeObjectFieldStart("message");
    g.writeStringField("text", text);
    g.writeEndObject();
  }

  /** A relative path as a URI reference: forward slashes, characters escaped. */
  static String relative(String file) {
    try {
      return new URI(null, null, file.replace('\\', '/'), null).toASCIIString();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(file, e);
    }
  }

  static String level(Severity s) {
    return switch (s) {
      case ERROR -> "error";
      case WARN -> "warning";
      case INFO -> "note";
    };
  }

  private static String camel(String id) {
    StringBuilder b = new StringBuilder();
    for (String part : id.split("-")) {
      b.append(part.substring(0, 1).toUpperCase(Locale.ROOT)).append(part.substring(1));
    }
    return b.toString();
  }
}
