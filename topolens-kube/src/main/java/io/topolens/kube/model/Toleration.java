package io.topolens.kube.model;

import io.topolens.model.Evidence;

/** A pod toleration (key may be null: tolerate everything). */
public record Toleration(
    String key, String operator, String value, String effect, Evidence evidence) {}
