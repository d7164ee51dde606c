package io.topolens.perf;

import io.topolens.bench.ProbeLaunch;
import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.List;

/**
 * One nccl-tests output as the calibration sees it: the path it exercised, what NCCL was forced to
 * use, and its measured rows.
 *
 * @param path the path the run took (from NCCL's own lines, or named by the user)
 * @param pathFrom the line that told the path, or null when the user named it
 * @param ncclAlgo {@code NCCL_ALGO} as the log reports it, or null when not set
 * @param ncclProto {@code NCCL_PROTO} as the log reports it, or null when not set
 * @param gpu the device name nccl-tests printed, or null
 * @param nodes hosts among the ranks (1 when unknown)
 * @param netHops hops of NCCL's ring that go over the network: NCCL's node count when more than one
 *     (its ring crosses once per node), else its printed connection lines; 0 when none or unknown
 * @param rows every measured row of the collectives the model prices
 * @param skipped runs or rows left out, with why
 * @param launch the probe's launch micro-benchmark in the same file, or null (nccl-tests, an older
 *     probe)
 */
public record BenchSample(
    String file,
    PathKind path,
    Evidence pathFrom,
    String ncclAlgo,
    String ncclProto,
    String gpu,
    int nodes,
    int netHops,
    List<Row> rows,
    List<String> skipped,
    ProbeLaunch launch) {

  public BenchSample {
    rows = List.copyOf(rows);
    skipped = List.copyOf(skipped);
  }

  /**
   * One size of one run.
   *
   * @param outOfPlace the out-of-place time and busbw; in-place likewise (null when absent)
   */
  public record Row(
      CollectiveOp op,
      int ranks,
      long bytes,
      double outOfPlaceUs,
      double outOfPlaceBusBw,
      Double inPlaceUs,
      Evidence evidence) {}

  /**
   * Whether the ring fit may use this sample: NCCL_ALGO unset or Ring, NCCL_PROTO unset or Simple
   * (for large sizes NCCL's own choice is Ring/Simple).
   */
  public boolean ringSimple() {
    return (ncclAlgo == null || ncclAlgo.trim().equalsIgnoreCase("ring"))
        && (ncclProto == null || ncclProto.trim().equalsIgnoreCase("simple"));
  }

  /** The one algorithm NCCL_ALGO forces (Ring or Tree), or null. */
  public Algorithm forcedAlgorithm() {
    if (ncclAlgo == null) {
      return null;
    }
    return switch (ncclAlgo.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "ring" -> Algorithm.RING;
      case "tree" -> Algorithm.TREE;
      default -> null;
    };
  }

  /** The one protocol NCCL_PROTO forces, or null. */
  public Protocol forcedProtocol() {
    if (ncclProto == null) {
      return null;
    }
    return switch (ncclProto.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "simple" -> Protocol.SIMPLE;
      case "ll" -> Protocol.LL;
      case "ll128" -> Protocol.LL128;
      default -> null;
    };
  }

  /** The rows as calibration points: out-of-place and in-place times, each a point. */
  public List<CalibrationPoint> points() {
    List<CalibrationPoint> out = new ArrayList<>();
    for (Row r : rows) {
      out.add(
          new CalibrationPoint(
              path,
              r.op(),
              r.ranks(),
              nodes,
              r.bytes(),
              r.outOfPlaceUs(),
              file,
              r.evidence().line()));
      if (r.inPlaceUs() != null) {
        out.add(
            new CalibrationPoint(
                path,
                r.op(),
                r.ranks(),
                nodes,
                r.bytes(),
                r.inPlaceUs(),
                file,
                r.evidence().line()));
      }
    }
    return out;
  }
}
