package io.topolens.ncclxml;

import io.topolens.model.Evidence;

/**
 * A {@code <c2c>} of a GPU: its NVLink-C2C links to the CPU (Grace Hopper, Grace Blackwell).
 *
 * @param count how many active links, or null
 * @param bw the bandwidth per link as NVML reports it, or null
 * @param evidence the element's line
 */
public record NcclC2c(Integer count, Integer bw, Evidence evidence) {}
