package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code resource-limit}: a process or container limit refused NCCL a resource ({@code Too many
 * open files}, {@code pthread_create failed: Resource temporarily unavailable}, {@code Failed to
 * malloc}, {@code setrlimit failed}).
 */
public final class ResourceLimit extends WarningRule {

  public ResourceLimit() {
    super(Severity.ERROR, NcclWarning.Kind.RESOURCE_LIMIT);
  }

  @Override
  public String id() {
    return "resource-limit";
  }

  @Override
  String title() {
    return "A process limit refused NCCL a resource (open files, threads, host memory)";
  }

  @Override
  String explanation() {
    return "NCCL opens sockets and files per peer and channel, and starts threads (bootstrap, proxy, progress): a system call failed on a limit of the process or its container, not on the network or the GPU. 'Too many open files' (EMFILE) is the open-file limit (ulimit -n, often 1024; NCCL raises its soft limit to the hard one at init, 'Call to setrlimit failed' when it may not); 'pthread_create failed: Resource temporarily unavailable' (EAGAIN) is the thread or process limit (ulimit -u, the container's pids limit); 'Failed to malloc' and 'Failed to CUDA host alloc' are host memory (the container's memory limit); the proxy's 'Too many connections' is NCCL's own limit of local connections.";
  }

  @Override
  String fix() {
    return "Raise the limits where the ranks run: ulimit -n 1048576 (docker --ulimit nofile=1048576:1048576; LimitNOFILE for services that start jobs), the pids limit (docker --pids-limit, Kubernetes podPidsLimit, Slurm cgroup TasksMax) and ulimit -u; give the pod more memory (resources.limits.memory) or lower the memory other processes of the node use; check the limits inside the launcher (mpirun/srun ... bash -c 'ulimit -a').";
  }
}
