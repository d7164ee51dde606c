package io.topolens.kube.run;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes what a run learned beside the logs: {@code nodes.txt} (hostname and node per line, the
 * {@code --node-map} format of diagnose) and {@code run.json} (job, outcome, every pod with its
 * node, logs and exit codes, and which pods shared a node).
 */
public final class RunRecords {
  private RunRecords() {}

  /** Writes {@code nodes.txt} into {@code dir}: the hostname and node of every scheduled pod. */
  public static Path nodeMap(Path dir, List<PodRecord> pods) throws IOException {
    StringBuilder sb =
        new StringBuilder(
            "# pod hostname (as NCCL prints it) and the node it ran on; topolens diagnose --node-map reads it\n");
    for (PodRecord p : pods) {
      if (p.node() != null) {
        sb.append(p.hostname()).append(' ').append(p.node()).append('\n');
      }
    }
    Path f = dir.resolve("nodes.txt");
    Files.writeString(f, sb.toString(), StandardCharsets.UTF_8);
    return f;
  }

  static void json(
      Path dir,
      Submission s,
      String namespace,
      RunOutcome.Status status,
      String message,
      List<PodRecord> pods)
      throws IOException {
    try (Writer w = Files.newBufferedWriter(dir.resolve("run.json"), StandardCharsets.UTF_8);
        JsonGenerator g = new JsonFactory().createGenerator(w)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeNumberField("schema", 1);
      g.writeObjectFieldStart("job");
      g.writeStringField("apiVersion", s.kind().apiVersion());
      g.writeStringField("kind", s.kind().kind());
      g.writeStringField("name", s.name());
      g.writeStringField("namespace", namespace);
      g.writeEndObject();
      g.writeStringField("outcome", status.label());
      g.writeStringField("message", message);
      g.writeArrayFieldStart("pods");
      for (PodRecord p : pods) {
        g.writeStartObject();
        g.writeStringField("name", p.name());
        g.writeStringField("hostname", p.hostname());
        g.writeStringField("node", p.node());
        g.writeStringField("phase", p.phase());
        g.writeStringField("problem", p.problem());
        g.writeObjectFieldStart("logs");
        for (var e : p.logs().entrySet()) {
          g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        g.writeObjectFieldStart("exitCodes");
        for (var e : p.exitCodes().entrySet()) {
          g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeObjectFieldStart("sharedNodes");
      for (Map.Entry<String, List<String>> e : PodRecord.shared(pods).entrySet()) {
        g.writeArrayFieldStart(e.getKey());
        for (String p : e.getValue()) {
          g.writeString(p);
        }
        g.writeEndArray();
      }
      g.writeEndObject();
      g.writeEndObject();
    }
  }
}
