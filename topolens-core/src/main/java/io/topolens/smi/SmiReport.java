package io.topolens.smi;

import io.topolens.model.Evidence;
import io.topolens.model.LineSample;
import java.util.List;
import java.util.Optional;

/**
 * Everything {@link NvidiaSmiReader} found in one file of nvidia-smi output.
 *
 * @param file the input
 * @param lines how many lines it has
 * @param matrices every {@code topo -m} matrix, in file order
 * @param p2p every {@code topo -p2p} matrix, in file order
 * @param gpus the GPUs named by plain {@code nvidia-smi}, {@code -L} or {@code nvlink} output, by
 *     index
 * @param nvlinks every {@code nvlink -s} block, in file order
 * @param driverVersion the driver version from the {@code nvidia-smi} banner, or null
 * @param cudaVersion the CUDA version from the banner, or null
 * @param banner the banner line, or null
 * @param malformed matrix rows with a wrong number of cells, an unknown cell or a misplaced {@code
 *     X}; they are left out of the matrices, never guessed
 * @param unrecognized lines that are none of the outputs the reader knows
 */
public record SmiReport(
    String file,
    long lines,
    List<TopoMatrix> matrices,
    List<P2pMatrix> p2p,
    List<SmiGpu> gpus,
    List<NvlinkStatus> nvlinks,
    String driverVersion,
    String cudaVersion,
    Evidence banner,
    LineSample malformed,
    LineSample unrecognized) {

  /** The first {@code topo -m} matrix, if any. */
  public Optional<TopoMatrix> matrix() {
    return matrices.stream().findFirst();
  }

  /** The first {@code topo -p2p} matrix of a mode, if any. */
  public Optional<P2pMatrix> p2p(P2pMode mode) {
    return p2p.stream().filter(m -> m.mode() == mode).findFirst();
  }

  /** True when nothing nvidia-smi prints was found. */
  public boolean isEmpty() {
    return matrices.isEmpty() && p2p.isEmpty() && gpus.isEmpty() && nvlinks.isEmpty();
  }
}
