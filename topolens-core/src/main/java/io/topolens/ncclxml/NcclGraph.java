package io.topolens.ncclxml;

import io.topolens.model.Evidence;
import java.util.List;
import java.util.Map;

/**
 * One {@code <graph>} of an NCCL graph file: the channels NCCL's search found for one algorithm.
 *
 * @param id which algorithm's graph (see {@link #algorithm()})
 * @param pattern the {@code pattern} number (see {@link GraphPattern}), or null
 * @param crossNic 1 when channels may enter and leave through different NICs, or null
 * @param nChannels the {@code nchannels} as written, or null
 * @param speedIntra the {@code speedintra} in GB/s per channel, or null
 * @param speedInter the {@code speedinter} in GB/s per channel, or null
 * @param latencyInter the {@code latencyinter} (older NCCL does not write it), or null
 * @param typeIntra the {@code typeintra} path type as written ({@code NVL}, {@code SYS}), or null
 * @param typeInter the {@code typeinter} path type as written, or null
 * @param sameChannels 1 when every channel is the same, or null
 * @param channels its {@code <channel>} children, in order
 * @param attributes every attribute as written
 * @param evidence the element's line
 */
public record NcclGraph(
    int id,
    Integer pattern,
    Integer crossNic,
    Integer nChannels,
    Double speedIntra,
    Double speedInter,
    Double latencyInter,
    String typeIntra,
    String typeInter,
    Integer sameChannels,
    List<NcclChannel> channels,
    Map<String, String> attributes,
    Evidence evidence) {

  /** The pattern by name, or null when none or an unknown number is written. */
  public GraphPattern patternKind() {
    return pattern == null ? null : GraphPattern.of(pattern);
  }

  /**
   * The algorithm NCCL searched this graph for, by the id NCCL gives it: 0 ring, 1 tree, 2 collnet
   * chain (plain "collnet" before NCCL added NVLS), 3 nvls, 4 collnet direct; "unknown" otherwise.
   */
  public String algorithm() {
    return switch (id) {
      case 0 -> "ring";
      case 1 -> "tree";
      case 2 -> "collnet chain";
      case 3 -> "nvls";
      case 4 -> "collnet direct";
      default -> "unknown";
    };
  }

  /** The intra-node path type by name, or null. */
  public NcclPathType typeIntraKind() {
    return NcclPathType.of(typeIntra);
  }

  /** The inter-node path type by name, or null. */
  public NcclPathType typeInterKind() {
    return NcclPathType.of(typeInter);
  }
}
