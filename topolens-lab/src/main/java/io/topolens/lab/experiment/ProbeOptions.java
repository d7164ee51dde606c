package io.topolens.lab.experiment;

import java.util.ArrayList;
import java.util.List;

/**
 * The probe's settings for every variant, in the probe's own option names (docs/probe.md).
 *
 * @param collectives all_reduce, all_gather, reduce_scatter, alltoall, broadcast
 * @param minBytes {@code -b}, in nccl-tests' size syntax ({@code 8}, {@code 1K}, {@code 128M})
 * @param maxBytes {@code -e}
 * @param stepFactor {@code -f}
 * @param warmup {@code -w}
 * @param iters {@code -n}
 * @param pairs {@code --pairs}: also every pair of ranks
 * @param args more of the probe's arguments, passed as written
 */
public record ProbeOptions(
    List<String> collectives,
    String minBytes,
    String maxBytes,
    int stepFactor,
    int warmup,
    int iters,
    boolean pairs,
    List<String> args) {

  /** The probe's defaults where the spec says nothing: 8 B to 128 MiB by 2, 5 + 20 iterations. */
  public static final ProbeOptions DEFAULT =
      new ProbeOptions(
          List.of("all_reduce", "all_gather", "reduce_scatter"),
          "8",
          "128M",
          2,
          5,
          20,
          false,
          List.of());

  public ProbeOptions {
    collectives = List.copyOf(collectives);
    args = List.copyOf(args);
  }

  /** The command-line arguments of probe.py. */
  public List<String> toArgs() {
    List<String> a = new ArrayList<>();
    a.add("--collectives");
    a.add(String.join(",", collectives));
    a.addAll(
        List.of(
            "-b",
            minBytes,
            "-e",
            maxBytes,
            "-f",
            Integer.toString(stepFactor),
            "-w",
            Integer.toString(warmup),
            "-n",
            Integer.toString(iters)));
    if (pairs) {
      a.add("--pairs");
    }
    a.addAll(args);
    return a;
  }
}
