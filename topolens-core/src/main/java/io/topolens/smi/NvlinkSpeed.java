package io.topolens.smi;

import io.topolens.model.Evidence;

/**
 * One line of {@code nvidia-smi nvlink -s}: a link and its speed.
 *
 * @param link the link number
 * @param gbps the speed in GB/s as printed, or null when the link is inactive or the speed is not a
 *     number
 * @param text what follows {@code Link N:} as printed ({@code 26.562 GB/s}, {@code <inactive>})
 * @param evidence the line
 */
public record NvlinkSpeed(int link, Double gbps, String text, Evidence evidence) {}
