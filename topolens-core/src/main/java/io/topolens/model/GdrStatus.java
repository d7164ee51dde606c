package io.topolens.model;

/**
 * What a network transport said about GPUDirect RDMA for one NIC ({@code GPU Direct RDMA Disabled
 * for HCA 0 'mlx5_0'}).
 *
 * @param transport IB, Socket or OFI
 */
public record GdrStatus(
    String process, String transport, String hca, boolean enabled, Evidence evidence) {}
