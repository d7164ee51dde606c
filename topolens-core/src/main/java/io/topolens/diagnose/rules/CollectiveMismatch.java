package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code collective-mismatch}: peers disagree on the size or order of what they exchange ({@code
 * collective mismatch error}, {@code message truncated}, {@code Mismatched collective detected}).
 */
public final class CollectiveMismatch extends WarningRule {

  public CollectiveMismatch() {
    super(Severity.ERROR, NcclWarning.Kind.COLLECTIVE_MISMATCH);
  }

  @Override
  public String id() {
    return "collective-mismatch";
  }

  @Override
  String title() {
    return "Ranks disagree on what they exchange";
  }

  @Override
  String explanation() {
    return "A peer sent more (or less) than this rank posted to receive: NCCL's transport saw the sizes differ (IB: collective mismatch error, local size vs remote size; sockets and bootstrap: message truncated, receiving N bytes instead of M; NCCL 2.4: Mismatched collective detected). The ranks did not issue the same collectives with the same sizes in the same order, or they run with different settings that change how NCCL splits the data (NCCL_PROTO, NCCL_ALGO, NCCL_BUFFSIZE, other NCCL_* set on some ranks only) or different NCCL versions. The network is not the cause.";
  }

  @Override
  String fix() {
    return "Make every rank call the same collectives, in the same order, with the same counts and types (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL logs each call to compare; TORCH_DISTRIBUTED_DEBUG=DETAIL checks shapes); set NCCL_* variables identically on all ranks (compare the 'set by environment' lines of each) and run one NCCL version everywhere.";
  }
}
