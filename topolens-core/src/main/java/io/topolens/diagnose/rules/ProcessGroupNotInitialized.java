package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code process-group-not-initialized}: a torch.distributed call (a collective, {@code get_rank},
 * {@code DistributedDataParallel}, {@code SyncBatchNorm}, a {@code DistributedSampler}) ran in a
 * process that never called {@code init_process_group}: {@code Default process group has not been
 * initialized, please make sure to call init_process_group.}; or a model-parallel framework's group
 * used before the framework made it ({@code AssertionError: tensor model parallel group is not
 * initialized}: Megatron-LM, NeMo, vLLM).
 */
public final class ProcessGroupNotInitialized extends WarningRule {

  public ProcessGroupNotInitialized() {
    super(Severity.ERROR, NcclWarning.Kind.NO_PROCESS_GROUP);
  }

  @Override
  public String id() {
    return "process-group-not-initialized";
  }

  @Override
  String title() {
    return "A torch.distributed call ran before init_process_group";
  }

  @Override
  String explanation() {
    return "PyTorch raised 'Default process group has not been initialized' (distributed_c10d.py): the process called torch.distributed (a collective, get_rank/get_world_size, DistributedDataParallel, SyncBatchNorm, DistributedSampler, a framework's distributed wrapper) before or without init_process_group. Usually the script was started for distributed training without the launcher or flag that makes it initialise (plain python instead of torchrun, mmcv/mmdet's --launcher none, a config that enables SyncBN or DDP on one GPU), or init_process_group runs in another process than the call (a DataLoader worker, a spawned child).";
  }

  @Override
  String fix() {
    return "Start it as the project intends for distributed runs (torchrun --nproc_per_node N, --launcher pytorch, accelerate launch), or for one GPU switch the distributed pieces off (SyncBN to BN, no DDP wrapper, a plain sampler); otherwise call torch.distributed.init_process_group before the first distributed call (a single process can use init_process_group('gloo', init_method='tcp://127.0.0.1:29500', rank=0, world_size=1)) and guard calls with torch.distributed.is_initialized().";
  }

  /** The model-parallel groups the lines name, as they name them, or none for c10d's own. */
  private static List<String> groups(List<NcclWarning> hits) {
    return hits.stream()
        .filter(w -> w.detail() instanceof NcclWarning.Detail.ModelParallelGroup)
        .map(w -> ((NcclWarning.Detail.ModelParallelGroup) w.detail()).group())
        .distinct()
        .toList();
  }

  @Override
  String title(List<NcclWarning> hits) {
    List<String> groups = groups(hits);
    return !groups.isEmpty()
        ? "A model-parallel group was used before it was made: " + String.join(", ", groups)
        : title();
  }

  @Override
  String explanation(List<NcclWarning> hits) {
    return groups(hits).isEmpty()
        ? explanation()
        : explanation()
            + " A model-parallel framework (Megatron-LM's parallel_state.py, NeMo through Megatron core, vLLM) asserted that one of its own groups ("
            + String.join(", ", groups(hits))
            + ") does not exist: its initialize_model_parallel (Megatron's initialize_megatron, NeMo's megatron_init, vLLM's init_distributed_environment) has not run in this process, or ran in another one (a Ray actor or a subprocess other than the rank's), or the code calls a group that option never makes (the expert group without expert parallelism, a version of megatron-core the framework was not written for).";
  }
}
