package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Recognition by content: every nccl-tests output, and none of the other bundled inputs. */
class LooksLikeTest {

  private static String head(Path p, int bytes) throws IOException {
    try (InputStream in = Files.newInputStream(p)) {
      return new String(in.readNBytes(bytes), StandardCharsets.UTF_8);
    }
  }

  private static List<Path> files(String dir) throws IOException {
    try (Stream<Path> s = Files.walk(Fixtures.path(dir))) {
      return s.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().equals("README.md"))
          .sorted()
          .toList();
    }
  }

  @Test
  void everyPublicOutputInItsFirstKilobyte() throws IOException {
    for (Path p : files("public/nccl-tests")) {
      boolean first = NcclTestsReader.looksLike(head(p, 1024));
      if (p.getFileName().toString().startsWith("001-")) {
        // 80 lines of PMIX and libfabric noise come first; the parameter line is at 8 KB
        assertThat(first).as(p.toString()).isFalse();
        assertThat(NcclTestsReader.looksLike(head(p, 16384))).as(p.toString()).isTrue();
      } else {
        assertThat(first).as(p.toString()).isTrue();
      }
    }
  }

  @Test
  void everyFixtureOutputTextOrJson() throws IOException {
    for (String f :
        List.of(
            "ar-p2p.log",
            "ag-p2p.log",
            "rs-p2p.log",
            "ar-ring.log",
            "ar-p2p-json.log",
            "ar-p2p.json")) {
      assertThat(NcclTestsReader.looksLike(head(Fixtures.path("fixtures/h200x4/" + f), 1024)))
          .as(f)
          .isTrue();
    }
  }

  /** Excerpts under nccl/ that are nccl-tests' own output (its header, its failure lines). */
  private static final List<String> NCCL_TESTS_EXCERPTS =
      List.of(
          "u03-system-not-yet-initialized-nccl-tests-264.log",
          "w05-invalid-device-ordinal-40-ranks-4-gpus-nccl-tests-54.log",
          "w07-socket-creation-2.2-no-interface-docker-nccl-tests-14.log",
          "w13-nccl-tests-illegal-address-own-kernel-nccl-393.log",
          "x01-no-cuda-device-nccl-tests-30.log",
          "z03-peer-mapping-exhausted-10-gpus-nccl-tests-324.log",
          "z04-unhandled-system-error-docker-shm-nccl-473.log",
          "z08-unhandled-cuda-error-nccl-for-newer-cuda-nccl-tests-6.log",
          "z10-rtx5090-max-shared-mem-2.25.1-nccl-tests-287.log",
          "q13-healthy-p2p-disabled-two-4090s-open-gpu-kernel-modules-45.log",
          "p14-nccl-tests-internal-error-2.18-title-nccl-tests-275.log",
          "r02-iommu-p2p-allreduce-hang-2.4.8-nccl-257.log",
          "r06-nccl-1.x-unhandled-cuda-error-p100-nccl-tests-5.log",
          "r07-socket-ifname-differs-per-node-internal-error-nccl-tests-219.log",
          "r10-amd-iommu-hang-cuda-path-warn-2.14.3-nccl-tests-115.log",
          "r17-healthy-two-nodes-ib-broadcast-fixed-cables-nccl-307.log",
          "r18-healthy-two-gpus-g2-nccl-1706.log",
          "k07-xorg-holds-p2p-ten-gpus-segfault-2.4.7-nccl-241.log",
          "n13-nccl-tests-stale-non-mpi-build-per-host-nccl-tests-27.log",
          "n16-healthy-efa-plugin-2.27.7-aws-ofi-nccl-1055.log",
          "a07-gpu-needs-reset-gsp-busy-unavailable-sichek-51.log",
          "a09-healthy-one-gpu-per-node-l40s-2.27.3-nccl-tests-323.log",
          "b14-healthy-gb200-nvl72-rack-allreduce-coreweave-nccl-tests-43.log",
          // nccl/heldout/set20: nccl-tests output (its header, result rows and summary)
          "c04-nccl-tests-built-without-mpi-two-nodes-run-apart-nccl-tests-182.log",
          "c06-vm-acs-not-disabled-half-ib-bandwidth-nccl-949.log",
          "c16-healthy-three-a100-nodes-hdr-at-target-nccl-tests-119.log",
          // nccl/heldout/set21: nccl-tests output (its header or result rows)
          "d01-acs-enabled-m40-allreduce-stalls-nccl-104.log",
          "d02-nvlink-bridge-not-seated-2080ti-system-hang-nccl-340.log",
          "d15-healthy-two-titanx-allreduce-test-nccl-36.log",
          "d16-healthy-two-p5-efa-mpijob-allreduce-aws-k8s-tester-585.log",
          // nccl/heldout/set23: nccl-tests output (its failure line, its header or result rows)
          "f06-invalid-device-ordinal-nvls-cuda-failure-reboot-vms-dranet-gke-rdma-docs.log",
          "f07-gpu-nic-misaligned-4-workers-half-allgather-bw-dranet-gke-rdma-docs.log",
          "f16-healthy-two-a4-b200-nodes-allgather-rdma-cluster-toolkit-gke-a4-readme.log",
          // nccl/heldout/set24: nccl-tests output (its header and result rows)
          "g21-healthy-two-p3dn-nodes-efa-allreduce-perf-jacobkahn-gist.log",
          // nccl/heldout/set27: nccl-tests output (its header or result rows)
          "l03-healthy-p2p-direct-four-4090s-patched-driver-2.23.4-all-reduce-perf-tinygrad-open-gpu-kernel-modules-pr-22.log",
          "l05-healthy-tuning-trace-three-h100-nodes-across-racks-slow-2.22.3-nccl-1453.log",
          "l08-healthy-custom-rdma-net-plugin-gdrdma-shared-two-h20-vms-2.26.5-alltoall-slow-nccl-tests-321.log",
          "l09-healthy-h800-rdma-plugin-v5-nvls-unavailable-all-reduce-perf-nccl-892.log",
          "l15-healthy-efa-libfabric-no-gdrdma-two-p4d-2.7.8-slow-busbw-aws-ofi-nccl-64.log",
          "l16-healthy-socket-no-libibverbs-warn-2.9.6-two-v100-nodes-broadcast-perf-nccl-tests-82.log",
          "l17-healthy-socket-ib-disabled-two-4090s-2.26.5-nccl-tests-in-vllm-throughput-thread-vllm-17568.log",
          // nccl/heldout/set28: nccl-tests output (its header and result rows)
          "o21-healthy-two-p5-nodes-efa-aws-ofi-nccl-1.9.2-nccl-2.22.3-all-reduce-488-gbps-p5-nccl-test.log",
          // nccl/hangs: an nccl-tests run that hung before its first result row
          "p2p-hang-two-a6000-2.8.2-nccl-606.log",
          // nccl/sweep19: nccl-tests in a Singularity container failing at init
          "v01-singularity-no-libmlx5-internal-error-nccl-tests-41.log",
          "v10-pyxis-container-nvidia-uvm-not-loaded-cuda-unknown-error-pyxis-81.log");

  /** NCCL debug logs, topology dumps and training logs, even whole (up to 64 KB): never. */
  @Test
  void noOtherInput() throws IOException {
    List<Path> others =
        Stream.of(
                files("nccl"),
                files("seeds"),
                files("public/smi-topo"),
                files("fixtures/h200x4/fsdp"),
                files("fixtures/h200x4/verbose"),
                List.of(
                    Fixtures.path("fixtures/h200x4/smi.txt"),
                    Fixtures.path("fixtures/h200x4/topo.xml"),
                    Fixtures.path("fixtures/h200x4/graph.xml")))
            .flatMap(List::stream)
            // held-out excerpts that are nccl-tests' own failure output ("Test CUDA failure
            // common.cu:941 ...", with its "nThread 1 nGpus 1 ..." header), not NCCL logs
            .filter(p -> !NCCL_TESTS_EXCERPTS.contains(p.getFileName().toString()))
            .toList();
    assertThat(others).hasSizeGreaterThan(60);
    for (Path p : others) {
      assertThat(NcclTestsReader.looksLike(head(p, 1024))).as(p.toString()).isFalse();
      assertThat(NcclTestsReader.looksLike(head(p, 65536))).as(p.toString()).isFalse();
    }
  }
}
