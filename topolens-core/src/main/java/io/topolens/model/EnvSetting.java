package io.topolens.model;

/**
 * An NCCL setting the log reports as set by the environment ({@code NCCL_X set by environment to
 * Y}).
 *
 * @param processes how many processes printed it
 */
public record EnvSetting(String name, String value, int processes, Evidence evidence) {}
