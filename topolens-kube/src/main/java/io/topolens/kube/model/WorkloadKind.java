package io.topolens.kube.model;

import java.util.Optional;

/** The manifest kinds topolens reads, with their API versions. */
public enum WorkloadKind {
  TRAIN_JOB("trainer.kubeflow.org/v1alpha1", "TrainJob"),
  TRAINING_RUNTIME("trainer.kubeflow.org/v1alpha1", "TrainingRuntime"),
  CLUSTER_TRAINING_RUNTIME("trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime"),
  PYTORCH_JOB("kubeflow.org/v1", "PyTorchJob"),
  MPI_JOB("kubeflow.org/v2beta1", "MPIJob"),
  MPI_JOB_V1("kubeflow.org/v1", "MPIJob"),
  JOB_SET("jobset.x-k8s.io/v1alpha2", "JobSet"),
  JOB("batch/v1", "Job"),
  POD("v1", "Pod");

  private final String apiVersion;
  private final String kind;

  WorkloadKind(String apiVersion, String kind) {
    this.apiVersion = apiVersion;
    this.kind = kind;
  }

  public String apiVersion() {
    return apiVersion;
  }

  public String kind() {
    return kind;
  }

  public static Optional<WorkloadKind> of(String apiVersion, String kind) {
    for (WorkloadKind k : values()) {
      if (k.apiVersion.equals(apiVersion) && k.kind.equals(kind)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /** Whether it is a Trainer runtime (a template for TrainJobs, not a job). */
  public boolean isRuntime() {
    return this == TRAINING_RUNTIME || this == CLUSTER_TRAINING_RUNTIME;
  }

  public boolean isMpiJob() {
    return this == MPI_JOB || this == MPI_JOB_V1;
  }
}
