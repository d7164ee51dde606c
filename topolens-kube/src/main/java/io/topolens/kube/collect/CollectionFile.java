package io.topolens.kube.collect;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.kube.run.PodRecord;
import io.topolens.model.NodeFacts;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code collect.json}: a {@link Collection} on disk, so that {@code topolens diagnose DIR} repeats
 * the diagnosis offline with the same node map and hardware. The shape is in docs/kubernetes.md.
 */
public final class CollectionFile {
  /** Version of the file's shape; bumped on incompatible changes. */
  public static final int SCHEMA = 1;

  private CollectionFile() {}

  public static void write(Collection c) throws IOException {
    try (Writer w =
            Files.newBufferedWriter(c.dir().resolve(Collection.FILE), StandardCharsets.UTF_8);
        JsonGenerator g = new JsonFactory().createGenerator(w)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeNumberField("schema", SCHEMA);
      g.writeStringField("job", c.job());
      g.writeStringField("namespace", c.namespace());
      g.writeStringField("selector", c.selector());
      g.writeNumberField("logs", c.logs());
      g.writeNumberField("bytes", c.bytes());
      g.writeArrayFieldStart("pods");
      for (PodRecord p : c.pods()) {
        p.write(g);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("nodes");
      for (NodeFacts n : c.nodes()) {
        g.writeStartObject();
        g.writeStringField("name", n.name());
        g.writeStringField("instanceType", n.instanceType());
        if (n.gpus() != null) {
          g.writeNumberField("gpus", n.gpus());
        }
        if (n.efa() != null) {
          g.writeNumberField("efa", n.efa());
        }
        if (n.zone() != null) {
          g.writeStringField("zone", n.zone());
        }
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("gone");
      for (GoneLog l : c.gone()) {
        g.writeStartObject();
        g.writeStringField("pod", l.pod());
        g.writeStringField("container", l.container());
        g.writeStringField("reason", l.reason());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
  }

  /** The collection saved in {@code dir}, or empty when {@code dir} holds none. */
  public static Optional<Collection> read(Path dir) throws InputProblem {
    Path f = dir.resolve(Collection.FILE);
    if (!Files.isDirectory(dir) || !Files.isRegularFile(f)) {
      return Optional.empty();
    }
    JsonNode j;
    try {
      j = new ObjectMapper().readTree(f.toFile());
    } catch (IOException e) {
      throw new InputProblem(f + ": cannot read the saved collection: " + e.getMessage());
    }
    if (j.path("schema").asInt() != SCHEMA) {
      throw new InputProblem(
          f
              + ": schema "
              + j.path("schema").asText("?")
              + " is not "
              + SCHEMA
              + " (another topolens)");
    }
    List<PodRecord> pods = new ArrayList<>();
    for (JsonNode p : j.path("pods")) {
      Map<String, String> logs = new LinkedHashMap<>();
      p.path("logs").properties().forEach(e -> logs.put(e.getKey(), e.getValue().asText()));
      Map<String, Integer> codes = new LinkedHashMap<>();
      p.path("exitCodes").properties().forEach(e -> codes.put(e.getKey(), e.getValue().asInt()));
      pods.add(
          new PodRecord(
              p.path("name").asText(),
              p.path("hostname").asText(),
              text(p, "node"),
              text(p, "phase"),
              logs,
              codes,
              text(p, "problem"),
              p.path("efa").asInt(0)));
    }
    List<NodeFacts> nodes = new ArrayList<>();
    for (JsonNode n : j.path("nodes")) {
      nodes.add(
          new NodeFacts(
              n.path("name").asText(),
              text(n, "instanceType"),
              n.has("gpus") ? n.get("gpus").asInt() : null,
              n.has("efa") ? n.get("efa").asInt() : null,
              text(n, "zone")));
    }
    List<GoneLog> gone = new ArrayList<>();
    for (JsonNode l : j.path("gone")) {
      gone.add(
          new GoneLog(l.path("pod").asText(), l.path("container").asText(), text(l, "reason")));
    }
    return Optional.of(
        new Collection(
            dir,
            text(j, "job"),
            text(j, "namespace"),
            text(j, "selector"),
            pods,
            nodes,
            gone,
            j.path("logs").asInt(),
            j.path("bytes").asLong()));
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
