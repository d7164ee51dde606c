/**
 * Collect: reads a job that is running or has ended in the cluster, read-only: its pods' logs
 * (current and previous containers, fetched in parallel with a bound and streamed to files), the
 * pod-to-node map, each node's instance type and allocatable GPUs and EFA, and the job's manifest;
 * saves them in a folder that diagnose reads again offline. Uses run's client setup and cluster
 * messages.
 */
package io.topolens.kube.collect;
