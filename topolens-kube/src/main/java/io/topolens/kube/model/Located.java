package io.topolens.kube.model;

import io.topolens.model.Evidence;

/** A value read from a manifest and the line it was read from. */
public record Located<T>(T value, Evidence evidence) {}
