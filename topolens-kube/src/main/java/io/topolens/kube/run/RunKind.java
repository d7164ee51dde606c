package io.topolens.kube.run;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Optional;
import java.util.Set;

/**
 * The job kinds {@code topolens run} can start and follow: where their API lives, the label their
 * pods carry, and the status conditions that say they ended.
 *
 * @param podLabel the label every pod of the job carries, with the job's name as its value
 * @param succeeded condition types that mean success when their status is True
 * @param failed condition types that mean failure when their status is True
 */
public record RunKind(
    String group,
    String version,
    String kind,
    String plural,
    boolean namespaced,
    String podLabel,
    Set<String> succeeded,
    Set<String> failed) {

  public static final RunKind TRAIN_JOB =
      new RunKind(
          "trainer.kubeflow.org",
          "v1alpha1",
          "TrainJob",
          "trainjobs",
          true,
          "jobset.sigs.k8s.io/jobset-name",
          Set.of("Complete"),
          Set.of("Failed"));
  public static final RunKind PYTORCH_JOB =
      new RunKind(
          "kubeflow.org",
          "v1",
          "PyTorchJob",
          "pytorchjobs",
          true,
          "training.kubeflow.org/job-name",
          Set.of("Succeeded"),
          Set.of("Failed"));
  public static final RunKind MPI_JOB =
      new RunKind(
          "kubeflow.org",
          "v2beta1",
          "MPIJob",
          "mpijobs",
          true,
          "training.kubeflow.org/job-name",
          Set.of("Succeeded"),
          Set.of("Failed"));
  public static final RunKind JOB_SET =
      new RunKind(
          "jobset.x-k8s.io",
          "v1alpha2",
          "JobSet",
          "jobsets",
          true,
          "jobset.sigs.k8s.io/jobset-name",
          Set.of("Completed"),
          Set.of("Failed"));
  public static final RunKind JOB =
      new RunKind(
          "batch",
          "v1",
          "Job",
          "jobs",
          true,
          "batch.kubernetes.io/job-name",
          Set.of("Complete"),
          Set.of("Failed"));

  /** Kinds that support a job (created before it, deleted after it when topolens created them). */
  public static final RunKind TRAINING_RUNTIME =
      new RunKind(
          "trainer.kubeflow.org",
          "v1alpha1",
          "TrainingRuntime",
          "trainingruntimes",
          true,
          null,
          Set.of(),
          Set.of());

  public static final RunKind CLUSTER_TRAINING_RUNTIME =
      new RunKind(
          "trainer.kubeflow.org",
          "v1alpha1",
          "ClusterTrainingRuntime",
          "clustertrainingruntimes",
          false,
          null,
          Set.of(),
          Set.of());

  private static final RunKind[] JOBS = {TRAIN_JOB, PYTORCH_JOB, MPI_JOB, JOB_SET, JOB};
  private static final RunKind[] SUPPORT = {TRAINING_RUNTIME, CLUSTER_TRAINING_RUNTIME};

  public String apiVersion() {
    return group + "/" + version;
  }

  /** The job kind of {@code apiVersion}/{@code kind}, if topolens can run it. */
  public static Optional<RunKind> job(String apiVersion, String kind) {
    for (RunKind k : JOBS) {
      if (k.apiVersion().equals(apiVersion) && k.kind.equals(kind)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /** A custom kind topolens knows how to create (jobs and Trainer runtimes). */
  static Optional<RunKind> known(String apiVersion, String kind) {
    Optional<RunKind> j = job(apiVersion, kind);
    if (j.isPresent()) {
      return j;
    }
    for (RunKind k : SUPPORT) {
      if (k.apiVersion().equals(apiVersion) && k.kind.equals(kind)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  public ResourceDefinitionContext context() {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(namespaced)
        .build();
  }
}
