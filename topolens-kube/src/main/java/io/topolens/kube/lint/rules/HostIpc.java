package io.topolens.kube.lint.rules;

import io.topolens.kube.model.PodTemplate;

/** {@code hostIPC: true}: the pod shares the node's IPC namespace and /dev/shm (warn). */
public final class HostIpc extends HostAccess {
  public HostIpc() {
    super(
        "hostIPC",
        PodTemplate::hostIPC,
        "the node's IPC namespace and /dev/shm, shared with every other hostIPC pod: NCCL ranks in different pods of one node can then reach each other through shared memory, the cross-pod trick of seed 003 (CUDA P2P between pods still needs the GPUs visible in both).",
        "any hostIPC pod can read and write the shared memory of every other one on the node (other jobs' data included), and /dev/shm becomes the node's, sized by the host, not by the pod. One pod per node holding all its GPUs gets NVLink or PCIe paths without it.",
        "Remove hostIPC; run one pod per node with all its GPUs, and mount a memory-backed emptyDir at /dev/shm.");
  }

  @Override
  public String id() {
    return "host-ipc";
  }
}
