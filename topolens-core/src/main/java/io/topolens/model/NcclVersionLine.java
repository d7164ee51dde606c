package io.topolens.model;

/**
 * An NCCL version printed without a process: NCCL's own {@code NCCL version 2.26.2+cuda12.2}, which
 * rank 0 prints without the {@code host:pid:tid} header of its other lines.
 *
 * @param version the version, e.g. {@code 2.26.2+cuda12.2}
 * @param evidence the line that printed it
 */
public record NcclVersionLine(String version, Evidence evidence) {}
