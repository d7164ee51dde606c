package io.topolens.kube.present;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.topolens.diagnose.Finding;
import io.topolens.kube.lint.LintResult;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Resources;
import io.topolens.kube.model.Workload;
import io.topolens.present.JsonFields;
import java.io.IOException;
import java.io.Writer;

/** {@code topolens lint --format json}; the shape is documented in docs/lint.md. */
public final class LintJsonReport {
  /** Version of the document's shape; bumped on incompatible changes. */
  public static final int SCHEMA = 1;

  public void write(LintResult r, Writer w) throws IOException {
    try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeNumberField("schema", SCHEMA);
      g.writeArrayFieldStart("files");
      for (String f : r.files()) {
        g.writeString(f);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("workloads");
      for (Workload wl : r.workloads()) {
        workload(g, wl);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("skipped");
      for (Located<String> s : r.skipped()) {
        g.writeStartObject();
        g.writeStringField("what", s.value());
        g.writeStringField("file", s.evidence().file());
        g.writeNumberField("line", s.evidence().line());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("findings");
      for (Finding f : r.findings()) {
        JsonFields.finding(g, f);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("problems");
      for (String p : r.problems()) {
        g.writeString(p);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
  }

  private static void workload(JsonGenerator g, Workload w) throws IOException {
    g.writeStartObject();
    g.writeStringField("kind", w.kind().kind());
    g.writeStringField("apiVersion", w.kind().apiVersion());
    g.writeStringField("name", w.name());
    g.writeStringField("file", w.evidence().file());
    g.writeNumberField("line", w.evidence().line());
    g.writeArrayFieldStart("groups");
    for (PodGroup p : w.groups()) {
      g.writeStartObject();
      g.writeStringField("role", p.role());
      if (p.count().isPresent()) {
        g.writeNumberField("replicas", p.count().getAsInt());
      } else {
        g.writeNullField("replicas");
      }
      g.writeBooleanField("ranks", p.ranks());
      if (p.pod().gpus().isPresent()) {
        g.writeNumberField("gpusPerPod", p.pod().gpus().get());
      } else {
        g.writeNullField("gpusPerPod");
      }
      var efa = p.pod().main().flatMap(c -> c.resources().count(Resources.EFA));
      if (efa.isPresent()) {
        g.writeNumberField("efaPerPod", efa.get());
      } else {
        g.writeNullField("efaPerPod");
      }
      g.writeArrayFieldStart("instanceTypes");
      for (Located<String> t : p.pod().instanceTypes()) {
        g.writeString(t.value());
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }
}
