/**
 * Reading manifests: YAML documents with the line of every key, and the jobs they describe as
 * {@link io.topolens.kube.model.Workload}s. Readers never judge.
 */
package io.topolens.kube.manifest;
