package io.topolens.model;

/**
 * An NCCL setting the log reports as set by the environment ({@code NCCL_X set by environment to
 * Y}), or that a launcher's command line sends to every process ({@code mpirun -x
 * NCCL_SOCKET_IFNAME=enp6s0}).
 *
 * @param processes how many processes printed it; 0 for a launcher's command line
 */
public record EnvSetting(String name, String value, int processes, Evidence evidence) {}
