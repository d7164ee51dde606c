package io.topolens.present;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.topolens.catalog.Source;
import io.topolens.perf.Cluster;
import io.topolens.perf.CollectiveUse;
import io.topolens.perf.CommGroup;
import io.topolens.perf.Comparison;
import io.topolens.perf.Input;
import io.topolens.perf.Link;
import io.topolens.perf.Prediction;
import io.topolens.perf.Protocol;
import io.topolens.perf.Term;
import io.topolens.perf.Workload;
import java.io.IOException;
import java.io.Writer;
import java.util.Locale;

/** Predictions and comparisons as JSON (docs/json.md, "predict" and "compare"). */
public final class PerfJson {
  /** Version of the documents' shape. */
  public static final int SCHEMA = 1;

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public void write(Prediction p, Writer w) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("schema", SCHEMA);
    root.put("kind", "prediction");
    prediction(p, root);
    JSON.writeValue(w, root);
  }

  public void write(Comparison c, Writer w) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("schema", SCHEMA);
    root.put("kind", "comparison");
    root.put("best", c.rows().get(c.best()).prediction().scenario().name());
    ArrayNode rows = root.putArray("rows");
    for (Comparison.Row r : c.rows()) {
      ObjectNode o = rows.addObject();
      o.put("name", r.prediction().scenario().name());
      o.put("stepSeconds", r.prediction().stepS());
      o.put("jobSeconds", r.prediction().jobS());
      o.put("ratio", r.ratio());
      if (r.ratioWithoutOffload() != null) {
        o.put("ratioWithoutOffload", r.ratioWithoutOffload());
      } else {
        o.putNull("ratioWithoutOffload");
      }
      o.put("reason", r.reason());
      prediction(r.prediction(), o.putObject("prediction"));
    }
    ArrayNode notes = root.putArray("notes");
    c.notes().forEach(notes::add);
    JSON.writeValue(w, root);
  }

  private static void prediction(Prediction p, ObjectNode o) {
    o.put("name", p.scenario().name());
    o.put("stepSeconds", p.stepS());
    o.put("jobSeconds", p.jobS());
    o.put("bottleneck", p.bottleneck());
    configuration(p, o.putObject("configuration"));
    communicator(p.group(), o.putObject("communicator"));
    ArrayNode terms = o.putArray("breakdown");
    for (Term t : p.terms()) {
      ObjectNode n = terms.addObject();
      n.put("kind", t.kind().name().toLowerCase(Locale.ROOT));
      n.put("label", t.label());
      n.put("seconds", t.seconds());
      n.put("detail", t.detail());
    }
    ArrayNode colls = o.putArray("collectives");
    for (CollectiveUse u : p.collectives()) {
      ObjectNode n = colls.addObject();
      n.put("op", u.op().label());
      n.put("purpose", u.purpose());
      n.put("callsPerStep", u.callsPerStep());
      n.put("bytesPerCall", u.perCall().bytes());
      n.put("algorithm", u.perCall().algorithm().name().toLowerCase(Locale.ROOT));
      n.put("protocol", u.perCall().protocol().name().toLowerCase(Locale.ROOT));
      n.put("secondsPerCall", u.perCall().seconds());
      n.put("seconds", u.seconds());
      n.put("exposedSeconds", u.exposedSeconds());
      n.put("busGB", u.busGB());
      if (u.perCall().bottleneck() != null) {
        n.put("path", u.perCall().bottleneck().id());
      } else {
        n.putNull("path");
      }
    }
    strings(o.putArray("explanations"), p.explanations());
    strings(o.putArray("assumptions"), p.assumptions());
    strings(o.putArray("warnings"), p.warnings());
    ArrayNode inputs = o.putArray("inputs");
    for (Input i : p.inputs()) {
      ObjectNode n = inputs.addObject();
      n.put("name", i.name());
      n.put("value", i.value());
      strings(n.putArray("sources"), i.sources());
    }
    ArrayNode sources = o.putArray("sources");
    for (Source s : p.sources()) {
      ObjectNode n = sources.addObject();
      n.put("key", s.key());
      n.put("title", s.title());
      n.put("url", s.url());
    }
  }

  private static void configuration(Prediction p, ObjectNode o) {
    Workload w = p.scenario().workload();
    Cluster c = p.scenario().cluster();
    o.put("model", w.model().name());
    o.put("params", w.model().params());
    o.put("layers", w.model().layers());
    o.put("hidden", w.model().hidden());
    o.put("seq", w.seq());
    o.put("microBatch", w.microBatch());
    o.put("gradAccum", w.gradAccum());
    o.put("steps", w.steps());
    o.put("strategy", w.strategy().label());
    o.put("precision", w.precision().name().toLowerCase(Locale.ROOT));
    o.put("reduceDtype", w.reduce().name().toLowerCase(Locale.ROOT));
    o.put("checkpointing", w.checkpointing());
    o.put("offload", w.offload().label());
    if (w.mfu() != null) {
      o.put("mfu", w.mfu());
    } else {
      o.putNull("mfu");
    }
    o.put("overheadSeconds", w.overheadS());
    o.put("startupSeconds", w.startupS());
    o.put("instance", c.instance());
    o.put("nodes", c.nodes());
    o.put("layout", c.layout());
    o.put("ranks", c.ranks());
    if (c.network() != null) {
      o.put("network", c.network().id());
    } else {
      o.putNull("network");
    }
    if (c.intra() != null) {
      o.put("intra", c.intra().id());
    } else {
      o.putNull("intra");
    }
  }

  private static void communicator(CommGroup g, ObjectNode o) {
    o.put("ranks", g.ranks());
    o.put("nodes", g.nodes());
    o.put("ranksPerNode", g.ranksPerNode());
    link(g.intra(), o, "intra");
    link(g.inter(), o, "inter");
    ArrayNode protos = o.putArray("protocols");
    for (Protocol p : g.protocols()) {
      protos.add(p.name().toLowerCase(Locale.ROOT));
    }
  }

  private static void link(Link l, ObjectNode parent, String field) {
    if (l == null) {
      parent.putNull(field);
      return;
    }
    ObjectNode o = parent.putObject(field);
    o.put("path", l.path().id());
    o.put("busBwGBps", l.busBwGBps());
    o.put("channels", l.channels());
    if (l.hopLatencyUs() != null) {
      o.put("hopLatencyUs", l.hopLatencyUs());
    } else {
      o.putNull("hopLatencyUs");
    }
    o.put("calibrated", l.calibrated());
    o.put("basis", l.basis());
    strings(o.putArray("sources"), l.sources());
  }

  private static void strings(ArrayNode a, java.util.List<String> l) {
    l.forEach(a::add);
  }
}
