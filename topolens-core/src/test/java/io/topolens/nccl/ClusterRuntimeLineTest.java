package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.NcclWarning.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ray's, JAX's, vLLM's and SGLang's own lines read as the kind their words say; reports whose cause
 * is another line, and the statements a traceback quotes, read as nothing.
 */
class ClusterRuntimeLineTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // https://github.com/ray-project/ray/issues/29412
        "2022-10-27 17:53:40,197 WARNING worker.py:1839 -- The node with node id:"
            + " b1d7d50a82a27c9cdb73c6c5a27cf355243895e54636ae698b31d1bf and address: 172.29.58.101"
            + " and node name: 172.29.58.101 has been marked dead because the detector has missed"
            + " too many heartbeats from it. This can happen when a    (1) raylet crashes"
            + " unexpectedly (OOM, preempted node, etc.) | WORKER_LOST",
        // https://github.com/ray-project/ray/issues/18449 (Ray 1.x, "and ip:")
        "2021-09-05 05:42:38,294     WARNING worker.py:1228 -- The node with node id:"
            + " 0fc14938add3345146c57e92449e77a584cace230879f50fd0813cc0 and ip: 172.31.57.35 has"
            + " been marked dead because the detector has missed too many heartbeats from it. This"
            + " can happen when a raylet crashes unexpectedly or has lagging heartbeats."
            + " | WORKER_LOST",
        "The actor died because its node has died. Node Id: 8d3e1a2b | WORKER_LOST",
        "ray.exceptions.LocalRayletDiedError: The task's local raylet died. Check raylet.out for"
            + " more information. | WORKER_LOST",
        // tsl coordination_service.cc's format as jaxlib raises it
        "jaxlib.xla_extension.XlaRuntimeError: UNAVAILABLE: Task /job:jax_worker/replica:0/task:1"
            + " heartbeat timeout. This indicates that the remote task has failed, got preempted, or"
            + " crashed unexpectedly. | WORKER_LOST",
        "(raylet) [2023-04-09 07:23:59,445 E 395 395] (raylet) node_manager.cc:3049: 10 Workers"
            + " (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other"
            + " reasons at node (ID: e5d953ef, IP: 10.0.62.231) over the last time period. | KILLED",
        // https://github.com/vllm-project/vllm/issues/15800's title (-9)
        "ChildProcessError: worker died (-9) | ",
        "ERROR 03-31 15:45:01 multiproc_worker_utils.py:123] Worker VllmWorkerProcess pid 1867860"
            + " died, exit code: -9 | KILLED",
        "ERROR 07-04 10:00:00 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 3283517"
            + " died, exit code: -11 | SEGFAULT",
        // https://github.com/vllm-project/vllm/issues/6145: the engine ending its workers
        "ERROR 07-04 10:00:00 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 3283517"
            + " died, exit code: -15 | ",
        "(autoscaler +2s) Warning: The following resource request cannot be scheduled right now:"
            + " {'GPU': 8.0}. | UNSCHEDULABLE",
        "RuntimeError: Unable to meet other processes at the rendezvous store. | RENDEZVOUS",
        "    raise RuntimeError('Unable to meet other processes at the rendezvous store. ') | ",
        // https://github.com/ayaka14732/llama-2-jax/issues/20
        "jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id:"
            + " PjRT_Client_Connect. Timed out task names: | RENDEZVOUS",
        // https://github.com/marin-community/levanter/issues/432
        "jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id:"
            + " multihost_broadcast_sync0. Timed out task names: | LAGGING",
        // https://github.com/sgl-project/sglang/issues/4503
        "ValueError: TP rank 1 could finish the model loading, but there are other ranks that"
            + " didn't finish loading. It is likely due to unexpected failures (e.g., OOM) or a"
            + " slow node. | LAGGING",
        "RuntimeError: The memory capacity is unbalanced. Some GPUs may be occupied by other"
            + " processes. min_per_gpu_memory=16.28, local_gpu_memory=46.81 | GPU_UNAVAILABLE",
        "RuntimeError: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU"
            + " devices. | INVALID_DEVICE",
        // https://github.com/PrimeIntellect-ai/prime-diloco/issues/68
        "  what():  [enforce fail at ../third_party/gloo/gloo/transport/tcp/pair.cc:446]"
            + " op.preamble.length <= op.nbytes. 1046204 vs 1040256 | COLLECTIVE_MISMATCH",
        // https://github.com/horovod/horovod/issues/2015
        "Tue Jun  9 20:10:40 2020[1]<stderr>:  what():  [horovod/common/gloo/http_store.cc:53]"
            + " [horovod/common/gloo/http_store.cc:53] Wait timeout for key(s): 0 | RENDEZVOUS",
        // https://github.com/jax-ml/jax/issues/22755
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to"
            + " allocate 3743729664 bytes. | GPU_MEMORY",
        "\tthe actor's node was preempted: the instance was preempted by the cloud provider"
            + " | WORKER_LOST",
        // https://github.com/NVIDIA/TensorRT-LLM/issues/753
        "AssertionError: Engine world size (2 * 1) != Runtime world size (1) | PARALLEL_LAYOUT",
        "    f'Engine world size ({world_size}) != Runtime world size ({mpi_world_size()})' | ",
        "ValueError: Total number of attention heads (32) must be divisible by tensor parallel"
            + " size (3). | PARALLEL_LAYOUT",
        // https://github.com/AI-Hypercomputer/gpu-recipes/issues/2 (JAX 0.5's registration barrier)
        "Original error: DEADLINE_EXCEEDED: Barrier timed out. Id:"
            + " [Init]Wait_for_all_tasks_to_register::0. This usually happens because a task"
            + " triggered the barrier too early or too slowly. | RENDEZVOUS",
        "Stopping coordination service as cluster registration failed. This may be due to 1) some"
            + " tasks crashed earlier before connecting, 2) some tasks were never scheduled, or 3)"
            + " scheduling delays. | RENDEZVOUS",
        "ValueError: Current node has no GPU available. current_node_resource={'CPU': 20.0}"
            + " | UNSCHEDULABLE",
        "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens"
            + " that can be stored in KV cache (16832). | GPU_MEMORY",
        // a script's check that quotes the words, not vLLM's error
        "    elif 'max seq len is larger than the maximum number of tokens that can be stored in KV"
            + " cache' in error_log: | ",
        // https://github.com/hiyouga/EasyR1/issues/324: the owner died, no cause of its own
        "The actor is dead because its owner has died. Owner Id: 01000000ffff Owner Ip address:"
            + " 172.21.160.9 Owner worker exit type: SYSTEM_ERROR Worker exit detail: Owner's node"
            + " has crashed. | ",
      })
  void readsTheKindItsWordsSay(String line, Kind kind) {
    NcclEvent e = ClusterRuntimeLine.parse(line);
    if (kind == null) {
      assertThat(e).isNull();
    } else {
      assertThat(e).isInstanceOf(NcclEvent.Warning.class);
      assertThat(((NcclEvent.Warning) e).kind()).isEqualTo(kind);
    }
  }
}
