package io.topolens.perf;

/** One configuration to predict: a name, the job and where it runs. */
public record Scenario(String name, Workload workload, Cluster cluster) {}
