package io.topolens.ncclxml;

import io.topolens.model.SampleCounter;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads an NCCL graph XML file ({@code NCCL_GRAPH_DUMP_FILE}, any NCCL 2.x, or a hand-written
 * {@code NCCL_GRAPH_FILE}): {@code <graphs>}, {@code <graph>} and its {@code <channel>}s of {@code
 * <net>} and {@code <gpu>} devices. It records what the file says and never judges.
 *
 * <p>Thread-safety: stateless.
 */
public final class NcclGraphReader extends XmlDumpReader<NcclGraphs> {
  private static final Pattern ROOT = head("graphs");

  public NcclGraphReader() {
    super("graphs", "graph");
  }

  @Override
  public NcclGraphs read(String name, String text) throws InputProblem {
    XmlTree tree = tree(name, text);
    XmlNode root = tree.root();
    Attributes a = new Attributes(tree);
    SampleCounter unknown = new SampleCounter();
    List<NcclGraph> graphs = new ArrayList<>();
    for (XmlNode g : root.children()) {
      Integer id = g.name().equals("graph") ? a.integer(g, "id") : null;
      if (id == null) {
        unknown.add(tree.evidence(g));
        continue;
      }
      List<NcclChannel> channels = new ArrayList<>();
      for (XmlNode c : g.children()) {
        if (!c.name().equals("channel")) {
          unknown.add(tree.evidence(c));
          continue;
        }
        channels.add(channel(c, channels.size(), tree, a, unknown));
      }
      graphs.add(
          new NcclGraph(
              id,
              a.integer(g, "pattern"),
              a.integer(g, "crossnic"),
              a.integer(g, "nchannels"),
              a.decimal(g, "speedintra"),
              a.decimal(g, "speedinter"),
              a.decimal(g, "latencyinter"),
              g.attr("typeintra"),
              g.attr("typeinter"),
              a.integer(g, "samechannels"),
              List.copyOf(channels),
              g.attributes(),
              tree.evidence(g)));
    }
    return new NcclGraphs(
        name, root.attr("version"), List.copyOf(graphs), unknown.toSample(), tree.evidence(root));
  }

  private static NcclChannel channel(
      XmlNode c, int index, XmlTree tree, Attributes a, SampleCounter unknown) throws InputProblem {
    List<ChannelDevice> devices = new ArrayList<>();
    for (XmlNode d : c.children()) {
      ChannelDevice.Kind kind =
          switch (d.name()) {
            case "gpu" -> ChannelDevice.Kind.GPU;
            case "net" -> ChannelDevice.Kind.NET;
            default -> null;
          };
      Long dev = kind == null ? null : a.longValue(d, "dev");
      if (dev == null) {
        unknown.add(tree.evidence(d));
        continue;
      }
      devices.add(
          new ChannelDevice(kind, dev, d.attr("dev"), a.integer(d, "rank"), tree.evidence(d)));
    }
    return new NcclChannel(index, List.copyOf(devices), tree.evidence(c));
  }

  /** True when the text starts (after an XML declaration or comments) with {@code <graphs}. */
  public static boolean looksLike(String firstKilobytes) {
    return ROOT.matcher(firstKilobytes).lookingAt();
  }
}
