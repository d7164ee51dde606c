package io.topolens.kube.model;

import io.topolens.model.Evidence;

/** Where a container mounts a volume. */
public record VolumeMount(String name, String path, Evidence evidence) {}
