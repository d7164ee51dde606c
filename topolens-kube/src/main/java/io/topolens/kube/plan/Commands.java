package io.topolens.kube.plan;

import io.topolens.kube.yaml.YamlList;
import java.util.ArrayList;
import java.util.List;

/** The commands a plan runs: torchrun for training, mpirun and all_reduce_perf for nccl-tests. */
final class Commands {
  static final String TRAIN_IMAGE =
      "public.ecr.aws/deep-learning-containers/pytorch-training:2.8.0-gpu-py312-cu129-ubuntu22.04-ec2-v1.0";
  static final String NCCL_TESTS_IMAGE = "public.ecr.aws/hpc-cloud/nccl-tests:latest";
  static final String MPIRUN = "/opt/amazon/openmpi/bin/mpirun";
  static final String ALL_REDUCE = "/opt/nccl-tests/build/all_reduce_perf";

  private Commands() {}

  /** The training command: the user's line through bash, or torchrun with one process per GPU. */
  static YamlList train(Sizing s) {
    if (s.spec.command() != null) {
      return YamlList.of("/bin/bash", "-c", s.spec.command());
    }
    return YamlList.of("torchrun", "--nproc_per_node=" + s.gpusPerPod, "train.py");
  }

  static String trainWhy(Sizing s) {
    return s.spec.command() != null
        ? "Asked for (--command), run by bash; its torchrun --nproc_per_node should be "
            + s.gpusPerPod
            + "."
        : "torchrun with one process per GPU; the operator sets the node count, rank and rendezvous address (PET_* variables). Replace train.py with your script (--command).";
  }

  /** mpirun of all_reduce_perf over every GPU: one rank per GPU, {@code -N} per pod. */
  static List<String> mpirun(Sizing s, boolean forwardDebug) {
    if (s.spec.command() != null) {
      return List.of("/bin/bash", "-c", s.spec.command());
    }
    List<String> c =
        new ArrayList<>(
            List.of(
                MPIRUN,
                "--allow-run-as-root",
                "--tag-output",
                "-np",
                String.valueOf(s.pods * s.gpusPerPod),
                "-N",
                String.valueOf(s.gpusPerPod),
                "--bind-to",
                "none",
                "-x",
                "PATH",
                "-x",
                "LD_LIBRARY_PATH"));
    if (forwardDebug) {
      for (var e : s.settings.policy().ncclDebug()) {
        c.add("-x");
        c.add(e.name() + "=" + e.value());
      }
    }
    c.addAll(
        List.of(ALL_REDUCE, "-b", "8", "-e", "16G", "-f", "2", "-g", "1", "-c", "1", "-n", "100"));
    return c;
  }

  static String mpirunWhy(Sizing s) {
    return s.spec.command() != null
        ? "Asked for (--command), run by bash."
        : "all_reduce_perf from 8 B to 16 GiB, one rank per GPU: -np "
            + s.pods * s.gpusPerPod
            + " ("
            + s.pods
            + " pods x "
            + s.gpusPerPod
            + " GPUs), -N "
            + s.gpusPerPod
            + " per pod (= slots per worker), -g 1; -c 1 checks results. -x forwards NCCL_DEBUG so topolens diagnose can read which path NCCL took; no EFA variable is needed on current images.";
  }
}
