package io.topolens.model;

/**
 * PyTorch Lightning's statement that Slurm starts its processes ({@code Multi-processing is handled
 * by Slurm.}, every 1.x and 2.x release's accelerator connector): it found a Slurm allocation
 * matching the devices and nodes it was asked for, starts no process itself, and each rank is a
 * Slurm task. No rank and no world size: a statement about the launch, not a rank.
 *
 * @param evidence the line
 */
public record SlurmManaged(Evidence evidence) {}
