package io.topolens.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.topolens.kube.run.KubeClients;
import io.topolens.nccl.InputProblem;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Which cluster a command talks to, with kubectl's names: {@code --kubeconfig}, {@code --context}.
 */
final class KubeconfigOptions {

  @Option(
      names = "--context",
      paramLabel = "NAME",
      description = "kubeconfig context (default: the current one).")
  String context;

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description = "kubeconfig file (default: $KUBECONFIG, then ~/.kube/config).")
  Path kubeconfig;

  /** A client for the chosen kubeconfig and context. */
  KubernetesClient connect() throws InputProblem {
    return KubeClients.connect(kubeconfig, context);
  }
}
