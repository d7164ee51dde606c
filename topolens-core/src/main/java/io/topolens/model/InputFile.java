package io.topolens.model;

/**
 * One input as read: how many lines, how many were NCCL's, and any problem with it.
 *
 * @param problem why the file could not be read, or null
 */
public record InputFile(String name, long lines, long ncclLines, String problem) {}
