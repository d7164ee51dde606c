package io.topolens.present;

import com.fasterxml.jackson.core.JsonGenerator;
import io.topolens.catalog.GpuSpec;
import io.topolens.ncclxml.NcclChannel;
import io.topolens.ncclxml.NcclGpu;
import io.topolens.ncclxml.NcclGraph;
import io.topolens.ncclxml.NcclGraphs;
import io.topolens.ncclxml.NcclNet;
import io.topolens.ncclxml.NcclNvlink;
import io.topolens.ncclxml.NcclTopology;
import io.topolens.smi.GpuAffinity;
import io.topolens.smi.GpuPair;
import io.topolens.smi.Link;
import io.topolens.smi.NicAffinity;
import io.topolens.smi.NvlinkSpeed;
import io.topolens.smi.NvlinkStatus;
import io.topolens.smi.P2pMatrix;
import io.topolens.smi.SmiGpu;
import io.topolens.smi.SmiReport;
import io.topolens.smi.TopoMatrix;
import io.topolens.verdict.LinkRates;
import io.topolens.verdict.Numbers;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders topology inputs: each topo -m matrix with its GPU pairs grouped by path and what each
 * path offers, NIC-GPU affinity, P2P capability matrices, and NCCL's topology and graph dumps.
 */
public final class TopoReport {
  private final List<SmiReport> smi;
  private final List<NcclTopology> topologies;
  private final List<NcclGraphs> graphs;
  private final GpuSpec gpu;

  /**
   * @param gpu the GPU model for rates (from --gpu/--instance or the nvidia-smi GPU names), or null
   */
  public TopoReport(
      List<SmiReport> smi, List<NcclTopology> topologies, List<NcclGraphs> graphs, GpuSpec gpu) {
    this.smi = smi;
    this.topologies = topologies;
    this.graphs = graphs;
    this.gpu = gpu;
  }

  // ------------------------------------------------------------------ text

  public void text(PrintWriter out) {
    for (SmiReport r : smi) {
      out.println(
          r.file()
              + ": nvidia-smi output"
              + (r.driverVersion() == null ? "" : ", driver " + r.driverVersion()));
      for (SmiGpu g : r.gpus()) {
        out.println(
            "  GPU"
                + g.index()
                + ": "
                + g.name()
                + (g.busId() == null ? "" : " [" + g.busId() + "]"));
      }
      for (TopoMatrix m : r.matrices()) {
        matrix(out, m);
      }
      for (P2pMatrix p : r.p2p()) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        p.statusCounts().forEach((k, v) -> counts.put(k.name(), v));
        out.println(
            "  topo -p2p "
                + p.mode().name().toLowerCase(Locale.ROOT)
                + ": "
                + counts
                + (p.notOk().isEmpty()
                    ? ""
                    : "; not OK: "
                        + String.join(
                            ", ",
                            p.notOk().stream()
                                .limit(8)
                                .map(x -> x.a() + "-" + x.b() + " " + x.status())
                                .toList())));
      }
      for (NvlinkStatus n : r.nvlinks()) {
        List<String> inactive =
            n.links().stream()
                .filter(l -> l.gbps() == null)
                .map(l -> String.valueOf(l.link()))
                .toList();
        out.println(
            "  nvlink -s GPU"
                + n.gpu()
                + ": "
                + n.active().size()
                + " of "
                + n.links().size()
                + " links active, "
                + Numbers.gbps(n.totalGbps())
                + " GB/s"
                + (inactive.isEmpty() ? "" : "; inactive: " + String.join(", ", inactive)));
      }
      if (r.malformed().count() > 0 || r.unrecognized().count() > 0) {
        out.println(
            "  "
                + r.malformed().count()
                + " malformed matrix row(s), "
                + r.unrecognized().count()
                + " unrecognized line(s)"
                + (r.malformed().samples().isEmpty()
                    ? ""
                    : "; e.g. " + r.malformed().samples().get(0)));
      }
      out.println();
    }
    for (NcclTopology t : topologies) {
      out.println(
          t.file()
              + ": NCCL topology dump"
              + (t.version() == null ? "" : " (version " + t.version() + ")"));
      for (NcclGpu g : t.gpus()) {
        out.println(
            "  GPU dev "
                + g.dev()
                + (g.rank() == null ? "" : " rank " + g.rank())
                + " bus "
                + g.busId()
                + (g.sm() == null ? "" : " sm " + g.sm())
                + (g.gdr() == null ? "" : " gdr " + g.gdr())
                + " NUMA "
                + g.cpuNumaId()
                + ": "
                + nvlinks(g));
      }
      for (NcclNet n : t.nets()) {
        out.println(
            "  NIC "
                + n.name()
                + " dev "
                + n.dev()
                + (n.speedGbps() == null ? "" : " " + Numbers.gbps(n.speedGbps()) + " Gb/s")
                + (n.gdr() == null ? "" : " gdr " + n.gdr())
                + " NUMA "
                + n.cpuNumaId());
      }
      out.println();
    }
    for (NcclGraphs gs : graphs) {
      out.println(gs.file() + ": NCCL graph dump");
      for (NcclGraph g : gs.graphs()) {
        out.println(
            String.format(
                Locale.ROOT,
                "  graph %d %s: %s channels, intra %s GB/s over %s, inter %s GB/s over %s",
                g.id(),
                g.algorithm(),
                g.nChannels(),
                g.speedIntra(),
                g.typeIntra(),
                g.speedInter(),
                g.typeInter()));
        for (NcclChannel c : g.channels().stream().limit(2).toList()) {
          out.println(
              "    channel "
                  + c.index()
                  + ": "
                  + String.join(
                      " > ",
                      c.devices().stream()
                          .map(d -> d.kind().name().toLowerCase(Locale.ROOT) + d.dev())
                          .toList()));
        }
      }
      out.println();
    }
    out.flush();
  }

  private void matrix(PrintWriter out, TopoMatrix m) {
    out.println("  topo -m: " + m.gpus().size() + " GPUs, " + m.nics().size() + " NICs");
    List<String> cols = new ArrayList<>(m.gpus());
    cols.addAll(m.nics());
    StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "    %-8s", ""));
    cols.forEach(c -> h.append(String.format(Locale.ROOT, " %-6s", c)));
    out.println(h);
    for (String row : cols) {
      StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "    %-8s", row));
      for (String c : cols) {
        Link l = m.link(row, c);
        s.append(String.format(Locale.ROOT, " %-6s", l == null ? "?" : l.label()));
      }
      GpuAffinity a = m.affinity().get(row);
      if (a != null) {
        s.append("  cpus ").append(a.cpuAffinity()).append(" numa ").append(a.numaAffinity());
      }
      out.println(s);
    }
    Map<String, List<String>> byClass = new LinkedHashMap<>();
    Map<String, Link> example = new LinkedHashMap<>();
    for (GpuPair p : m.gpuPairs()) {
      byClass.computeIfAbsent(p.link().label(), k -> new ArrayList<>()).add(p.a() + "-" + p.b());
      example.putIfAbsent(p.link().label(), p.link());
    }
    out.println("  GPU pairs by path:");
    byClass.forEach(
        (cls, pairs) ->
            out.println(
                "    "
                    + cls
                    + " ("
                    + pairs.size()
                    + (pairs.size() == 1 ? " pair" : " pairs")
                    + "): "
                    + String.join(", ", pairs.stream().limit(12).toList())
                    + (pairs.size() > 12 ? ", ..." : "")
                    + "\n      "
                    + LinkRates.describe(example.get(cls), gpu)));
    if (!m.nics().isEmpty()) {
      out.println("  NIC affinity (closest GPUs):");
      for (NicAffinity n : m.nicAffinity().values()) {
        out.println(
            "    "
                + n.nic()
                + (n.device() == null || n.device().equals(n.nic()) ? "" : " (" + n.device() + ")")
                + ": "
                + (n.link() == null ? "?" : n.link().label())
                + " to "
                + String.join(", ", n.gpus()));
      }
    }
  }

  private static String nvlinks(NcclGpu g) {
    if (g.nvlinks().isEmpty()) {
      return "no NVLink";
    }
    List<String> parts = new ArrayList<>();
    for (NcclNvlink l : g.nvlinks()) {
      parts.add(
          l.count()
              + " NVLinks to "
              + l.target()
              + (l.tclass() == null ? "" : " (" + l.targetKind() + ")"));
    }
    return String.join(", ", parts);
  }

  // ------------------------------------------------------------------ json

  public void json(PrintWriter out) {
    JsonFields.document(out, 1, this::json);
  }

  private void json(JsonGenerator g) throws IOException {
    g.writeArrayFieldStart("smi");
    for (SmiReport r : smi) {
      g.writeStartObject();
      g.writeStringField("file", r.file());
      g.writeStringField("driverVersion", r.driverVersion());
      g.writeArrayFieldStart("gpus");
      for (SmiGpu x : r.gpus()) {
        g.writeStartObject();
        g.writeNumberField("index", x.index());
        g.writeStringField("name", x.name());
        g.writeStringField("busId", x.busId());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("matrices");
      for (TopoMatrix m : r.matrices()) {
        g.writeStartObject();
        g.writeObjectField("gpus", m.gpus());
        g.writeObjectField("nics", m.nics());
        g.writeObjectField("nicLegend", m.nicLegend());
        g.writeArrayFieldStart("gpuPairs");
        for (GpuPair p : m.gpuPairs()) {
          g.writeStartObject();
          g.writeStringField("a", p.a());
          g.writeStringField("b", p.b());
          g.writeStringField("class", p.link().label());
          g.writeStringField("path", LinkRates.describe(p.link(), gpu));
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeObjectField("pairClassCounts", m.pairClassCounts());
        g.writeArrayFieldStart("nicAffinity");
        for (NicAffinity n : m.nicAffinity().values()) {
          g.writeStartObject();
          g.writeStringField("nic", n.nic());
          g.writeStringField("device", n.device());
          g.writeStringField("class", n.link() == null ? null : n.link().label());
          g.writeObjectField("gpus", n.gpus());
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeObjectFieldStart("affinity");
        for (Map.Entry<String, GpuAffinity> e : m.affinity().entrySet()) {
          g.writeObjectFieldStart(e.getKey());
          g.writeStringField("cpuAffinity", e.getValue().cpuAffinity());
          g.writeObjectField("numaAffinity", e.getValue().numaAffinity());
          g.writeObjectField("gpuNumaId", e.getValue().gpuNumaId());
          g.writeEndObject();
        }
        g.writeEndObject();
        g.writeObjectField("missingRows", m.missingRows());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("p2p");
      for (P2pMatrix p : r.p2p()) {
        g.writeStartObject();
        g.writeStringField("mode", p.mode().name().toLowerCase(Locale.ROOT));
        Map<String, Integer> counts = new LinkedHashMap<>();
        p.statusCounts().forEach((k, v) -> counts.put(k.name(), v));
        g.writeObjectField("statusCounts", counts);
        g.writeArrayFieldStart("notOk");
        for (P2pMatrix.Pair x : p.notOk()) {
          g.writeStartObject();
          g.writeStringField("a", x.a());
          g.writeStringField("b", x.b());
          g.writeStringField("status", x.status().name());
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("nvlinks");
      for (NvlinkStatus n : r.nvlinks()) {
        g.writeStartObject();
        g.writeNumberField("gpu", n.gpu());
        g.writeNumberField("links", n.links().size());
        g.writeNumberField("active", n.active().size());
        g.writeNumberField("totalGbps", n.totalGbps());
        g.writeArrayFieldStart("inactive");
        for (NvlinkSpeed l : n.links()) {
          if (l.gbps() == null) {
            g.writeNumber(l.link());
          }
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeNumberField("malformedRows", r.malformed().count());
      g.writeNumberField("unrecognized", r.unrecognized().count());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("ncclTopologies");
    for (NcclTopology t : topologies) {
      g.writeStartObject();
      g.writeStringField("file", t.file());
      g.writeStringField("version", t.version());
      g.writeArrayFieldStart("gpus");
      for (NcclGpu x : t.gpus()) {
        g.writeStartObject();
        g.writeNumberField("dev", x.dev());
        g.writeObjectField("rank", x.rank());
        g.writeStringField("busId", x.busId());
        g.writeObjectField("sm", x.sm());
        g.writeObjectField("gdr", x.gdr());
        g.writeStringField("numa", x.cpuNumaId());
        g.writeNumberField("nvlinks", x.nvlinkCount());
        g.writeNumberField("nvswitchLinks", x.nvswitchLinks());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("nics");
      for (NcclNet n : t.nets()) {
        g.writeStartObject();
        g.writeStringField("name", n.name());
        g.writeObjectField("dev", n.dev());
        g.writeObjectField("speedGbps", n.speedGbps());
        g.writeObjectField("gdr", n.gdr());
        g.writeStringField("numa", n.cpuNumaId());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("ncclGraphs");
    for (NcclGraphs gs : graphs) {
      for (NcclGraph x : gs.graphs()) {
        g.writeStartObject();
        g.writeStringField("file", gs.file());
        g.writeNumberField("id", x.id());
        g.writeStringField("pattern", x.algorithm());
        g.writeObjectField("nChannels", x.nChannels());
        g.writeObjectField("speedIntra", x.speedIntra());
        g.writeObjectField("speedInter", x.speedInter());
        g.writeStringField("typeIntra", x.typeIntra());
        g.writeStringField("typeInter", x.typeInter());
        g.writeEndObject();
      }
    }
    g.writeEndArray();
  }
}
