package io.topolens.smi;

/** Two GPUs of a matrix (the first one printed first) and the class of the path between them. */
public record GpuPair(String a, String b, Link link) {}
