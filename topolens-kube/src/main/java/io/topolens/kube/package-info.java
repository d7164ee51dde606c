/** Kubernetes: plan job manifests, lint the ones people have, and run them. */
package io.topolens.kube;
