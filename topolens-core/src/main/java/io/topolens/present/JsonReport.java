package io.topolens.present;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.topolens.diagnose.Diagnosis;
import io.topolens.diagnose.Finding;
import io.topolens.model.CollectiveTimeout;
import io.topolens.model.Communicator;
import io.topolens.model.Edge;
import io.topolens.model.EnvSetting;
import io.topolens.model.Evidence;
import io.topolens.model.GdrStatus;
import io.topolens.model.InputFile;
import io.topolens.model.Interface;
import io.topolens.model.Job;
import io.topolens.model.LineSample;
import io.topolens.model.Member;
import io.topolens.model.NcclFailure;
import io.topolens.model.NcclWarning;
import io.topolens.model.NetPluginEvent;
import io.topolens.model.PathDetail;
import io.topolens.model.Rank;
import io.topolens.model.Tree;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The JSON form of a diagnosis, written as a stream (docs/json.md documents every field). Edges are
 * written one per channel, as NCCL printed them, unless {@code foldChannels} asks for one per
 * folded edge with a {@code channels} list.
 */
public final class JsonReport {
  /** Version of the document's shape; bumped on incompatible changes. */
  public static final int SCHEMA = 1;

  private final boolean foldChannels;

  public JsonReport(boolean foldChannels) {
    this.foldChannels = foldChannels;
  }

  /**
   * Writes the document to {@code out} as UTF-8, with Jackson's byte generator (no character
   * encoder between it and the stream: a 4096-rank job's document is tens of megabytes), and
   * flushes it; {@code out} stays open. No line break follows the document (the generator used to
   * close standard output before the command's line break, so documents have always ended at their
   * brace).
   */
  public void write(Diagnosis d, OutputStream out) throws IOException {
    write(d.job(), () -> d, out);
  }

  /**
   * Writes the document of a diagnosis still being made: the inputs, the job and its communicators
   * (most of a big job's document) need no finding, so they are written while the rules run
   * elsewhere ({@link io.topolens.diagnose.Diagnoser#diagnoseAside}), and {@code judged} is asked
   * for the diagnosis of {@code job} only when its findings come. The bytes are those of {@link
   * #write(Diagnosis, OutputStream)}.
   */
  public void write(Job job, Supplier<Diagnosis> judged, OutputStream out) throws IOException {
    try (JsonGenerator g =
        new JsonFactory()
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .createGenerator(out, JsonEncoding.UTF8)) {
      g.setPrettyPrinter(LineIndenter.printer());
      g.writeStartObject();
      g.writeNumberField("schema", SCHEMA);
      inputs(job, g);
      job(job, g);
      g.writeArrayFieldStart("communicators");
      for (Communicator c : job.communicators()) {
        communicator(job, c, g);
      }
      g.writeEndArray();
      Diagnosis d = judged.get();
      g.writeArrayFieldStart("findings");
      for (Finding f : d.findings()) {
        JsonFields.finding(g, f);
      }
      g.writeEndArray();
      sample(g, "unrecognized", job.unrecognized());
      sample(g, "malformed", job.malformed());
      StepsReport.json(g, d.steps());
      g.writeArrayFieldStart("beside");
      for (Diagnosis.Beside b : d.beside()) {
        g.writeStartObject();
        g.writeStringField("file", b.file());
        g.writeStringField("kind", b.kind());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
  }

  private static void inputs(Job job, JsonGenerator g) throws IOException {
    g.writeArrayFieldStart("inputs");
    for (InputFile f : job.inputs()) {
      g.writeStartObject();
      g.writeStringField("file", f.name());
      g.writeNumberField("lines", f.lines());
      g.writeNumberField("ncclLines", f.ncclLines());
      g.writeStringField("problem", f.problem());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static void job(Job job, JsonGenerator g) throws IOException {
    g.writeObjectFieldStart("job");
    g.writeNumberField("rankCount", job.ranks().size());
    g.writeArrayFieldStart("hosts");
    Map<String, Long> contexts = new HashMap<>();
    for (Rank r : job.ranks()) {
      contexts.merge(r.id().host(), 1L, Long::sum);
    }
    for (String h : job.hosts()) {
      g.writeStartObject();
      g.writeStringField("host", h);
      g.writeStringField("node", job.node(h));
      g.writeNumberField("gpuContexts", contexts.getOrDefault(h, 0L));
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("ncclVersions");
    for (String v : job.ncclVersions()) {
      g.writeString(v);
    }
    g.writeEndArray();
    g.writeArrayFieldStart("ranks");
    for (Rank r : job.ranks()) {
      g.writeStartObject();
      g.writeStringField("host", r.id().host());
      g.writeNumberField("pid", r.id().pid());
      g.writeNumberField("cudaDev", r.id().cudaDev());
      if (r.nvmlDev() >= 0) {
        g.writeNumberField("nvmlDev", r.nvmlDev());
      }
      g.writeStringField("busId", r.busId());
      g.writeStringField("ncclVersion", r.ncclVersion());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("netPlugins");
    for (NetPluginEvent p : job.netPlugins()) {
      g.writeStartObject();
      g.writeStringField("process", p.process());
      g.writeStringField("plugin", p.plugin());
      g.writeStringField("outcome", p.outcome().name().toLowerCase(Locale.ROOT));
      evidence(g, "evidence", p.evidence());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("env");
    for (EnvSetting e : job.env()) {
      g.writeStartObject();
      g.writeStringField("name", e.name());
      g.writeStringField("value", e.value());
      g.writeNumberField("processes", e.processes());
      evidence(g, "evidence", e.evidence());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("interfaces");
    for (Interface i : job.interfaces()) {
      g.writeStartObject();
      g.writeStringField("process", i.process());
      g.writeStringField("role", i.role().name().toLowerCase(Locale.ROOT));
      g.writeStringField("name", i.name());
      g.writeStringField("address", i.address());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("gdr");
    for (GdrStatus s : job.gdr()) {
      g.writeStartObject();
      g.writeStringField("process", s.process());
      g.writeStringField("transport", s.transport());
      g.writeStringField("hca", s.hca());
      g.writeBooleanField("enabled", s.enabled());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("warnings");
    for (NcclWarning w : job.warnings()) {
      g.writeStartObject();
      g.writeStringField("kind", w.kind().name().toLowerCase(Locale.ROOT));
      g.writeStringField("message", w.message());
      g.writeNumberField("count", w.count());
      g.writeNumberField("processes", w.processes());
      evidence(g, "evidence", w.evidence());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("failures");
    for (NcclFailure f : job.failures()) {
      g.writeStartObject();
      g.writeNumberField("rank", f.rank());
      g.writeStringField("result", f.result());
      g.writeStringField("detail", f.detail());
      g.writeStringField("ncclVersion", f.ncclVersion());
      g.writeNumberField("count", f.count());
      evidence(g, "evidence", f.evidence());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("timeouts");
    for (CollectiveTimeout t : job.timeouts()) {
      g.writeStartObject();
      g.writeNumberField("rank", t.rank());
      g.writeNumberField("seq", t.seq());
      g.writeStringField("op", t.op());
      g.writeNumberField("numelIn", t.numelIn());
      g.writeNumberField("numelOut", t.numelOut());
      g.writeNumberField("timeoutMs", t.timeoutMs());
      g.writeNumberField("ranForMs", t.ranForMs());
      evidence(g, "evidence", t.evidence());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private void communicator(Job job, Communicator c, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("key", c.key());
    g.writeStringField("commId", c.commId());
    g.writeNumberField("nRanks", c.nRanks());
    g.writeNumberField("nNodes", c.nNodes());
    g.writeNumberField(
        "nodesByHostname",
        c.members().values().stream().map(m -> job.node(m.id().host())).distinct().count());
    g.writeStringField("parent", c.parentKey());
    if (c.pxn() != null) {
      g.writeBooleanField("pxn", c.pxn());
    }
    if (c.gdr() != null) {
      g.writeBooleanField("gdr", c.gdr());
    }
    g.writeArrayFieldStart("members");
    for (Member m : c.members().values()) {
      g.writeStartObject();
      g.writeNumberField("rank", m.rank());
      g.writeStringField("host", m.id().host());
      g.writeNumberField("pid", m.id().pid());
      g.writeNumberField("cudaDev", m.id().cudaDev());
      g.writeNumberField("localRanks", m.localRanks());
      g.writeBooleanField("initStarted", m.initStarted());
      g.writeBooleanField("initCompleted", m.initCompleted());
      number(g, "bootstrapSeconds", m.bootstrapSeconds());
      number(g, "initSeconds", m.initSeconds());
      g.writeStringField("network", m.network());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("rings");
    for (Map.Entry<Integer, List<Integer>> r : c.rings().entrySet()) {
      g.writeStartObject();
      g.writeNumberField("channel", r.getKey());
      g.writeArrayFieldStart("order");
      for (int rank : r.getValue()) {
        g.writeNumber(rank);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("trees");
    for (Tree t : c.trees()) {
      g.writeStartObject();
      g.writeNumberField("channel", t.channel());
      g.writeNumberField("rank", t.rank());
      g.writeNumberField("parent", t.parent());
      g.writeArrayFieldStart("children");
      for (int child : t.children()) {
        g.writeNumber(child);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("edges");
    for (Edge e : c.edges()) {
      String placement = TransportMap.placement(job, c, e).label();
      if (foldChannels) {
        edge(g, e, placement, -1);
      } else {
        for (int ch : e.channels()) {
          edge(g, e, placement, ch);
        }
      }
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private void edge(JsonGenerator g, Edge e, String placement, int channel) throws IOException {
    g.writeStartObject();
    g.writeNumberField("from", e.from());
    g.writeNumberField("to", e.to());
    if (channel >= 0) {
      g.writeNumberField("channel", channel);
    } else {
      g.writeArrayFieldStart("channels");
      for (int ch : e.channels()) {
        g.writeNumber(ch);
      }
      g.writeEndArray();
    }
    g.writeStringField("direction", e.direction().name().toLowerCase(Locale.ROOT));
    g.writeStringField("transport", e.transport().name());
    g.writeStringField("detail", e.path().raw());
    g.writeStringField("placement", placement);
    switch (e.path()) {
      case PathDetail.Net n -> {
        g.writeObjectFieldStart("net");
        g.writeStringField("plugin", n.plugin());
        if (n.device() != null) {
          g.writeNumberField("device", n.device());
        }
        if (n.proxyRank() != null) {
          g.writeNumberField("proxyRank", n.proxyRank());
        }
        g.writeBooleanField("gdr", n.gdr());
        g.writeBooleanField("shared", n.shared());
        g.writeEndObject();
      }
      case PathDetail.P2p p -> {
        g.writeObjectFieldStart("p2p");
        g.writeStringField("mode", p.mode().name().toLowerCase(Locale.ROOT));
        g.writeBooleanField("read", p.read());
        g.writeBooleanField("copyEngine", p.copyEngine());
        if (p.viaRank() != null) {
          g.writeNumberField("viaRank", p.viaRank());
        }
        g.writeEndObject();
      }
      default -> {}
    }
    evidence(g, "evidence", e.evidence());
    g.writeEndObject();
  }

  private static void number(JsonGenerator g, String name, double v) throws IOException {
    if (Double.isNaN(v)) {
      g.writeNullField(name);
    } else {
      g.writeNumberField(name, v);
    }
  }

  private static void sample(JsonGenerator g, String name, LineSample s) throws IOException {
    g.writeObjectFieldStart(name);
    g.writeNumberField("count", s.count());
    JsonFields.evidenceArray(g, "samples", s.samples());
    g.writeEndObject();
  }

  private static void evidence(JsonGenerator g, String name, Evidence e) throws IOException {
    if (e == null) {
      return;
    }
    g.writeFieldName(name);
    JsonFields.evidence(g, e);
  }
}
