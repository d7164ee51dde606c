package io.topolens.catalog;

/** What forcing one NCCL setting does, and how much it matters. */
public record EnvVariable(String name, String severity, String effect, String fix) {}
