package io.topolens.kube.run;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.topolens.nccl.InputProblem;
import java.nio.file.Files;
import java.nio.file.Path;

/** Clients for the user's cluster: their kubeconfig and context, failing fast when unreachable. */
public final class KubeClients {
  private KubeClients() {}

  /**
   * A client from {@code kubeconfig} (or $KUBECONFIG / ~/.kube/config when null) and {@code
   * context} (the current one when null).
   */
  public static KubernetesClient connect(Path kubeconfig, String context) throws InputProblem {
    Config base;
    if (kubeconfig == null) {
      kubeconfig = fromEnvironment();
    }
    Path file = kubeconfig;
    try {
      if (kubeconfig != null) {
        if (!Files.isRegularFile(kubeconfig)) {
          throw new InputProblem(kubeconfig + ": no such kubeconfig file");
        }
        base = Config.fromKubeconfig(context, kubeconfig.toFile());
      } else {
        base = Config.autoConfigure(context);
      }
    } catch (RuntimeException e) {
      throw new InputProblem(
          (file == null ? "" : file + ": ")
              + "cannot read the kubeconfig"
              + (context == null ? "" : " context " + context)
              + ": "
              + ClusterProblems.firstLine(e.getMessage()));
    }
    if (context != null
        && base.getCurrentContext() != null
        && !context.equals(base.getCurrentContext().getName())) {
      throw new InputProblem("the kubeconfig has no context " + context);
    }
    Config config =
        new ConfigBuilder(base)
            .withRequestRetryBackoffLimit(1)
            .withConnectionTimeout(10_000)
            .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /**
   * The file $KUBECONFIG names, so that a missing one is reported by name rather than as an
   * unreachable in-cluster server; null when unset, or when it lists several files (fabric8 merges
   * those itself).
   */
  private static Path fromEnvironment() {
    String env = System.getenv("KUBECONFIG");
    if (env == null || env.isBlank() || env.contains(java.io.File.pathSeparator)) {
      return null;
    }
    return Path.of(env);
  }

  /** The API server's URL as messages name it ({@code https://host:6443}), or {@code ?}. */
  public static String server(KubernetesClient client) {
    return client.getMasterUrl() == null
        ? "?"
        : client.getMasterUrl().toString().replaceAll("/$", "");
  }

  /** The kubeconfig context's namespace, {@code default} when it names none. */
  public static String contextNamespace(KubernetesClient client) {
    String ctx = client.getNamespace();
    return ctx == null ? "default" : ctx;
  }
}
