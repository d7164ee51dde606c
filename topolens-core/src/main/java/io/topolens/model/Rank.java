package io.topolens.model;

/**
 * A GPU context and what its logs say about it.
 *
 * @param nvmlDev NVML index, or -1 when not printed
 * @param busId PCI bus id as NCCL prints it (e.g. 36000), or null
 * @param ncclVersion the version the process printed (e.g. 2.27.3+cuda12.9), or null
 * @param versionEvidence the line that printed it, or null
 */
public record Rank(
    RankId id, int nvmlDev, String busId, String ncclVersion, Evidence versionEvidence) {}
