package io.topolens.perf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * NCCL's own cost model (src/graph/tuning.cc) over a {@link CommGroup}: per algorithm and protocol
 * a bus bandwidth (the bottleneck link's Ring/Simple bandwidth scaled by NCCL's protocol factors
 * and per-channel caps) and a latency (base plus per-hop latencies), then {@code time = latency +
 * bytes / algorithm bandwidth}; the cheapest allowed pair wins, as in NCCL's tuner.
 *
 * <p>Bytes are nccl-tests' sizes: the whole buffer for all_reduce, broadcast and reduce, the
 * gathered (or scattered) total for all_gather and reduce_scatter, and the per-rank send buffer for
 * alltoall. All-to-all is not in NCCL's tuner (it is point-to-point); topolens prices it as each
 * rank sending {@code (n-1)/n} of its buffer, the off-node share through the node's NIC.
 */
public final class CollectiveModel {
  private static final CollectiveModel STANDARD = new CollectiveModel(PerfConstants.bundled());

  private final PerfConstants k;

  public CollectiveModel(PerfConstants constants) {
    this.k = constants;
  }

  public static CollectiveModel standard() {
    return STANDARD;
  }

  /** The cheapest allowed algorithm and protocol for this call, as NCCL's tuner picks it. */
  public CollectiveCost cost(CollectiveOp op, long bytes, CommGroup g) {
    List<CollectiveCost> options = new ArrayList<>();
    for (Algorithm a : Algorithm.values()) {
      for (Protocol p : Protocol.values()) {
        cost(op, bytes, g, a, p).ifPresent(options::add);
      }
    }
    return options.stream().min(Comparator.comparingDouble(CollectiveCost::timeUs)).orElseThrow();
  }

  /** The cost with a forced algorithm and protocol; empty when NCCL would not allow the pair. */
  public Optional<CollectiveCost> cost(
      CollectiveOp op, long bytes, CommGroup g, Algorithm a, Protocol p) {
    if (g.ranks() == 1) {
      return a == Algorithm.RING && p == Protocol.SIMPLE
          ? Optional.of(new CollectiveCost(op, bytes, 1, a, p, 0, 0, 0, null))
          : Optional.empty();
    }
    if (!allowed(op, g, a, p)) {
      return Optional.empty();
    }
    if (op == CollectiveOp.ALL_TO_ALL) {
      return Optional.of(allToAll(bytes, g));
    }
    double bus = busBandwidth(op, g, a, p);
    double alg = algorithmBandwidth(op, g, a, p);
    if (a == Algorithm.TREE && op == CollectiveOp.ALL_REDUCE) {
      alg *= treeCorrection(p, bytes);
    }
    double lat = latency(op, bytes, g, a, p);
    double time = lat + bytes / (1000.0 * alg);
    return Optional.of(
        new CollectiveCost(op, bytes, g.ranks(), a, p, bus, lat, time, g.bottleneck().path()));
  }

  /** Which pairs NCCL allows here (tuning.cc:296-305, 451-540, simplified to Ring and Tree). */
  boolean allowed(CollectiveOp op, CommGroup g, Algorithm a, Protocol p) {
    if (op == CollectiveOp.ALL_TO_ALL) {
      return a == Algorithm.RING && p == Protocol.SIMPLE;
    }
    if (a == Algorithm.TREE && op != CollectiveOp.ALL_REDUCE) {
      return false;
    }
    return g.protocols().contains(p);
  }

  /** NCCL's {@code busBw} for a collective, algorithm and protocol, in GB/s (tuning.cc:286-337). */
  public double busBandwidth(CollectiveOp op, CommGroup g, Algorithm a, Protocol p) {
    Link b = g.bottleneck();
    double bus = b.busBwGBps();
    int ch = b.channels();
    int row = g.arch().row();
    String nodes = g.nodes() == 1 ? "n1" : g.nodes() == 2 ? "n2" : "n4";
    double llMax =
        g.nodes() == 1
            ? k.value("nccl.llMaxBw", row)
            : k.value("nccl.llMaxBw.multiNode", g.nodes() == 2 ? 0 : 1);
    double ll128 = k.value("nccl.ll128Factor");
    if (a == Algorithm.RING) {
      return switch (p) {
        case LL -> Math.min(llMax, bus * k.value("nccl.llFactor"));
        case LL128 -> Math.min(bus * ll128, ch * k.value("nccl.perChMaxRingLL128Bw", row));
        case SIMPLE -> bus;
      };
    }
    double tree = Math.min(bus * ll128, ch * k.value("nccl.perChMaxTreeBw." + nodes, row));
    return switch (p) {
      case LL -> Math.min(tree / k.value("nccl.treeLlDivisor"), llMax);
      case LL128 ->
          Math.min(
              tree * (g.nodes() == 1 ? k.value("nccl.treeLl128Factor.n1") : ll128),
              ch * k.value("nccl.perChMaxTreeLL128Bw." + nodes, row));
      case SIMPLE -> tree;
    };
  }

  /** NCCL's algorithm bandwidth: bus bandwidth times nRanks/nsteps (Ring) or 0.5 (Tree). */
  public double algorithmBandwidth(CollectiveOp op, CommGroup g, Algorithm a, Protocol p) {
    double bus = busBandwidth(op, g, a, p);
    if (a == Algorithm.TREE) {
      return bus * 0.5;
    }
    return bus * g.ranks() / op.ringSteps(g.ranks());
  }

  /** NCCL's latency of one call in microseconds (tuning.cc:384-436 and the ring plateau). */
  public double latency(CollectiveOp op, long bytes, CommGroup g, Algorithm a, Protocol p) {
    String algo = a == Algorithm.RING ? "ring" : "tree";
    double base = k.value("nccl.baseLatency." + algo, p.column());
    double intra = g.intra() == null ? 0 : hop(g.intra(), algo, p);
    double inter = 0;
    if (g.inter() != null && g.nodes() > 1) {
      // One rank per node: "latencies are fully exposed", NCCL uses the Tree row.
      inter = hop(g.inter(), g.ranksPerNode() == 1 ? "tree" : algo, p);
    }
    int n = g.ranks();
    double lat;
    if (a == Algorithm.TREE) {
      double log2Nodes = Math.log(g.nodes()) / Math.log(2);
      lat = base + 2 * ((g.ranksPerNode() - 1) * intra + log2Nodes * inter);
    } else if (op == CollectiveOp.BROADCAST || op == CollectiveOp.REDUCE) {
      lat = base + (g.nodes() > 1 ? inter : intra);
    } else {
      int steps = op.ringSteps(n);
      if (g.nodes() > 1) {
        double overhead = k.value("nccl.netOverhead") * (p == Protocol.SIMPLE ? 3 : 1);
        intra = Math.max(intra, overhead);
      }
      int interSteps =
          g.nodes() == 1 ? 0 : op == CollectiveOp.ALL_REDUCE ? 2 * (g.nodes() - 1) : g.nodes() - 1;
      lat = base + (steps - interSteps) * intra + interSteps * inter;
      if (op == CollectiveOp.ALL_REDUCE
          && p == Protocol.SIMPLE
          && g.nodes() > 1
          && bytes / ((double) g.bottleneck().channels() * n) >= 64) {
        lat *=
            g.arch().sm() < 80 ? k.value("nccl.ringPlateau.preSm80") : k.value("nccl.ringPlateau");
      }
    }
    return lat;
  }

  private double hop(Link link, String algo, Protocol p) {
    if (p == Protocol.SIMPLE && link.hopLatencyUs() != null) {
      return link.hopLatencyUs();
    }
    return k.value("nccl.hwLatency." + link.path().latencyClass() + "." + algo, p.column());
  }

  /** NCCL's tree correction factor for a size (tuning.cc:623-627), 1 outside the table. */
  double treeCorrection(Protocol p, long bytes) {
    long units = bytes >> 6;
    if (units <= 0) {
      return 1;
    }
    int logSize = 63 - Long.numberOfLeadingZeros(units);
    List<Double> table =
        k.values(
            "nccl.treeCorrection."
                + switch (p) {
                  case LL -> "ll";
                  case LL128 -> "ll128";
                  case SIMPLE -> "simple";
                });
    return logSize < 23 ? table.get(logSize) : 1;
  }

  private CollectiveCost allToAll(long bytes, CommGroup g) {
    int n = g.ranks();
    int ppn = g.ranksPerNode();
    double intraSeconds =
        g.intra() == null ? 0 : bytes * (ppn - 1.0) / n / (g.intra().busBwGBps() * 1e9);
    double interSeconds =
        g.inter() == null || g.nodes() == 1
            ? 0
            : bytes * (n - (double) ppn) / n * ppn / (g.inter().busBwGBps() * 1e9);
    Link slow =
        interSeconds >= intraSeconds && g.inter() != null && g.nodes() > 1 ? g.inter() : g.intra();
    double lat =
        k.value("nccl.baseLatency.ring", Protocol.SIMPLE.column())
            + hop(slow, "ring", Protocol.SIMPLE);
    double time = lat + Math.max(intraSeconds, interSeconds) * 1e6;
    double effectiveBus = bytes * CollectiveOp.ALL_TO_ALL.busBwFactor(n) / (time * 1e3);
    return new CollectiveCost(
        CollectiveOp.ALL_TO_ALL,
        bytes,
        n,
        Algorithm.RING,
        Protocol.SIMPLE,
        effectiveBus,
        lat,
        time,
        slow.path());
  }
}
