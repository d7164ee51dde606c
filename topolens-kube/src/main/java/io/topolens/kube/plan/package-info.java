/**
 * Plan: writes TrainJob, PyTorchJob and MPIJob manifests sized from the hardware catalog, each
 * choice with its reason.
 */
package io.topolens.kube.plan;
