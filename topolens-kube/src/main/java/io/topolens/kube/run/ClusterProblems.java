package io.topolens.kube.run;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topolens.nccl.InputProblem;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.util.Locale;

/** Turns the Kubernetes client's exceptions into one line a user can act on. */
public final class ClusterProblems {
  private ClusterProblems() {}

  /**
   * @param what what was being done ("create MPIJob nccl-tests in namespace ml")
   * @param server the API server's URL
   */
  public static InputProblem of(
      KubernetesClientException e, String what, String server, RunKind kind) {
    int code = e.getCode() < 0 ? 0 : e.getCode();
    String reason =
        e.getStatus() != null && e.getStatus().getMessage() != null
            ? e.getStatus().getMessage()
            : firstLine(e.getMessage());
    return new InputProblem(
        switch (code) {
          case 401 ->
              "cannot "
                  + what
                  + ": unauthorized (401); the kubeconfig's credentials were refused by "
                  + server;
          case 403 ->
              "cannot "
                  + what
                  + ": forbidden (403): "
                  + reason
                  + " (see docs/kubernetes.md for the RBAC topolens run needs)";
          case 404 ->
              kind != null
                  ? "cannot "
                      + what
                      + ": the cluster has no "
                      + kind.kind()
                      + " ("
                      + kind.apiVersion()
                      + "); is its operator installed? (kubectl get crd "
                      + kind.plural()
                      + "."
                      + kind.group()
                      + ")"
                  : "cannot " + what + ": not found (404): " + reason;
          case 409 ->
              "cannot "
                  + what
                  + ": it already exists (409); delete it first or choose another name";
          case 422, 400 ->
              "cannot " + what + ": the API server rejected it (" + code + "): " + reason;
          case 0 -> unreachable(e, what, server);
          default -> "cannot " + what + ": " + code + " " + reason;
        });
  }

  private static String unreachable(Throwable e, String what, String server) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof HttpConnectTimeoutException) {
        return "cannot reach the cluster at "
            + server
            + " to "
            + what
            + " (connection timed out); check the kubeconfig context (--context) and the network";
      }
      if (t instanceof ConnectException) {
        String m =
            t.getMessage() == null
                ? "connection refused"
                : firstLine(t.getMessage()).toLowerCase(Locale.ROOT);
        return "cannot reach the cluster at "
            + server
            + " to "
            + what
            + " ("
            + m
            + "); check the kubeconfig context (--context) and the network";
      }
      if (t instanceof UnknownHostException) {
        return "cannot reach the cluster at "
            + server
            + " to "
            + what
            + ": unknown host "
            + t.getMessage()
            + "; check the kubeconfig context (--context)";
      }
    }
    return "cannot " + what + " at " + server + ": " + firstLine(e.getMessage());
  }

  public static String firstLine(String s) {
    if (s == null) {
      return "no message";
    }
    String l = s.strip();
    int nl = l.indexOf('\n');
    return nl < 0 ? l : l.substring(0, nl);
  }
}
