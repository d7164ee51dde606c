package io.topolens.ncclxml;

import io.topolens.model.Evidence;

/**
 * An {@code <nvlink>} of a GPU: how many of its NVLinks go to one target.
 *
 * @param target the target's PCI bus id as written (a GPU, an NVSwitch, a CPU; {@code
 *     fffffff:ff:ff.0} when a VM hides it)
 * @param count how many links
 * @param tclass the target's class code ({@code 0x068000} NVSwitch, {@code 0x0302..} GPU), or null
 * @param evidence the element's line
 */
public record NcclNvlink(String target, int count, String tclass, Evidence evidence) {

  /** What the target is, from {@code tclass}. */
  public PciClass targetKind() {
    return PciClass.of(tclass);
  }
}
