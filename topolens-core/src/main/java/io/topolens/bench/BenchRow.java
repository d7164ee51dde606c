package io.topolens.bench;

import io.topolens.model.Evidence;

/**
 * One row of a results table.
 *
 * @param bytes the {@code size} column: bytes the collective moves as nccl-tests counts them (the
 *     whole buffer for all_reduce, the gathered total for all_gather...)
 * @param count the {@code count} column (elements; per rank for all_gather, reduce_scatter,
 *     alltoall, scatter, gather, hypercube)
 * @param type the data type as printed ({@code float}, {@code bfloat16}...)
 * @param redop the reduction as printed ({@code sum}, {@code none}; empty for hypercube; null when
 *     the table has no redop column, as the oldest versions)
 * @param root the root rank ({@code -1} for rootless collectives); null when the table has no root
 *     column (versions before 2.13)
 * @param outOfPlace null only when the row has no out-of-place half (trace replay in JSON)
 * @param inPlace the in-place half; null when the table printed only the out-of-place columns
 */
public record BenchRow(
    long bytes,
    long count,
    String type,
    String redop,
    Integer root,
    BenchResult outOfPlace,
    BenchResult inPlace,
    Evidence evidence) {}
