package io.topolens.perf;

import io.topolens.bench.BenchDevice;
import io.topolens.bench.BenchFile;
import io.topolens.bench.BenchRow;
import io.topolens.bench.BenchRun;
import io.topolens.bench.Collective;
import io.topolens.bench.NcclTestsReader;
import io.topolens.bench.ProbeLaunchReader;
import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.model.Communicator;
import io.topolens.model.Edge;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.PathDetail;
import io.topolens.model.Transport;
import io.topolens.nccl.InputProblem;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLogReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Reads nccl-tests outputs for calibration: the rows through {@link NcclTestsReader}, and which
 * path the run took from NCCL's own {@code NCCL_DEBUG=INFO} lines in the same file ({@code via
 * P2P/...}, {@code via SHM/...}, {@code via NET/Socket/...}) through {@link NcclLogReader}, with
 * the {@code NCCL_ALGO}/{@code NCCL_PROTO} it was forced to. A file without NCCL lines needs its
 * path named: {@code shm=FILE}.
 */
public final class BenchSamples {
  private final HardwareCatalog catalog;

  public BenchSamples(HardwareCatalog catalog) {
    this.catalog = catalog;
  }

  /**
   * Reads an argument of {@code --calibrate}: {@code FILE} or {@code PATH=FILE} ({@code
   * nvlink=ar.log}).
   */
  public BenchSample read(String argument) throws InputProblem {
    int eq = argument.indexOf('=');
    if (eq > 0 && !argument.substring(0, eq).contains("/")) {
      PathKind given;
      try {
        given = PathKind.parse(argument.substring(0, eq));
      } catch (IllegalArgumentException e) {
        throw new InputProblem("--calibrate " + argument + ": " + e.getMessage());
      }
      String file = argument.substring(eq + 1);
      return read(Path.of(file), file, given);
    }
    return read(Path.of(argument), argument, null);
  }

  /**
   * Reads one file.
   *
   * @param given the path when the user named it, else null
   */
  public BenchSample read(Path file, String name, PathKind given) throws InputProblem {
    BenchFile bench = new NcclTestsReader().read(file, name);
    Job job = new NcclLogReader(1).read(LogInput.expand(List.of(file.toString())));
    String gpu = null;
    int hosts = 1;
    for (BenchRun run : bench.runs()) {
      if (!run.devices().isEmpty()) {
        gpu = run.devices().get(0).name();
        hosts = (int) Math.max(1, run.devices().stream().map(BenchDevice::host).distinct().count());
        break;
      }
    }
    Evidence from = null;
    PathKind path = given;
    if (path == null) {
      Optional<Edge> edge = slowestEdge(job);
      if (edge.isEmpty()) {
        throw new InputProblem(
            name
                + ": no NCCL_DEBUG=INFO connection lines say which path the run took; name it,"
                + " e.g. --calibrate nvlink="
                + name);
      }
      from = edge.get().evidence();
      path = pathOf(edge.get().path(), gpu, name);
    }
    List<BenchSample.Row> rows = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (BenchRun run : bench.runs()) {
      CollectiveOp op = opOf(run.collective());
      if (op == null) {
        skipped.add(
            run.start()
                + ": "
                + (run.collective() == null ? "unknown collective" : run.collective().testName())
                + " is not priced by the model");
        continue;
      }
      if (run.nranks() < 2) {
        skipped.add(run.start() + ": the number of ranks is unknown");
        continue;
      }
      for (BenchRow r : run.rows()) {
        if (r.outOfPlace() == null || r.bytes() <= 0 || !(r.outOfPlace().timeUs() > 0)) {
          continue;
        }
        Double in = r.inPlace() != null && r.inPlace().timeUs() > 0 ? r.inPlace().timeUs() : null;
        rows.add(
            new BenchSample.Row(
                op,
                run.nranks(),
                r.bytes(),
                r.outOfPlace().timeUs(),
                r.outOfPlace().busBw(),
                in,
                r.evidence()));
      }
    }
    if (rows.isEmpty()) {
      throw new InputProblem(
          name
              + ": no rows of all_reduce, all_gather, reduce_scatter, broadcast, reduce or alltoall");
    }
    return new BenchSample(
        name,
        path,
        from,
        job.envValue("NCCL_ALGO"),
        job.envValue("NCCL_PROTO"),
        gpu,
        hosts,
        ringNetHops(job, hosts),
        rows,
        skipped,
        new ProbeLaunchReader().read(file, name).orElse(null));
  }

  /**
   * Hops of the largest communicator's ring that go over the network (NET). NCCL builds each
   * channel's ring from one chain per node, the node's ranks in a row, and links each node's last
   * rank to the next node's first (https://github.com/NVIDIA/nccl, src/graph/connect.cc: {@code
   * ncclTopoPreset} takes {@code ringRecv = ringIntra[0]} and {@code ringSend =
   * ringIntra[localRanks-1]} per node, {@code connectRings} sets {@code next[send[n]] =
   * recv[(n+1)%nNodes]}): with more than one node the ring crosses between nodes exactly nNodes
   * times. The node count is NCCL's own ({@code nNodes} in its init line), else the distinct hosts
   * of the ranks ({@code hosts}); with one node, or neither known, the ring's NET connections as
   * the log prints them are counted ({@link #ringNetHopsByEdges}), which sees only the connections
   * of the ranks whose log was read (rank 0's file shows 1 of 2 crossings for 2 nodes of 2 ranks).
   * 0 when the communicator has no NET connection.
   */
  static int ringNetHops(Job job, int hosts) {
    Optional<Communicator> comm = largest(job);
    if (comm.isEmpty()
        || comm.get().edges().stream().noneMatch(e -> e.transport() == Transport.NET)) {
      return 0;
    }
    Communicator c = comm.get();
    int nodes = c.nNodes() > 0 ? c.nNodes() : Math.max(hosts, (int) c.hostCount());
    return nodes > 1 ? nodes : ringNetHopsByEdges(c);
  }

  private static Optional<Communicator> largest(Job job) {
    return job.communicators().stream().max(Comparator.comparingInt(Communicator::nRanks));
  }

  /**
   * Hops of the communicator's first ring whose connection the log prints over the network (NET):
   * every hop when P2P and SHM are off on one node; only the printed ranks' connections.
   */
  static int ringNetHopsByEdges(Communicator c) {
    if (c.rings().isEmpty()) {
      return 0;
    }
    int channel = c.rings().keySet().stream().mapToInt(Integer::intValue).min().orElseThrow();
    List<Integer> order = c.rings().get(channel);
    int hops = 0;
    for (int i = 0; i < order.size(); i++) {
      int from = order.get(i);
      int to = order.get((i + 1) % order.size());
      boolean net =
          c.edges().stream()
              .anyMatch(
                  e ->
                      e.from() == from
                          && e.to() == to
                          && e.transport() == Transport.NET
                          && e.channels().contains(channel));
      hops += net ? 1 : 0;
    }
    if (hops > 0) {
      return hops;
    }
    // the printed order and the connection lines disagree (seen with P2P and SHM off): count the
    // ranks that send over the network on that channel, one send per rank in a ring
    return (int)
        c.edges().stream()
            .filter(e -> e.transport() == Transport.NET && e.channels().contains(channel))
            .map(Edge::from)
            .distinct()
            .count();
  }

  /** The connection on the slowest transport of the largest communicator. */
  static Optional<Edge> slowestEdge(Job job) {
    return largest(job)
        .flatMap(c -> c.edges().stream().max(Comparator.comparingInt(e -> rank(e.transport()))));
  }

  private static int rank(Transport t) {
    return switch (t) {
      case NET -> 3;
      case SHM -> 2;
      case P2P -> 1;
      default -> 0;
    };
  }

  /** The model's path for a transport NCCL printed. */
  PathKind pathOf(PathDetail d, String gpuName, String file) throws InputProblem {
    switch (d) {
      case PathDetail.P2p p -> {
        Optional<GpuSpec> gpu = catalog.gpuByName(gpuName);
        if (gpu.isEmpty()) {
          throw new InputProblem(
              file
                  + ": P2P between GPUs the catalog does not know ("
                  + gpuName
                  + "); name the path: nvlink=FILE or pcie=FILE");
        }
        return gpu.get().hasNvlink() ? PathKind.NVLINK : PathKind.PCIE;
      }
      case PathDetail.Shm s -> {
        return PathKind.SHM;
      }
      case PathDetail.Net n -> {
        // the same plugin names the bench verdicts recognise; the model prices the same six paths
        Optional<io.topolens.verdict.PathKind> known =
            io.topolens.verdict.PathKind.ofKnownNetPlugin(n.plugin());
        if (known.isEmpty()) {
          throw new InputProblem(
              file
                  + ": network plugin "
                  + n.plugin()
                  + " is not one the model knows; name the path");
        }
        return PathKind.parse(known.get().catalogId());
      }
      default ->
          throw new InputProblem(
              file + ": transport " + d.raw() + " is not one the model prices; name the path");
    }
  }

  static CollectiveOp opOf(Collective c) {
    if (c == null) {
      return null;
    }
    return switch (c) {
      case ALL_REDUCE -> CollectiveOp.ALL_REDUCE;
      case ALL_GATHER -> CollectiveOp.ALL_GATHER;
      case REDUCE_SCATTER -> CollectiveOp.REDUCE_SCATTER;
      case BROADCAST -> CollectiveOp.BROADCAST;
      case REDUCE -> CollectiveOp.REDUCE;
      case ALLTOALL -> CollectiveOp.ALL_TO_ALL;
      default -> null;
    };
  }
}
