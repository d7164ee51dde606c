/**
 * Experiments on Kubernetes: each variant's job planned with kube's {@code plan} (or the user's
 * manifest patched), the probe delivered through a ConfigMap, linted, run with kube's {@code run}
 * machinery one at a time, collected and deleted. Uses kube and the experiment model; never judges
 * logs (the experiment's analysis does).
 */
package io.topolens.lab.kube;
