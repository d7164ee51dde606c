/**
 * Kubernetes: plan job manifests, lint the ones people have, run them, and collect a job that runs
 * or ran (diagnose --job).
 */
package io.topolens.kube;
