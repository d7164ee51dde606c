/**
 * Kubernetes settings with their sources: per-pod policies, per instance type, NCCL/EFA variables.
 */
package io.topolens.kube.settings;
