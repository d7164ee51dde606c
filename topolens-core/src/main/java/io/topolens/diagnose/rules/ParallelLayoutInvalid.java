package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code parallel-layout-invalid}: a framework refused the parallel layout it was given, which does
 * not fit the model or the processes launched: TensorRT-LLM's engine built for another world size
 * ({@code Engine world size (2 * 1) != Runtime world size (1)}, {@code Assertion failed: mpiSize ==
 * tp * pp}), vLLM's attention heads that the tensor-parallel size does not divide, Megatron-LM's
 * world size that tp x pp x cp does not divide, JAX's process id beyond num_processes. No
 * communicator was made; nothing in the system or the network is wrong.
 */
public final class ParallelLayoutInvalid extends WarningRule {

  public ParallelLayoutInvalid() {
    super(Severity.ERROR, NcclWarning.Kind.PARALLEL_LAYOUT);
  }

  @Override
  public String id() {
    return "parallel-layout-invalid";
  }

  @Override
  String title() {
    return "The parallel layout does not fit the model or the processes launched";
  }

  @Override
  String explanation() {
    return "The framework checked its parallel layout (tensor, pipeline, context and data parallel sizes) against the model and against the processes it runs in, and refused it before any communicator was made: the processes launched are not the ones the layout (or a prebuilt engine) was made for, or the model cannot be split that way.";
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            List.of("engine world size", "mpisize == tp * pp", "!= tp size", "equal to tp*pp"),
            "TensorRT-LLM builds an engine for one tensor x pipeline parallel layout (one engine file per rank, rank0.engine ...) and its runtime needs exactly that many MPI processes: the engine was built with --tp_size/--pp_size (or --world_size) for more GPUs than the program was started with (python run.py alone is one process), or for fewer.",
            "Start as many processes as the engine has ranks: mpirun -n N (N = tp_size x pp_size, the engine directory's rank*.engine files) python run.py ..., or rebuild the checkpoint and engine with the tp_size the launch has (convert_checkpoint.py --tp_size, trtllm-build)."),
        new Form(
            "must be divisible by tensor parallel size",
            "vLLM splits each layer's attention heads evenly across the tensor-parallel ranks, so --tensor-parallel-size must divide the model's number of attention heads (32 heads: 1, 2, 4, 8, 16 or 32).",
            "Use a tensor-parallel size that divides the model's num_attention_heads (config.json), and spread the other GPUs with pipeline parallelism (--pipeline-parallel-size) or data parallelism (more replicas)."),
        new Form(
            "is not divisible by tensor_model_parallel_size",
            "Megatron-LM's initialize_model_parallel needs the world size to be a multiple of tensor x pipeline x context parallel sizes (the rest is data parallelism): the launch started a number of processes the layout does not divide.",
            "Launch nnodes x nproc_per_node processes equal to a multiple of tensor_model_parallel_size x pipeline_model_parallel_size x context_parallel_size (x expert parallelism where used), or change those sizes to divide the world size."),
        new Form(
            "unexpected task registered",
            "JAX's coordination service (process 0 of jax.distributed.initialize) refused a process whose process_id is not below num_processes: the processes were started with a count or ids that do not agree (more processes than num_processes, ids counted from 1, a second job using the same coordinator address).",
            "Give every process the same num_processes and a distinct process_id in 0..num_processes-1 (or let the cluster detection of jax.distributed.initialize set them under Slurm, Kubernetes or MPI), and one coordinator address per job."));
  }

  @Override
  String fix() {
    return "Make the parallel sizes fit the model and the launch: as many processes as the layout's ranks, sizes that divide the model's heads and the world size.";
  }
}
