package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code ddp-unused-parameters}: PyTorch DDP's reducer found the prior backward pass unfinished at
 * the next forward, because some parameters received no gradient ({@code RuntimeError: Expected to
 * have finished reduction in the prior iteration before starting a new one}), with the parameters
 * and the rank it names when {@code TORCH_DISTRIBUTED_DEBUG} is set ({@code Parameters which did
 * not receive grad for rank 0: a.weight}). The application's model, not NCCL or the network.
 */
public final class DdpUnusedParameters extends WarningRule {

  public DdpUnusedParameters() {
    super(Severity.ERROR, NcclWarning.Kind.DDP_UNUSED_PARAMETERS);
  }

  @Override
  public String id() {
    return "ddp-unused-parameters";
  }

  @Override
  String title() {
    return "DDP parameters received no gradient";
  }

  @Override
  String explanation() {
    return "PyTorch DistributedDataParallel all-reduces each bucket of gradients once every parameter"
        + " in it has one, and checks at the next forward that the last backward pass finished its"
        + " reduction. Some parameters took no part in computing the loss (a branch or head not used"
        + " in this iteration, a forward output left out of the loss), so their buckets were never"
        + " reduced: the cited lines name them and the rank (TORCH_DISTRIBUTED_DEBUG=INFO or DETAIL"
        + " prints their names, the indices always). The model's code, not NCCL or the network.";
  }

  @Override
  String fix() {
    return "Make every forward output that depends on trainable parameters feed the loss (or freeze"
        + " the unused parameters with requires_grad_(False)); where some parameters are unused by"
        + " design, DistributedDataParallel(model, find_unused_parameters=True) (a cost each"
        + " iteration), or static_graph=True where the same parameters are unused every iteration."
        + " TORCH_DISTRIBUTED_DEBUG=INFO names the parameters.";
  }
}
