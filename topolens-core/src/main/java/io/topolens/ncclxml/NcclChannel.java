package io.topolens.ncclxml;

import io.topolens.model.Evidence;
import java.util.List;

/**
 * One {@code <channel>} of a graph: the devices it goes through, in order (a network device first
 * and last when the graph leaves the node).
 *
 * @param index its position in the graph, from 0
 * @param devices its GPUs and network devices in order
 * @param evidence the element's line
 */
public record NcclChannel(int index, List<ChannelDevice> devices, Evidence evidence) {

  /** The GPU device ids in order. */
  public List<Long> gpus() {
    return devices.stream()
        .filter(d -> d.kind() == ChannelDevice.Kind.GPU)
        .map(ChannelDevice::dev)
        .toList();
  }

  /** The network device ids in order. */
  public List<Long> nets() {
    return devices.stream()
        .filter(d -> d.kind() == ChannelDevice.Kind.NET)
        .map(ChannelDevice::dev)
        .toList();
  }
}
