package io.topolens.model;

import java.util.List;

/**
 * A connection between two ranks of a communicator on one or more channels, as printed by one side.
 * NCCL prints one line per channel; lines that differ only in channel are folded into one edge
 * whose {@code channels} lists them.
 *
 * @param from sending rank (communicator rank)
 * @param to receiving rank
 * @param direction which side printed it
 * @param path transport and its details
 * @param channels the channels, ascending
 * @param evidence the first line seen
 * @param fromDevice the device NCCL printed in brackets after the sending rank (its cudaDev before
 *     2.5, its PCI bus id since), or null
 * @param toDevice the same for the receiving rank, or null
 * @param printedBy the GPU context whose line it is (host, pid, cudaDev of its header)
 */
public record Edge(
    int from,
    int to,
    Direction direction,
    PathDetail path,
    List<Integer> channels,
    Evidence evidence,
    String fromDevice,
    String toDevice,
    RankId printedBy) {

  public Transport transport() {
    return path.transport();
  }
}
