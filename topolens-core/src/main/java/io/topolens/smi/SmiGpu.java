package io.topolens.smi;

import io.topolens.model.Evidence;

/**
 * A GPU as plain {@code nvidia-smi}, {@code nvidia-smi -L} or {@code nvidia-smi nvlink} name it.
 *
 * @param index the GPU index ({@code GPU0} is 0)
 * @param name the product name, e.g. {@code NVIDIA H200}; the full name from {@code -L} or {@code
 *     nvlink} when present, else the (possibly shortened) name from the table
 * @param uuid {@code GPU-...}, or null when only the table was printed or the output hid it ({@code
 *     (UUID: ...)})
 * @param busId the PCI bus id from the table ({@code 00000000:00:06.0}), or null
 * @param evidence the line the name came from
 */
public record SmiGpu(int index, String name, String uuid, String busId, Evidence evidence) {}
