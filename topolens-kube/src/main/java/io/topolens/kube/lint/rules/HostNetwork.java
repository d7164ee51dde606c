package io.topolens.kube.lint.rules;

import io.topolens.kube.model.PodTemplate;

/** {@code hostNetwork: true}: the pod uses the node's network namespace (warn). */
public final class HostNetwork extends HostAccess {
  public HostNetwork() {
    super(
        "hostNetwork",
        PodTemplate::hostNetwork,
        "the node's interfaces and IP address, so NCCL's bootstrap and any TCP fallback skip the CNI and its overlay.",
        "pods of one node share ports (two jobs' rendezvous or sshd ports collide), NetworkPolicies no longer apply, and every process in the pod sees the node's traffic. EFA does not need it: RDMA goes through the EFA device the device plugin gives the pod, not through the pod network.",
        "Remove hostNetwork; request vpc.amazonaws.com/efa for the fast path, and set NCCL_SOCKET_IFNAME only if NCCL picks a wrong interface.");
  }

  @Override
  public String id() {
    return "host-network";
  }
}
