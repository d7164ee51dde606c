package io.topolens.kube.plan;

/**
 * One decision of a plan: the field it sets, the value, and why (written as a YAML comment and
 * printed by {@code --explain}).
 */
public record Choice(String field, String value, String why) {}
