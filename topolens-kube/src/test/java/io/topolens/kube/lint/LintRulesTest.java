package io.topolens.kube.lint;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.kube.lint.rules.EfaCount;
import io.topolens.kube.lint.rules.EfaNotRequested;
import io.topolens.kube.lint.rules.EnvInvalid;
import io.topolens.kube.lint.rules.EnvObsolete;
import io.topolens.kube.lint.rules.GpuNotRequested;
import io.topolens.kube.lint.rules.HostIpc;
import io.topolens.kube.lint.rules.HostNetwork;
import io.topolens.kube.lint.rules.HostPid;
import io.topolens.kube.lint.rules.HugepagesMissing;
import io.topolens.kube.lint.rules.InstanceNotPinned;
import io.topolens.kube.lint.rules.OffloadMemory;
import io.topolens.kube.lint.rules.P2pLevelNvl;
import io.topolens.kube.lint.rules.PodPerGpu;
import io.topolens.kube.lint.rules.Privileged;
import io.topolens.kube.lint.rules.ProcsPerNode;
import io.topolens.kube.lint.rules.ResourceInvalid;
import io.topolens.kube.lint.rules.ShmMissing;
import io.topolens.kube.lint.rules.ShmTooSmall;
import io.topolens.kube.lint.rules.SocketIfname;
import io.topolens.kube.lint.rules.UnresolvedPlaceholder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One table per rule: a PyTorchJob of Workers (2 x p4d.24xlarge, 8 GPUs, 4 EFA, huge pages, a 64Gi
 * /dev/shm, torchrun --nproc_per_node=8 unless the knobs say otherwise) and exactly what the rule
 * says about it; an empty expectation is a negative case.
 */
class LintRulesTest {
  private static final Map<String, Supplier<LintRule>> RULES =
      Map.ofEntries(
          Map.entry("pod-per-gpu", PodPerGpu::new),
          Map.entry("efa-not-requested", EfaNotRequested::new),
          Map.entry("efa-count", EfaCount::new),
          Map.entry("procs-per-node", ProcsPerNode::new),
          Map.entry("gpu-not-requested", GpuNotRequested::new),
          Map.entry("shm-missing", ShmMissing::new),
          Map.entry("shm-too-small", ShmTooSmall::new),
          Map.entry("offload-memory", OffloadMemory::new),
          Map.entry("hugepages-missing", HugepagesMissing::new),
          Map.entry("resource-invalid", ResourceInvalid::new),
          Map.entry("p2p-level-nvl", P2pLevelNvl::new),
          Map.entry("env-invalid", EnvInvalid::new),
          Map.entry("env-obsolete", EnvObsolete::new),
          Map.entry("socket-ifname", SocketIfname::new),
          Map.entry("privileged", Privileged::new),
          Map.entry("host-network", HostNetwork::new),
          Map.entry("host-ipc", HostIpc::new),
          Map.entry("host-pid", HostPid::new),
          Map.entry("instance-not-pinned", InstanceNotPinned::new),
          Map.entry("unresolved-placeholder", UnresolvedPlaceholder::new));

  @ParameterizedTest(name = "{0} [{1}]")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        "pod-per-gpu| - | -",
        "pod-per-gpu| gpus=1;replicas=8;efa=-;hugepages=- | warn PyTorchJob t: each pod holds 1 of the 8 GPUs of a p4d.24xlarge, so up to 8 pods share a node",
        "pod-per-gpu| gpus=4;replicas=1;efa=2 | info PyTorchJob t: its one pod holds 4 of the 8 GPUs of a p4d.24xlarge",
        "pod-per-gpu| instance=g5.xlarge;gpus=1;efa=-;hugepages=-;replicas=4 | -",
        "pod-per-gpu| instance=-;gpus=1;replicas=8 | -",
        "efa-not-requested| - | -",
        "efa-not-requested| efa=-;hugepages=- | error PyTorchJob t: p4d.24xlarge has 4 EFA interfaces but the pods request none",
        "efa-not-requested| efa=-;hugepages=-;replicas=1 | -",
        "efa-not-requested| instance=g5.xlarge;gpus=1;efa=-;hugepages=- | -",
        "efa-count| - | -",
        "efa-count| instance=p5.48xlarge;efa=32 | -",
        "efa-count| instance=g5.xlarge;gpus=1;efa=1 | error PyTorchJob t: requests 1 EFA device on g5.xlarge, which has no EFA",
        "efa-count| efa=8 | error PyTorchJob t: requests 8 EFA devices; p4d.24xlarge has 4",
        "efa-count| efa=2 | warn PyTorchJob t: requests 2 of the 4 EFA devices that go with 8 of 8 GPUs on p4d.24xlarge",
        "efa-count| gpus=4;efa=4 | warn PyTorchJob t: requests 4 EFA devices for 4 of 8 GPUs on p4d.24xlarge (its share is 2)",
        "efa-count| gpus=4;efa=2 | -",
        "efa-count| gpus=1;efa=1;replicas=8 | warn PyTorchJob t: p4d.24xlarge's 4 EFA devices cannot go round 8 pods of 1 GPU",
        "procs-per-node| - | -",
        "procs-per-node| command=torchrun --nproc_per_node=1 train.py | error PyTorchJob t: torchrun --nproc_per_node says 1 per pod, but each pod has 8 GPUs",
        "procs-per-node| command=torchrun --nproc-per-node 16 x.py | error PyTorchJob t: torchrun --nproc-per-node says 16 per pod, but each pod has 8 GPUs",
        "procs-per-node| command=python train.py;nproc=auto | -",
        "procs-per-node| command=python train.py;nproc=4 | error PyTorchJob t: nprocPerNode says 4 per pod, but each pod has 8 GPUs",
        "procs-per-node| command=python train.py;nproc=cpu | error PyTorchJob t: nprocPerNode starts one process per CPU core on pods of 8 GPUs",
        "procs-per-node| command=deepspeed --num_gpus=8 train.py | -",
        "procs-per-node| command=torchrun --nproc_per_node=$NPROC train.py | -",
        "shm-missing| - | -",
        "shm-missing| shm=- | error PyTorchJob t: no /dev/shm volume",
        "shm-missing| shm=-;gpus=1;efa=-;hugepages=-;command=python t.py | warn PyTorchJob t: no /dev/shm volume",
        "shm-missing| shm=-;pod=hostIPC: true | -",
        "shm-missing| shm=-;gpus=-;efa=-;hugepages=- | -",
        "shm-too-small| - | -",
        "shm-too-small| shm=512Mi | warn PyTorchJob t: /dev/shm is limited to 512Mi, below NCCL's 1 GiB",
        "shm-too-small| shm=64Gi;memory=32Gi | warn PyTorchJob t: /dev/shm may grow to 64Gi, above the container's memory limit of 32Gi",
        "shm-too-small| shm=host | -",
        "offload-memory| - | -",
        "offload-memory| command=deepspeed train.py --model Llama-3-70B --offload_param cpu;memory=1600Gi | warn PyTorchJob t: memory limit 1600Gi is below the 3360.0 GB CPU offload needs without zero.Init",
        "offload-memory| command=deepspeed train.py --model Llama-3-70B --offload_param cpu;memory=500Gi | error PyTorchJob t: memory limit 500Gi is below the 945.0 GB CPU offload needs",
        "offload-memory| command=deepspeed train.py --model Llama-3-70B --offload_param cpu;memory=none;replicas=1 | error PyTorchJob t: CPU offload needs 1890.0 GB per pod; p4d.24xlarge has 1152 GiB for a pod of 8 GPUs",
        "offload-memory| command=deepspeed train.py --model Llama-3-70B --offload_param cpu;memory=none | -",
        "offload-memory| command=deepspeed train.py --model Llama-3-70B --offload_param none;memory=500Gi | -",
        "offload-memory| command=deepspeed train.py --model Llama-3-70B;memory=500Gi | -",
        "hugepages-missing| - | -",
        "hugepages-missing| hugepages=- | warn PyTorchJob t: requests EFA but no hugepages-2Mi",
        "hugepages-missing| efa=-;hugepages=- | -",
        "resource-invalid| - | -",
        "resource-invalid| gpus=-;res=nvidia.com: 1 | error PyTorchJob t Worker: container pytorch: resource name \"nvidia.com\" is neither standard nor domain-qualified",
        "resource-invalid| requests=vpc.amazonaws.com/efa: 2 | error PyTorchJob t Worker: container pytorch: vpc.amazonaws.com/efa requests 2 but limits 4",
        "resource-invalid| gpus=0.5 | error PyTorchJob t Worker: container pytorch: nvidia.com/gpu: 0.5 is not a whole number",
        "resource-invalid| memory=none | error PyTorchJob t Worker: container pytorch: hugepages-2Mi without a cpu or memory request",
        "p2p-level-nvl| - | -",
        "p2p-level-nvl| env.NCCL_P2P_LEVEL=NVL | info PyTorchJob t: NCCL_P2P_LEVEL=NVL restates the default on p4d.24xlarge",
        "p2p-level-nvl| env.NCCL_P2P_LEVEL=nvl;instance=g6e.48xlarge | warn PyTorchJob t: NCCL_P2P_LEVEL=NVL on g6e.48xlarge, whose NVIDIA L40S GPUs have no NVLink",
        "p2p-level-nvl| env.NCCL_P2P_LEVEL=NVL;instance=- | info PyTorchJob t: NCCL_P2P_LEVEL=NVL allows P2P only over NVLink",
        "p2p-level-nvl| env.NCCL_P2P_LEVEL=SYS;instance=g6e.48xlarge | -",
        "env-invalid| env.NCCL_ALGO=true | error PyTorchJob t: NCCL_ALGO=true is not a value NCCL_ALGO accepts",
        "env-invalid| env.NCCL_ALGO=Tree | -",
        "env-invalid| env.NCCL_ALGO=^NVLS,Ring | -",
        "env-invalid| env.NCCL_ALGO=allreduce:tree,ring;env.NCCL_PROTO=LL128 | -",
        "env-invalid| env.NCCL_PROTO=fast | error PyTorchJob t: NCCL_PROTO=fast is not a value NCCL_PROTO accepts",
        "env-invalid| env.NCCL_DEBUG=verbose | error PyTorchJob t: NCCL_DEBUG=verbose is not a value NCCL_DEBUG accepts",
        "env-invalid| env.NCCL_P2P_DISABLE=true | error PyTorchJob t: NCCL_P2P_DISABLE=true is not a value NCCL_P2P_DISABLE accepts",
        "env-invalid| env.NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV | -",
        "env-obsolete| env.NCCL_IB_DISABLE=0 | info PyTorchJob t: NCCL_IB_DISABLE=0 does nothing for EFA",
        "env-obsolete| env.NCCL_IB_DISABLE=1 | -",
        "env-obsolete| env.FI_EFA_USE_DEVICE_RDMA=1 | info PyTorchJob t: FI_EFA_USE_DEVICE_RDMA=1 is not needed with libfabric 1.18 and later",
        "env-obsolete| env.FI_EFA_USE_DEVICE_RDMA=1;instance=g6e.48xlarge | warn PyTorchJob t: FI_EFA_USE_DEVICE_RDMA=1 cannot work on this instance type",
        "env-obsolete| env.FI_EFA_USE_DEVICE_RDMA=1;instance=- | -",
        "env-obsolete| env.NCCL_SOCKET_NTHREADS=4 | info PyTorchJob t: NCCL_SOCKET_NTHREADS=4 does not apply to EFA",
        "env-obsolete| env.NCCL_SOCKET_NTHREADS=4;efa=-;hugepages=- | -",
        "env-obsolete| env.RDMAV_FORK_SAFE=1 | warn PyTorchJob t: RDMAV_FORK_SAFE=1 should not be used with EFA",
        "env-obsolete| env.NCCL_PROTO=Simple | warn PyTorchJob t: NCCL_PROTO=Simple takes the faster protocols away",
        "env-obsolete| env.NCCL_PROTO=LL128 | -",
        "socket-ifname| env.NCCL_SOCKET_IFNAME=lo | warn PyTorchJob t: NCCL_SOCKET_IFNAME=lo selects lo",
        "socket-ifname| env.NCCL_SOCKET_IFNAME=docker0,eth0 | warn PyTorchJob t: NCCL_SOCKET_IFNAME=docker0,eth0 selects docker0",
        "socket-ifname| env.NCCL_SOCKET_IFNAME=^lo,docker | -",
        "socket-ifname| env.NCCL_SOCKET_IFNAME=eth0 | -",
        "privileged| container=securityContext: {privileged: true} | warn PyTorchJob t Worker: container pytorch is privileged",
        "privileged| container=securityContext: {privileged: false, capabilities: {add: [IPC_LOCK]}} | -",
        "host-network| pod=hostNetwork: true | warn PyTorchJob t Worker: hostNetwork: true",
        "host-network| pod=hostNetwork: false | -",
        "host-ipc| pod=hostIPC: true | warn PyTorchJob t Worker: hostIPC: true",
        "host-ipc| - | -",
        "host-pid| pod=hostPID: true | warn PyTorchJob t Worker: hostPID: true",
        "instance-not-pinned| - | -",
        "instance-not-pinned| instance=- | info PyTorchJob t: no node selector on node.kubernetes.io/instance-type",
        "instance-not-pinned| instance=p9.99xlarge | info PyTorchJob t: instance type p9.99xlarge is not in topolens's hardware catalog",
        "unresolved-placeholder| - | -",
        "unresolved-placeholder| gpus=\"${GPUS}\" | info PyTorchJob t: 1 value(s) left for envsubst: GPUS",
        "gpu-not-requested| - | -",
      })
  void rule(String id, String knobs, String expected) {
    List<String> want = expected == null ? List.of() : Arrays.asList(expected.split(" \\| "));
    assertThat(Jobs.of(knobs).check(RULES.get(id).get(), LintContext.defaults()))
        .containsExactlyElementsOf(want);
  }

  @Test
  void everyStandardRuleHasAUniqueIdAndEveryIdIsDocumented() throws Exception {
    List<String> ids = Linter.standard().rules().stream().map(LintRule::id).toList();
    assertThat(ids).doesNotHaveDuplicates().hasSize(24);
    String doc =
        java.nio.file.Files.readString(io.topolens.kube.Examples.root().resolve("docs/lint.md"));
    for (String id : ids) {
      assertThat(doc).as(id).contains("## `" + id + "`");
    }
  }

  @Test
  void anInstanceFromTheCommandLinePinsUnpinnedPods() {
    LintContext d = LintContext.defaults();
    LintContext p4d =
        new LintContext(
            d.catalog(),
            d.settings(),
            d.measurements(),
            d.trainer(),
            false,
            "p4d.24xlarge",
            null,
            null);
    assertThat(Jobs.of("instance=-").check(new InstanceNotPinned(), p4d)).isEmpty();
    assertThat(Jobs.of("instance=-;efa=-;hugepages=-").check(new EfaNotRequested(), p4d))
        .containsExactly(
            "error PyTorchJob t: p4d.24xlarge has 4 EFA interfaces but the pods request none");
  }
}
