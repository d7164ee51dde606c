package io.topolens.ncclxml;

import io.topolens.model.Evidence;
import io.topolens.model.SampleCounter;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads an NCCL topology XML file ({@code NCCL_TOPO_DUMP_FILE}, any NCCL 2.x, or a hand-written
 * {@code NCCL_TOPO_FILE}): {@code <system>}, {@code <cpu>}, nested {@code <pci>}, {@code <gpu>}
 * with {@code <nvlink>} and {@code <c2c>}, {@code <nic>} with {@code <net>}. It records what the
 * file says and never judges.
 *
 * <p>Thread-safety: stateless.
 */
public final class NcclTopologyReader extends XmlDumpReader<NcclTopology> {
  private static final Pattern ROOT = head("system");

  public NcclTopologyReader() {
    super("system", "topology");
  }

  @Override
  public NcclTopology read(String name, String text) throws InputProblem {
    XmlTree tree = tree(name, text);
    XmlNode root = tree.root();
    Walk w = new Walk(tree);
    for (XmlNode child : root.children()) {
      if (child.name().equals("cpu")) {
        w.cpu(child);
      } else {
        w.unknown.add(tree.evidence(child));
      }
    }
    return new NcclTopology(
        name,
        root.attr("version"),
        List.copyOf(w.cpus),
        List.copyOf(w.pci),
        List.copyOf(w.gpus),
        List.copyOf(w.nets),
        w.unknown.toSample(),
        tree.evidence(root));
  }

  /** True when the text starts (after an XML declaration or comments) with {@code <system}. */
  public static boolean looksLike(String firstKilobytes) {
    return ROOT.matcher(firstKilobytes).lookingAt();
  }

  /** One pass over the tree. */
  private static final class Walk {
    final XmlTree tree;
    final Attributes a;
    final List<NcclCpu> cpus = new ArrayList<>();
    final List<NcclPci> pci = new ArrayList<>();
    final List<NcclGpu> gpus = new ArrayList<>();
    final List<NcclNet> nets = new ArrayList<>();
    final SampleCounter unknown = new SampleCounter();

    Walk(XmlTree tree) {
      this.tree = tree;
      this.a = new Attributes(tree);
    }

    void cpu(XmlNode n) throws InputProblem {
      String numaId = n.attr("numaid");
      String affinity = n.attr("affinity");
      cpus.add(
          new NcclCpu(
              numaId,
              affinity,
              CpuMask.parse(affinity),
              n.attr("arch"),
              n.attr("vendor"),
              a.integer(n, "familyid"),
              a.integer(n, "modelid"),
              n.attr("host_hash"),
              n.attributes(),
              tree.evidence(n)));
      for (XmlNode c : n.children()) {
        device(c, numaId, null);
      }
    }

    /** A child of a {@code <cpu>} or {@code <pci>}. */
    void device(XmlNode n, String numaId, String parentBus) throws InputProblem {
      switch (n.name()) {
        case "pci" -> pci(n, numaId, parentBus);
        case "gpu" -> gpu(n, numaId, parentBus);
        case "nic" -> nic(n, numaId, parentBus);
        default -> unknown.add(tree.evidence(n));
      }
    }

    void pci(XmlNode n, String numaId, String parentBus) throws InputProblem {
      String busId = n.attr("busid");
      List<String> links = new ArrayList<>();
      for (XmlNode c : n.children()) {
        if (c.name().equals("pcilink") && c.attr("target") != null) {
          links.add(c.attr("target"));
        }
      }
      pci.add(
          new NcclPci(
              busId,
              n.attr("class"),
              n.attr("vendor"),
              n.attr("device"),
              n.attr("subsystem_vendor"),
              n.attr("subsystem_device"),
              n.attr("link_speed"),
              a.integer(n, "link_width"),
              parentBus,
              numaId,
              List.copyOf(links),
              n.attributes(),
              tree.evidence(n)));
      for (XmlNode c : n.children()) {
        if (c.name().equals("pcilink")) {
          if (c.attr("target") == null) {
            unknown.add(tree.evidence(c));
          }
        } else {
          device(c, numaId, busId);
        }
      }
    }

    void gpu(XmlNode n, String numaId, String busId) throws InputProblem {
      Integer dev = a.integer(n, "dev");
      if (dev == null) {
        unknown.add(tree.evidence(n));
        return;
      }
      List<NcclNvlink> nvlinks = new ArrayList<>();
      List<NcclC2c> c2c = new ArrayList<>();
      for (XmlNode c : n.children()) {
        Evidence ev = tree.evidence(c);
        if (c.name().equals("nvlink")
            && c.attr("target") != null
            && a.integer(c, "count") != null) {
          nvlinks.add(
              new NcclNvlink(c.attr("target"), a.integer(c, "count"), c.attr("tclass"), ev));
        } else if (c.name().equals("c2c")) {
          c2c.add(new NcclC2c(a.integer(c, "count"), a.integer(c, "bw"), ev));
        } else {
          unknown.add(ev);
        }
      }
      gpus.add(
          new NcclGpu(
              dev,
              a.integer(n, "sm"),
              a.integer(n, "rank"),
              a.integer(n, "gdr"),
              busId,
              numaId,
              List.copyOf(nvlinks),
              List.copyOf(c2c),
              n.attributes(),
              tree.evidence(n)));
    }

    void nic(XmlNode n, String numaId, String busId) throws InputProblem {
      for (XmlNode c : n.children()) {
        if (!c.name().equals("net")) {
          unknown.add(tree.evidence(c));
          continue;
        }
        nets.add(
            new NcclNet(
                c.attr("name"),
                a.integer(c, "dev"),
                a.longValue(c, "speed"),
                a.integer(c, "port"),
                c.attr("guid"),
                a.integer(c, "maxconn"),
                a.integer(c, "gdr"),
                a.decimal(c, "latency"),
                a.integer(c, "coll"),
                busId,
                numaId,
                c.attributes(),
                tree.evidence(c)));
      }
    }
  }
}
