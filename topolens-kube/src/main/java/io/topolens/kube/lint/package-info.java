/**
 * Lint: rules that judge a {@link io.topolens.kube.model.Workload} read from manifests people
 * already have. One class per rule under {@code rules/}, each with a stable id (docs/lint.md).
 */
package io.topolens.kube.lint;
