package io.topolens.bench;

import io.topolens.model.Evidence;

/**
 * One {@code # Rank N Group G Pid P on host device D [busid] name} line (older versions print no
 * Group).
 *
 * @param group the {@code NCCL_TESTS_SPLIT} group; null in the older form
 * @param host null in NCCL 1's form ({@code Rank 0 uses device 0 [0x05] Tesla M40}: one process
 *     drives every GPU and prints no host)
 * @param pid null in the oldest form (NCCL 1 era, no Pid) or when the JSON omits it
 * @param busId as printed between the brackets ({@code 0000:1b:00}, or {@code 0x1b} in older
 *     versions)
 */
public record BenchDevice(
    int rank,
    Integer group,
    Integer pid,
    String host,
    int device,
    String busId,
    String name,
    Evidence evidence) {}
