package io.topolens.kube.lint.rules;

import io.topolens.kube.model.PodTemplate;

/** {@code hostPID: true}: the pod sees every process of the node (warn). */
public final class HostPid extends HostAccess {
  public HostPid() {
    super(
        "hostPID",
        PodTemplate::hostPID,
        "the node's process list, which some monitoring tools want; training needs nothing from it.",
        "processes in the pod can see, signal and (as root) trace every process of the node, other jobs' included.",
        "Remove hostPID; use shareProcessNamespace if containers of one pod must see each other.");
  }

  @Override
  public String id() {
    return "host-pid";
  }
}
