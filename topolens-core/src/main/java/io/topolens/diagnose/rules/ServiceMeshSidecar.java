package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.model.Cluster;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code service-mesh-sidecar}: a service mesh's proxy sidecar (Istio's Envoy, Linkerd's proxy)
 * stands between the job's processes, which talk to each other over raw TCP (the rendezvous store,
 * NCCL's bootstrap and sockets): its RBAC refused a connection ({@code
 * rbac_access_denied_matched_policy[none]}, {@code RBAC: access denied}), its lines show it
 * intercepting a port of the pod ({@code TLS cluster inbound|23456||}), or, with {@code diagnose
 * --job}, a pod of the job runs an {@code istio-proxy} or {@code linkerd-proxy} container.
 */
public final class ServiceMeshSidecar extends WarningRule {

  /** The sidecar containers the meshes inject, by the names they give them. */
  private static final Set<String> PROXIES = Set.of("istio-proxy", "linkerd-proxy");

  private static final String FIX =
      "Turn sidecar injection off for the job's pods: in the pod template's metadata of every"
          + " replica (the PyTorchJob's Master and Worker, the TrainJob's runtime, the MPIJob's"
          + " launcher and workers) set sidecar.istio.io/inject: \"false\" (a label since Istio 1.10,"
          + " an annotation before), or linkerd.io/inject: disabled for Linkerd, and keep the"
          + " namespace closed with Kubernetes NetworkPolicies instead. Excluding ports from the"
          + " proxy (traffic.sidecar.istio.io/excludeInboundPorts, excludeOutboundPorts) covers"
          + " MASTER_PORT but not NCCL's bootstrap and socket connections, which use ports the"
          + " kernel picks.";

  /** Envoy's refusals, as opposed to its lines that only show it in the path. */
  private static final Form DENIED =
      new Form(
          List.of("rbac_access_denied", "rbac: access denied"),
          "The sidecar refused a connection by its RBAC filter: no AuthorizationPolicy of the"
              + " namespace allowed it (matched_policy[none] where none matched).",
          FIX);

  public ServiceMeshSidecar() {
    super(Severity.WARN, NcclWarning.Kind.SERVICE_MESH);
  }

  @Override
  public String id() {
    return "service-mesh-sidecar";
  }

  @Override
  List<Form> forms() {
    return List.of(DENIED);
  }

  @Override
  Severity severity(Job job, List<NcclWarning> hits) {
    return hits.stream().anyMatch(DENIED::saidBy) ? Severity.ERROR : Severity.WARN;
  }

  @Override
  String title(List<NcclWarning> hits) {
    return hits.stream().anyMatch(DENIED::saidBy)
        ? "A service mesh sidecar refused the job's traffic"
        : title();
  }

  @Override
  String title() {
    return "A service mesh sidecar proxies the job's traffic";
  }

  @Override
  String explanation() {
    return "The pods run a service mesh's proxy beside the training container (Istio injects istio-proxy, an Envoy, into every pod of a namespace labelled istio-injection=enabled, as Kubeflow's user namespaces are; Linkerd injects linkerd-proxy), and it takes over the pod's TCP traffic. The job's processes talk over raw TCP to each other's pod IPs: the rendezvous (PyTorch's TCPStore on MASTER_PORT, torchrun's c10d rendezvous), NCCL's bootstrap and its socket transport on ports it picks at random. Through the proxy these connections are refused by the namespace's authorization policies, held until the sidecar is ready, or cut by its mTLS, so the job hangs at init_process_group or NCCL's init, or times out there. Kubeflow's PyTorchJob page says a PyTorchJob does not work in a user namespace by default because of Istio's sidecar injection, and to turn it off.";
  }

  @Override
  String fix() {
    return FIX;
  }

  @Override
  String fix(List<NcclWarning> hits) {
    return FIX;
  }

  @Override
  public List<Finding> check(Observed o) {
    List<Finding> fromLogs = check(o.job());
    if (!fromLogs.isEmpty()) {
      return fromLogs;
    }
    List<Evidence> pods = new ArrayList<>();
    for (Cluster.PodRequest p : o.cluster().pods()) {
      p.containers().stream()
          .filter(PROXIES::contains)
          .forEach(c -> pods.add(new Evidence("pod " + p.pod(), 0, "runs container " + c)));
    }
    if (pods.isEmpty()) {
      return List.of();
    }
    return List.of(
        new Finding(
            id(),
            Severity.WARN,
            title(),
            pods.size()
                + " pod(s) of the job run a mesh proxy beside the training container. "
                + explanation()
                + " If the job runs well, the proxy costs only latency on the rendezvous; if it hangs"
                + " at its start, this is the first suspect.",
            pods,
            fix()));
  }
}
