package io.topolens.model;

/**
 * A GPU model a line names outside NCCL's own lines: nccl-tests' device list ({@code device 0
 * [0x81] NVIDIA GeForce RTX 4090}), nvidia-smi's table and {@code -L} list, PyTorch's environment
 * report ({@code GPU 0: NVIDIA GeForce RTX 4090}, {@code GPU 0: NVIDIA A40}) and its warning on an
 * unsupported GPU ({@code NVIDIA A40 with CUDA capability sm_86 ...}), an issue's title ({@code
 * Deadlock in distribution with multiple 4090}); or the GPUs' compute capability NCCL 2.3-2.6
 * prints ({@code Using 256 threads, Min Comp Cap 8, Trees disabled}).
 *
 * @param model the words that name the model, as written ({@code GeForce RTX 4090}, {@code 4090},
 *     {@code A100-SXM4-80GB}, {@code A40}), or null where the line names only a capability
 * @param capability the compute capability the line names ({@code sm_86} beside {@code A40} in
 *     PyTorch's warning, NCCL's Min Comp Cap), or null
 * @param hang whether the same line speaks of a hang ({@code hang}, {@code deadlock}, {@code
 *     stuck}, {@code freeze}, {@code timeout})
 * @param refused whether a launcher refused to start on these GPUs because P2P was left on
 *     (Accelerate's {@code Using RTX 4000 series doesn't support faster communication broadband via
 *     P2P or IB})
 * @param evidence the line
 */
public record GpuMention(
    String model, ComputeCapability capability, boolean hang, boolean refused, Evidence evidence) {

  /**
   * The words a finding names the GPU by: the model, with its capability beside it where the line
   * names both ({@code A40 (sm_86)}), or the capability alone.
   */
  public String words() {
    if (capability == null) {
      return model;
    }
    return model == null ? capability.words() : model + " (" + capability.words() + ")";
  }
}
