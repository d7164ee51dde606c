package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code job-unschedulable}: a scheduler could not place the job's processes because they ask for
 * more than the nodes offer: kube-scheduler's {@code 0/4 nodes are available: 4 Insufficient
 * nvidia.com/gpu.}, the kubelet's {@code Allocate failed due to requested number of devices
 * unavailable for nvidia.com/gpu} (UnexpectedAdmissionError), Slurm's {@code Requested node
 * configuration is not available}, Open MPI's {@code There are not enough slots available in the
 * system}. No rank ran where it was refused; ranks that did start wait for it at their rendezvous.
 */
public final class JobUnschedulable extends WarningRule {

  public JobUnschedulable() {
    super(Severity.ERROR, NcclWarning.Kind.UNSCHEDULABLE);
  }

  @Override
  public String id() {
    return "job-unschedulable";
  }

  @Override
  String title() {
    return "The scheduler could not place the job: it asks for more than the nodes offer";
  }

  @Override
  String explanation() {
    return "The job's processes were never started where they were refused: the scheduler or launcher found no node with the resources a process asks for (GPUs, RDMA or EFA devices, memory, CPUs, slots). Ranks that did start wait for the missing ones at their rendezvous (the TCPStore's or NCCL's bootstrap) and time out there: their errors are consequences.";
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            List.of(
                "cannot be scheduled right now",
                "does not allocate any gpus",
                "current node has no gpu available",
                "placement group creation timed out"),
            "Ray could not place an actor or a placement group: its autoscaler (or the driver) reports a resource request no node has free, {'GPU': 8.0} of one bundle being more GPUs than any single node of the cluster has, or GPUs other actors already hold (a previous trial, a vLLM engine still alive, a placement group not removed); the actors wait, and vLLM's Ray executor refuses to start where the driver's node holds no GPU of its placement group or has none free ('Current node has no GPU available': a placement group of an earlier run still holds them), as Ray Train refuses a placement group not ready within TRAIN_PLACEMENT_GROUP_TIMEOUT_S.",
            "Compare the request with `ray status` (the nodes' GPUs and what is used): make each bundle fit one node (num_gpus per worker times workers per bundle), remove placement groups and actors of earlier runs (ray.util.remove_placement_group, ray list placement-groups), add GPU nodes to the cluster, and run vLLM's driver on a GPU node of the cluster."),
        new Form(
            "insufficient ",
            "kube-scheduler's FailedScheduling (`0/N nodes are available: N Insufficient nvidia.com/gpu`) names, per resource, how many nodes lack it free: every GPU already taken by other pods, a pod asking more GPUs than any node has, or nodes that advertise none because the NVIDIA device plugin (or the GPU operator) is not running on them; the pod stays Pending.",
            "Compare the pod's requests with the nodes: kubectl describe node shows Allocatable and Allocated resources (nvidia.com/gpu 8 means the device plugin advertises 8); list what holds the GPUs (kubectl get pods -A -o wide on the node); check the device plugin's pods (kubectl -n gpu-operator get pods, or kube-system); ask for at most a node's GPUs per pod, or add nodes."),
        new Form(
            "requested number of devices unavailable",
            "The kubelet's device manager refused the pod at admission (UnexpectedAdmissionError): the scheduler counted GPUs the device plugin no longer offers, most often a GPU the plugin marked unhealthy (an Xid error) or a device plugin that restarted; the pod fails without running.",
            "Look at the node: the device plugin's log (unhealthy devices, Xid events), nvidia-smi and dmesg for Xid errors; delete the failed pod so it is scheduled again, and drain or repair a node whose GPU keeps dropping out."),
        new Form(
            "requested node configuration is not available",
            "Slurm refused the allocation: no node of the partition can ever meet one node's share of the request (GPUs per node in --gres=gpu:N or --gpus-per-node, memory, CPUs per task times tasks per node, a constraint or node count the partition does not have).",
            "Read what the nodes have: sinfo -p PARTITION -o \"%N %G %m %c\" (GPUs, memory, CPUs) and scontrol show node NODE; ask for at most that per node (--gres=gpu:8 on 8-GPU nodes, --mem within RealMemory), or more nodes with fewer GPUs each."),
        new Form(
            "exceeds the total number of available gpus",
            "vLLM asked Ray for a placement group of tensor-parallel times pipeline-parallel GPUs and the Ray cluster it joined has fewer: vLLM started a Ray instance of its own on one node instead of joining the cluster (no RAY_ADDRESS, another temp dir), the workers had not joined yet, or a pod's nvidia.com/gpu limit is below tensor_parallel_size.",
            "Make tensor_parallel_size x pipeline_parallel_size at most the GPUs `ray status` lists; start vLLM on a node of the running cluster with RAY_ADDRESS=auto (or the head's address) once every worker has joined; give each pod as many GPUs as the ranks it hosts."),
        new Form(
            "not enough slots available",
            "Open MPI refused to start: the job asks for more processes (-np) than the hosts offer slots (a hostfile's slots=N, the scheduler's allocation, or the cores it detected), so mpirun started none.",
            "Give every host its slots (a hostfile line `node1 slots=8`, -H node1:8,node2:8), ask for -np at most their sum, or pass --oversubscribe only where running more ranks than slots is meant (one rank per GPU still needs as many GPUs)."));
  }

  @Override
  String fix() {
    return "Ask for what the nodes offer, or free or add the resources the scheduler names.";
  }
}
