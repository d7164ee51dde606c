package io.topolens.kube.collect;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topolens.kube.run.ClusterProblems;
import io.topolens.nccl.InputProblem;
import java.util.function.Supplier;

/**
 * One read of the cluster, named by its RBAC verb and resource, so that a refusal says in one line
 * which permission is missing.
 */
final class Access {
  /** The Role and ClusterRole that grant every read collect makes. */
  static final String RBAC = "examples/k8s/rbac/topolens-diagnose.yaml";

  private Access() {}

  /**
   * Runs {@code read}; a 403 becomes "cannot VERB RESOURCE ... the role needs ...", anything else
   * the cluster's own words.
   *
   * @param namespace where, or null for cluster-scoped resources (nodes)
   */
  static <T> T read(String verb, String resource, String namespace, String server, Supplier<T> read)
      throws InputProblem {
    try {
      return read.get();
    } catch (KubernetesClientException e) {
      throw problem(e, verb, resource, namespace, server);
    }
  }

  static InputProblem problem(
      KubernetesClientException e, String verb, String resource, String namespace, String server) {
    String where = namespace == null ? "" : " in namespace " + namespace;
    if (e.getCode() == 403) {
      return new InputProblem(
          "forbidden (403): cannot "
              + verb
              + " "
              + resource
              + where
              + "; the role needs verb \""
              + verb
              + "\" on resource \""
              + resource
              + "\" ("
              + RBAC
              + ")");
    }
    return ClusterProblems.of(e, verb + " " + resource + where, server, null);
  }
}
