package io.topolens.model;

/**
 * A rank a launcher or framework announced as its process joined the job: PyTorch Lightning's
 * {@code initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8} (1.0-1.5) and {@code Initializing
 * distributed: GLOBAL_RANK: 1, MEMBER: 2/8} (1.6 on, Fabric), printed once by every process.
 * Lightning's note that Slurm starts its processes is no rank: {@link SlurmManaged}.
 *
 * @param launcher who printed it ({@code lightning})
 * @param rank the global rank the process was given
 * @param worldSize the number of processes it was told the job has
 * @param stream the shape of what the logger put before the announcement (digits as {@code #}): one
 *     process that logs through two handlers prints it twice, in two shapes
 * @param evidence the line
 */
public record LaunchedRank(
    String launcher, int rank, int worldSize, String stream, Evidence evidence) {}
