package io.topolens.perf;

/**
 * How one host's socket throughput grows with the socket flows that share it (issue 12;
 * docs/model.md "Pods sharing a host"). Every ring hop that leaves a pod is one NCCL socket flow
 * through the host's network stack; more flows engage more of its CPU cores, so the host's
 * aggregate rate rises with the flows, sub-linearly: aggregate = rate of one flow x flows^{@code
 * exponent} ({@code path.tcp.flowExponent}). Exponent 0 is a fixed aggregate shared by the flows, 1
 * flows that do not slow one another.
 */
public final class SocketFlows {
  /** The exponent's id in perf-model.json, fitted by validate-model to section 4's layouts. */
  public static final String EXPONENT = "path.tcp.flowExponent";

  private SocketFlows() {}

  /**
   * The factor one flow's rate, measured among {@code measuredFlows} flows, takes among {@code
   * flows}: (measured / flows)^(1 - exponent).
   */
  static double perFlowScale(int measuredFlows, int flows, double exponent) {
    if (measuredFlows <= 0 || flows <= 0) {
      throw new IllegalArgumentException("flows must be positive: " + measuredFlows + ", " + flows);
    }
    return Math.pow((double) measuredFlows / flows, 1 - exponent);
  }

  /**
   * Socket flows of one ring over the pods of one host: it leaves each pod once, or takes the
   * network at every hop when a pod has one GPU or its own GPUs talk over sockets too.
   */
  static int ringFlows(int podsPerHost, int gpusPerPod, boolean podsTalkOverSockets) {
    return podsTalkOverSockets || gpusPerPod == 1 ? podsPerHost * gpusPerPod : podsPerHost;
  }
}
