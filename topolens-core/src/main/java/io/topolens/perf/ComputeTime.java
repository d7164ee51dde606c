package io.topolens.perf;

/**
 * GPU time of one micro-step's forward and backward, and of the optimizer step on the GPU
 * (docs/model.md, "Compute"). The forward and backward take the longer of two things that run side
 * by side: the GPU's FLOPs at a share of its dense peak ({@code compute.kernelShare}), and the host
 * launching them, a fixed time per decoder layer and pass ({@code compute.launchPerLayerS}), which
 * bounds small layers and short sequences. Where FSDP gathers a layer's parameters and reduces its
 * gradients per layer, every rank waits on the others' launches (DeepSpeed ZeRO-3 was not measured
 * and keeps one rank's): the launch time grows by {@code compute.launchPerPeerShare} for each other
 * rank, up to {@code compute.launchPeerCap} (measured on one host at world 1, 2 and 4). The
 * optimizer step on the GPU is memory-bound: AdamW reads and writes {@code
 * optimizer.gpu.bytesPerParam} per parameter at a share of the memory bandwidth ({@code
 * optimizer.gpu.hbmShare}). Each constant and its source is in perf-model.json.
 */
public final class ComputeTime {
  private final double kernelShare;
  private final double launchPerLayerS;
  private final double peerShare;
  private final int peerCap;
  private final double optBytesPerParam;
  private final double hbmShare;

  public ComputeTime(PerfConstants k) {
    this(
        k.value("compute.kernelShare"),
        k.value("compute.launchPerLayerS"),
        k.value("compute.launchPerPeerShare"),
        (int) k.value("compute.launchPeerCap"),
        k.value("optimizer.gpu.bytesPerParam"),
        k.value("optimizer.gpu.hbmShare"));
  }

  /** One rank's terms: no other rank to wait on. */
  ComputeTime(
      double kernelShare, double launchPerLayerS, double optBytesPerParam, double hbmShare) {
    this(kernelShare, launchPerLayerS, 0, 0, optBytesPerParam, hbmShare);
  }

  ComputeTime(
      double kernelShare,
      double launchPerLayerS,
      double peerShare,
      int peerCap,
      double optBytesPerParam,
      double hbmShare) {
    this.kernelShare = kernelShare;
    this.launchPerLayerS = launchPerLayerS;
    this.peerShare = peerShare;
    this.peerCap = peerCap;
    this.optBytesPerParam = optBytesPerParam;
    this.hbmShare = hbmShare;
  }

  /**
   * The same terms with the host's launches {@code scale} times as long as the fit host's (a probe
   * measured this host's launch speed, {@code compute.launchRefLayerUs}).
   */
  public ComputeTime withLaunchScale(double scale) {
    return new ComputeTime(
        kernelShare, launchPerLayerS * scale, peerShare, peerCap, optBytesPerParam, hbmShare);
  }

  /**
   * Training FLOPs of one micro-step on one GPU: per token 2 x parameters plus attention 4 x layers
   * x hidden x sequence per pass, three passes (forward, backward = 2 forwards), four with full
   * activation recomputation (KAPLAN, KORTHIKANTI).
   */
  public static double flops(
      double params, int layers, int hidden, int seq, long tokens, boolean checkpointing) {
    return tokens * passes(checkpointing) * (2 * params + 4.0 * layers * hidden * seq);
  }

  /** Forward-pass equivalents of one training micro-step: 3, or 4 with recomputation. */
  public static int passes(boolean checkpointing) {
    return checkpointing ? 4 : 3;
  }

  /** Seconds the GPU's FLOPs take at the kernel share of {@code peakTflops}. */
  public double flopSeconds(double flops, double peakTflops) {
    return flops / (peakTflops * 1e12 * kernelShare);
  }

  /** Seconds the host takes to launch a micro-step: per layer and forward-pass equivalent. */
  public double launchSeconds(int layers, boolean checkpointing) {
    return launchSeconds(layers, checkpointing, 0);
  }

  /**
   * As {@link #launchSeconds(int, boolean)}, with per-layer collectives waiting on {@code peers}
   * other ranks (0 for one rank, or where collectives are not per layer).
   */
  public double launchSeconds(int layers, boolean checkpointing, int peers) {
    return layers * launchPerLayerS * passes(checkpointing) / 3.0 * peerFactor(peers);
  }

  /** How much longer the launches take with per-layer collectives among {@code peers} others. */
  public double peerFactor(int peers) {
    return 1 + peerShare * Math.min(Math.max(peers, 0), peerCap);
  }

  /** Forward plus backward of one micro-step: the longer of FLOPs and launches. */
  public double forwardBackward(double flops, double peakTflops, int layers, boolean ckpt) {
    return Math.max(flopSeconds(flops, peakTflops), launchSeconds(layers, ckpt));
  }

  /** AdamW on the GPU over {@code params} parameters with {@code memoryTBs} of bandwidth. */
  public double optimizerSeconds(double params, double memoryTBs) {
    return params * optBytesPerParam / (memoryTBs * 1e12 * hbmShare);
  }

  public double kernelShare() {
    return kernelShare;
  }

  public double launchPerLayerS() {
    return launchPerLayerS;
  }

  public double peerShare() {
    return peerShare;
  }

  public int peerCap() {
    return peerCap;
  }

  public double hbmShare() {
    return hbmShare;
  }

  public double optBytesPerParam() {
    return optBytesPerParam;
  }
}
