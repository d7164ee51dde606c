package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code algorithm-unavailable}: no algorithm/protocol can run an operation ({@code Error : no
 * algorithm/protocol available for function F with datatype T. NCCL_ALGO was set to A.}).
 */
public final class AlgorithmUnavailable extends WarningRule {

  public AlgorithmUnavailable() {
    super(Severity.ERROR, NcclWarning.Kind.ALGORITHM);
  }

  @Override
  public String id() {
    return "algorithm-unavailable";
  }

  @Override
  String title() {
    return "No algorithm can run the operation";
  }

  @Override
  String explanation() {
    return "NCCL found no algorithm and protocol that can run a collective with this datatype on this communicator, and failed it. Almost always NCCL_ALGO or NCCL_PROTO narrowed the choice to ones that cannot (since NCCL 2.19 the line ends with 'NCCL_ALGO was set to ...'): a global NCCL_ALGO applies to every collective, including the framework's barriers and broadcasts, and Tree, NVLS and CollNet run only some of them (all-reduce chiefly) and some datatypes (NVLS: no 64-bit integers), while CollNet needs the SHARP plugin and SHARP-capable switches and NVLS needs NVSwitch with the fabric manager.";
  }

  @Override
  String fix() {
    return "Unset NCCL_ALGO and NCCL_PROTO (NCCL picks per operation and size), or scope them to the collective they are meant for (NCCL_ALGO=allreduce:tree; NCCL_PROTO likewise); check the variables of every rank (the 'set by environment' lines).";
  }
}
