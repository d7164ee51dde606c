package io.topolens.present;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
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

  /**
   * The names of the fields written once per rank, member, host or edge, encoded once: a name given
   * as a {@code String} is converted and escaped at every field (a 4096-rank job's document has
   * millions of them).
   */
  private static final SerializedString PARENT = new SerializedString("parent");

  private static final SerializedString CHILDREN = new SerializedString("children");
  private static final SerializedString ORDER = new SerializedString("order");
  private static final SerializedString CHANNELS = new SerializedString("channels");

  private static final SerializedString EVIDENCE = new SerializedString("evidence");
  private static final SerializedString NET = new SerializedString("net");
  private static final SerializedString P2P = new SerializedString("p2p");
  private static final SerializedString HOST = new SerializedString("host");
  private static final SerializedString NODE = new SerializedString("node");
  private static final SerializedString GPU_CONTEXTS = new SerializedString("gpuContexts");
  private static final SerializedString PID = new SerializedString("pid");
  private static final SerializedString CUDA_DEV = new SerializedString("cudaDev");
  private static final SerializedString NVML_DEV = new SerializedString("nvmlDev");
  private static final SerializedString BUS_ID = new SerializedString("busId");
  private static final SerializedString NCCL_VERSION = new SerializedString("ncclVersion");
  private static final SerializedString RANK = new SerializedString("rank");
  private static final SerializedString LOCAL_RANKS = new SerializedString("localRanks");
  private static final SerializedString INIT_STARTED = new SerializedString("initStarted");
  private static final SerializedString INIT_COMPLETED = new SerializedString("initCompleted");
  private static final SerializedString BOOTSTRAP_SECONDS =
      new SerializedString("bootstrapSeconds");
  private static final SerializedString INIT_SECONDS = new SerializedString("initSeconds");
  private static final SerializedString NETWORK = new SerializedString("network");
  private static final SerializedString FROM = new SerializedString("from");
  private static final SerializedString TO = new SerializedString("to");
  private static final SerializedString CHANNEL = new SerializedString("channel");
  private static final SerializedString DIRECTION = new SerializedString("direction");
  private static final SerializedString TRANSPORT = new SerializedString("transport");
  private static final SerializedString DETAIL = new SerializedString("detail");
  private static final SerializedString PLACEMENT = new SerializedString("placement");
  private static final SerializedString PLUGIN = new SerializedString("plugin");
  private static final SerializedString DEVICE = new SerializedString("device");
  private static final SerializedString PROXY_RANK = new SerializedString("proxyRank");
  private static final SerializedString GDR = new SerializedString("gdr");
  private static final SerializedString SHARED = new SerializedString("shared");
  private static final SerializedString MODE = new SerializedString("mode");
  private static final SerializedString READ = new SerializedString("read");
  private static final SerializedString COPY_ENGINE = new SerializedString("copyEngine");
  private static final SerializedString VIA_RANK = new SerializedString("viaRank");

  private final boolean foldChannels;

  private static void field(JsonGenerator g, SerializedString name, long v) throws IOException {
    g.writeFieldName(name);
    g.writeNumber(v);
  }

  private static void field(JsonGenerator g, SerializedString name, String v) throws IOException {
    g.writeFieldName(name);
    g.writeString(v);
  }

  private static void field(JsonGenerator g, SerializedString name, boolean v) throws IOException {
    g.writeFieldName(name);
    g.writeBoolean(v);
  }

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
   * #write(Diagnosis, OutputStream)}. What {@code judged} throws is thrown again, the document left
   * unterminated (no parser takes it for a whole one).
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
      Diagnosis d;
      try {
        d = judged.get();
      } catch (RuntimeException | Error e) {
        // left open: a document closed here would parse as a diagnosis without findings
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT);
        throw e;
      }
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
      field(g, HOST, h);
      field(g, NODE, job.node(h));
      field(g, GPU_CONTEXTS, contexts.getOrDefault(h, 0L));
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
      rank(g, r);
    }
    g.writeEndArray();
    g.writeArrayFieldStart("netPlugins");
    for (NetPluginEvent p : job.netPlugins()) {
      netPlugin(g, p);
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
      iface(g, i);
    }
    g.writeEndArray();
    g.writeArrayFieldStart("gdr");
    for (GdrStatus s : job.gdr()) {
      gdr(g, s);
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

  // One method per element of the job's long lists (a 4096-rank job's document has tens of
  // thousands of each): a loop that runs once is interpreted until the JIT replaces it while it
  // runs, a method called per element is compiled after a few hundred calls, so only the loop's
  // own call per element stays interpreted (docs/performance.md, eleventh pass).

  private static void rank(JsonGenerator g, Rank r) throws IOException {
    g.writeStartObject();
    field(g, HOST, r.id().host());
    field(g, PID, r.id().pid());
    field(g, CUDA_DEV, r.id().cudaDev());
    if (r.nvmlDev() >= 0) {
      field(g, NVML_DEV, r.nvmlDev());
    }
    field(g, BUS_ID, r.busId());
    field(g, NCCL_VERSION, r.ncclVersion());
    g.writeEndObject();
  }

  private static void netPlugin(JsonGenerator g, NetPluginEvent p) throws IOException {
    g.writeStartObject();
    g.writeStringField("process", p.process());
    g.writeStringField("plugin", p.plugin());
    g.writeStringField("outcome", p.outcome().name().toLowerCase(Locale.ROOT));
    evidence(g, "evidence", p.evidence());
    g.writeEndObject();
  }

  private static void iface(JsonGenerator g, Interface i) throws IOException {
    g.writeStartObject();
    g.writeStringField("process", i.process());
    g.writeStringField("role", i.role().name().toLowerCase(Locale.ROOT));
    g.writeStringField("name", i.name());
    g.writeStringField("address", i.address());
    g.writeEndObject();
  }

  private static void gdr(JsonGenerator g, GdrStatus s) throws IOException {
    g.writeStartObject();
    g.writeStringField("process", s.process());
    g.writeStringField("transport", s.transport());
    g.writeStringField("hca", s.hca());
    g.writeBooleanField("enabled", s.enabled());
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
      member(g, m);
    }
    g.writeEndArray();
    g.writeArrayFieldStart("rings");
    for (Map.Entry<Integer, List<Integer>> r : c.rings().entrySet()) {
      g.writeStartObject();
      field(g, CHANNEL, r.getKey());
      g.writeFieldName(ORDER);
      g.writeStartArray();
      for (int rank : r.getValue()) {
        g.writeNumber(rank);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("trees");
    for (Tree t : c.trees()) {
      tree(g, t);
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

  private static void member(JsonGenerator g, Member m) throws IOException {
    g.writeStartObject();
    field(g, RANK, m.rank());
    field(g, HOST, m.id().host());
    field(g, PID, m.id().pid());
    field(g, CUDA_DEV, m.id().cudaDev());
    field(g, LOCAL_RANKS, m.localRanks());
    field(g, INIT_STARTED, m.initStarted());
    field(g, INIT_COMPLETED, m.initCompleted());
    number(g, BOOTSTRAP_SECONDS, m.bootstrapSeconds());
    number(g, INIT_SECONDS, m.initSeconds());
    field(g, NETWORK, m.network());
    g.writeEndObject();
  }

  private static void tree(JsonGenerator g, Tree t) throws IOException {
    g.writeStartObject();
    field(g, CHANNEL, t.channel());
    field(g, RANK, t.rank());
    field(g, PARENT, t.parent());
    g.writeFieldName(CHILDREN);
    g.writeStartArray();
    for (int child : t.children()) {
      g.writeNumber(child);
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private void edge(JsonGenerator g, Edge e, String placement, int channel) throws IOException {
    g.writeStartObject();
    field(g, FROM, e.from());
    field(g, TO, e.to());
    if (channel >= 0) {
      field(g, CHANNEL, channel);
    } else {
      g.writeFieldName(CHANNELS);
      g.writeStartArray();
      for (int ch : e.channels()) {
        g.writeNumber(ch);
      }
      g.writeEndArray();
    }
    field(g, DIRECTION, e.direction().name().toLowerCase(Locale.ROOT));
    field(g, TRANSPORT, e.transport().name());
    field(g, DETAIL, e.path().raw());
    field(g, PLACEMENT, placement);
    switch (e.path()) {
      case PathDetail.Net n -> {
        g.writeFieldName(NET);
        g.writeStartObject();
        field(g, PLUGIN, n.plugin());
        if (n.device() != null) {
          field(g, DEVICE, n.device());
        }
        if (n.proxyRank() != null) {
          field(g, PROXY_RANK, n.proxyRank());
        }
        field(g, GDR, n.gdr());
        field(g, SHARED, n.shared());
        g.writeEndObject();
      }
      case PathDetail.P2p p -> {
        g.writeFieldName(P2P);
        g.writeStartObject();
        field(g, MODE, p.mode().name().toLowerCase(Locale.ROOT));
        field(g, READ, p.read());
        field(g, COPY_ENGINE, p.copyEngine());
        if (p.viaRank() != null) {
          field(g, VIA_RANK, p.viaRank());
        }
        g.writeEndObject();
      }
      default -> {}
    }
    if (e.evidence() != null) {
      g.writeFieldName(EVIDENCE);
      JsonFields.evidence(g, e.evidence());
    }
    g.writeEndObject();
  }

  private static void number(JsonGenerator g, SerializedString name, double v) throws IOException {
    g.writeFieldName(name);
    if (Double.isNaN(v)) {
      g.writeNull();
    } else {
      g.writeNumber(v);
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
