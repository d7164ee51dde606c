package io.topolens.ncclxml;

import io.topolens.model.Evidence;

/**
 * One {@code <gpu>} or {@code <net>} of a graph channel, in channel order.
 *
 * @param kind GPU or network device
 * @param dev the device id: hex with {@code 0x} as newer NCCL writes it, else decimal as older NCCL
 *     wrote it
 * @param text the {@code dev} attribute as written
 * @param rank the {@code rank} attribute newer NCCL writes on GPUs, or null
 * @param evidence the element's line
 */
public record ChannelDevice(Kind kind, long dev, String text, Integer rank, Evidence evidence) {

  /** GPU or network device. */
  public enum Kind {
    GPU,
    NET
  }
}
