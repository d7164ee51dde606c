package io.topolens.smi;

import java.util.List;

/**
 * The GPUs closest to one NIC in a {@code nvidia-smi topo -m} matrix.
 *
 * @param nic the NIC's column name ({@code NIC0}, or an old-style {@code mlx5_0})
 * @param device the device name from the NIC legend ({@code mlx5_0}), or the column name
 * @param link the best class between this NIC and any GPU
 * @param gpus every GPU that reaches the NIC through that class, in matrix order
 */
public record NicAffinity(String nic, String device, Link link, List<String> gpus) {}
