package io.topolens.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.model.Job;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The held-out excerpts (nccl/heldout/README.md): the root cause of each is named. Measured blind:
 * set 1 (h01-h11) 8 of 11, set 2 (h12-h17) 4 of 6; the misses (h07, h08, h11, h13, h16) were closed
 * afterwards by reader forms of their class, so these rows keep the result, not a blind measure.
 * Set 3 (set3/s01-s07) 4 of 7 blind; s07 was closed by the cuda-out-of-memory rule, s05 by reading
 * NCCL's pre-2.4 {@code file:line WARN} lines (no word NCCL), s06 by net-plugin-fallback naming an
 * installed plugin that did not load where the log ends before NCCL names its network. Set 4
 * (set4/t01-t16) 4 of 14 blind on 09efc63; closed by the classes its misses showed (two ranks on
 * one GPU, sizes that differ between peers, a driver older than CUDA, rings that do not join up,
 * ENOMEM from verbs, aws-ofi-nccl finding no EFA device). t05 is no longer ib-error's: the IB line
 * there is a size mismatch, not the fabric. Set 5 (set5/u01-u07) 2 of 6 blind on this branch at
 * 225ad4b; closed by reading nccl-tests' own CUDA check line, shm-exhausted saying which /dev/shm
 * failure it is (space, permissions, a peer's missing segment), and CUDA's peer-access refusal
 * counting as P2P whichever transport hit it. Set 6 (set6/v01-v03) 0 of 3 blind on main at 674491d;
 * closed by algorithm-unavailable (no algorithm/protocol available, NCCL_ALGO) and
 * collnet-unavailable (SHARP/CollNet that could not start, no longer ib-error's). Set 8
 * (set8/x01-x11) 2 of 9 blind on main at 229f49f; closed by invalid-device taking CUDA 100,
 * ib-device-unavailable, ib-error reading RoCE GID attribute failures without NCCL's header, and
 * rendezvous-timeout taking PyTorch's wait for rank 0's ncclUniqueId, and socket-interface naming a
 * socket failure on a docker bridge gateway address (x04). Set 9 (set9/y01-y07) 0 of 6 blind on
 * main at e2f7454; closed by cuda-arch-unsupported (a build without the GPU's kernels) and
 * topology-detection-failed (topology/graph XML or sysfs NCCL could not read at init); y08, blind
 * on heldout9 at b59d2b3, not named, by cuda-unsupported (CUDA 801 at init). Set 10 (set10/z01-z12)
 * 2 of 12 blind on main at 3561452; closed by ofi-plugin-error naming an EFA peer address refused
 * (security group), p2p-setup-failed naming CUDA 711 (more than 8 peers), topology-detection-failed
 * taking {@code Could not find NET with id}, rem-allocator-failed (old NCCL's remote allocator, its
 * fake out of memory no longer cuda-out-of-memory's), cuda-arch-unsupported taking 2.25's
 * shared-memory line on sm_120, invalid-argument taking {@code Invalid rank requested}, and the
 * reader taking nccl-tests' {@code Test NCCL failure} and {@code NCCL Error N:}: 8 of 12 after.
 * z04, z08 and z12 stay unnamed: their logs do not hold the cause (z07's did, see below). Set 11
 * (set11/q01-q13) 8 of 12 blind on main at 26e40e6; closed by reading the NCCL error text of
 * wrappers of the C library (vLLM's and SGLang's {@code NCCL error: WORDS}, TensorRT-LLM's and
 * Paddle's {@code Failed, NCCL error FILE:LINE 'WORDS'}), XLA's {@code Last NCCL warning(error)}
 * quote as NCCL's last error, and socket-interface warning of a system error at init whose only
 * socket interface is IPoIB: 12 of 12 after. Set 12 (set12/p01-p16) 7 of 16 blind on main at
 * 635dd6f; closed by the reader taking NCCL's {@code Duplicate GPU detected} pasted alone (p13),
 * nccl-not-built (PyTorch built without NCCL, p07) and master-port-in-use (TCPStore's {@code
 * Address already in use}, p10); p14 is named (nccl-tests' {@code Test NCCL failure} after prose on
 * the line was already read anywhere in a line): 10 of 16 after; p09 by invalid-device reading CUDA
 * 101 in PyTorch's words: 11 of 16; then p08 by p2p-setup-failed reading CUDA 217 in a framework's
 * words (custom all-reduce), p05 by nccl-build-cuda-old (graph capture refused for the build's
 * CUDA), p03 by known-nccl-bug (the bundled catalog: 2.18.5 on WSL2): 14 of 16. p01 and p12 keep
 * their blind result: each is one line without the cause (no class of their cause exists to assert
 * absent). Set 10's z07 is named by socket-interface reading NCCL's own bootstrap trace over IPoIB:
 * 9 of 12. Set 14 (set14/s01-s16) 4 of 14 blind on main at 2359a48; close14b closed s04 (Paddle's
 * {@code Nccl error, ...} read as nccl-error), s06 and s07 (rendezvous-timeout taking c10d's client
 * connect failure and {@code DistStoreError: Socket Timeout} alone) and s13 (duplicate-rank
 * counting Lightning's rank announcements); s08 holds no NCCL or c10d line and stays "no NCCL
 * lines". close14a closed s03 and s11 by version-mismatch naming a libnccl older than the program
 * was built for (s11 no longer invalid-argument's), s12 by cuda-driver-too-old reading CUDA 35
 * alone, s14 by nccl-not-built taking a library that could not be loaded, and s09 by
 * p2p-setup-failed taking a CUDA failure of transport/p2p.cc (cuMem off): 13 of 14 together.
 */
class HeldOutTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "h01-watchdog-basicsr-737.log, collective-timeout, true",
    "h02-watchdog-reduce-scatter-llamafactory-6269.log, collective-timeout, true",
    "h03-p2p-ipc-64-horovod-785.log, p2p-setup-failed, true",
    "h04-nvls-bind-warn-dcgm-304.log, nvls-error, true",
    "h05-nvls-cuda-401-nccl-1788.log, nvls-error, true",
    "h06-ofi-register-rail-einval-awsome-distributed-ai-203.log, ofi-plugin-error, true",
    "h07-socket-poll-connect-timeout-nccl-pr-1618.log, socket-connect, true",
    "h08-connect-refused-quoted-wenet-959.log, socket-connect, true",
    "h09-watchdog-progress-bar-pytorch-118369.log, collective-timeout, true",
    "h10-watchdog-no-rank-instructglm-3.log, collective-timeout, true",
    "h11-nvls-bind-bare-line-pytorch-ao-3841.log, nvls-error, true",
    "h12-last-error-no-route-hkproj-1.log, socket-connect, true",
    "h13-flattened-loopback-connect-awsome-distributed-ai-192.log, socket-connect, true",
    "h14-connect-link-local-ib1-nccl-975.log, socket-connect, true",
    "h15-headerless-posix-fallocate-kubeflow-nccl-525.log, shm-exhausted, true",
    "h16-shm-segment-bare-line-xrayglm-83.log, shm-exhausted, true",
    "h17-async-system-error-empty-last-error-pytorch-149984.log, nccl-error, true",
    "set3/s01-ib-completion-error12-no-peer-nccl-426.log, ib-error, true",
    "set3/s02-ib-completion-bare-title-pytorch-81628.log, ib-error, true",
    "set3/s03-ibv-modify-qp-markdown-italics-nccl-769.log, ib-error, true",
    "set3/s04-ib-completion-bare-no-peer-nccl-902.log, ib-error, true",
    "set3/s05-socket-creation-old-warn-nccl-210.log, socket-interface, true",
    "set3/s06-libfabric-version-plugin-fallback-awsome-distributed-ai-292.log, net-plugin-fallback, true",
    "set3/s07-cuda-oom-quoted-nccl-295.log, cuda-out-of-memory, true",
    "set4/t01-duplicate-gpu-last-error-nccl-1241.log, duplicate-gpu, true",
    "set4/t02-duplicate-gpu-default-device-d-fine-289.log, duplicate-gpu, true",
    "set4/t03-ibv-reg-mr-memlock-title-nccl-tests-206.log, ib-memlock, true",
    "set4/t04-ib-async-port-error-quoted-nccl-905.log, ib-error, true",
    "set4/t05-ib-collective-mismatch-pdsh-nccl-969.log, collective-mismatch, true",
    "set4/t05-ib-collective-mismatch-pdsh-nccl-969.log, ib-error, false",
    "set4/t06-mismatched-collective-2.4-nccl-296.log, collective-mismatch, true",
    "set4/t07-ofi-getinfo-no-data-timestamp-aws-ofi-nccl-1020.log, ofi-plugin-error, true",
    "set4/t08-remote-error-reset-by-peer-nccl-2076.log, socket-connect, true",
    "set4/t09-net-recv-broken-pipe-remote-crash-nccl-795.log, socket-connect, true",
    "set4/t10-cuda-driver-insufficient-headerless-lmdeploy-1108.log, cuda-driver-too-old, true",
    "set4/t11-cudawrap-driver-insufficient-cuml-5961.log, cuda-driver-too-old, true",
    "set4/t12-no-socket-interface-rank-prefix-open-r1-multimodal-7.log, socket-interface, true",
    "set4/t13-socket-message-truncated-wrapped-nccl-626.log, collective-mismatch, true",
    "set4/t14-ring-not-loop-back-2.19-nccl-1020.log, topology-mismatch, true",
    "set5/u01-nvls-invalid-argument-headerless-2.18-nccl-976.log, nvls-error, true",
    "set5/u02-nvls-unknown-error-999-nccl-tests-276.log, nvls-error, true",
    "set5/u03-system-not-yet-initialized-nccl-tests-264.log, nvls-error, true",
    "set5/u04-shm-cumem-peer-access-217-nccl-1838.log, p2p-setup-failed, true",
    "set5/u04-shm-cumem-peer-access-217-nccl-1838.log, shm-exhausted, false",
    "set5/u05-shm-open-permission-denied-nccl-328.log, shm-exhausted, true",
    "set5/u06-shm-attach-size-0-memoryless-numa-nccl-pr-2059.log, shm-exhausted, true",
    "set6/v01-no-algorithm-collnet-forced-nccl-653.log, algorithm-unavailable, true",
    "set6/v02-no-algorithm-nvls-int64-nccl-1898.log, algorithm-unavailable, true",
    "set6/v03-sharp-job-collnet-fallback-nccl-1050.log, collnet-unavailable, true",
    "set6/v03-sharp-job-collnet-fallback-nccl-1050.log, ib-error, false",
    "set7/w01-bus-error-shm-backtrace-pipedream-76.log, shm-exhausted, true",
    "set7/w02-sigbus-ncclshmopen-gdb-jax-toolbox-183.log, shm-exhausted, true",
    "set7/w03-dist-backend-shm-segment-indented-torchtitan-853.log, shm-exhausted, true",
    "set7/w04-dist-store-workers-not-joined-pytorch-pr-111805.log, rendezvous-timeout, true",
    "set7/w05-invalid-device-ordinal-40-ranks-4-gpus-nccl-tests-54.log, invalid-device, true",
    "set7/w06-watchdog-remote-closed-killed-agent-pytorch-150916.log, socket-connect, true",
    "set7/w07-socket-creation-2.2-no-interface-docker-nccl-tests-14.log, socket-interface, true",
    "set7/w08-enqueue-cuda-700-illegal-address-title-vllm-19890.log, cuda-illegal-address, true",
    "set7/w09-broadcast-null-sendbuff-invalid-argument-nccl-1558.log, invalid-argument, true",
    "set7/w10-ibv-reg-dmabuf-mr-not-supported-2.13-nccl-778.log, dmabuf-unsupported, true",
    "set7/w10-ibv-reg-dmabuf-mr-not-supported-2.13-nccl-778.log, ib-error, false",
    "set7/w11-gdr-disabled-peermem-renamed-nccl-1676.log, gdr-disabled, true",
    "set7/w12-ibp-completion-status-12-title-nccl-1664.log, ib-error, true",
    "set7/w13-nccl-tests-illegal-address-own-kernel-nccl-393.log, cuda-illegal-address, true",
    "set8/x01-no-cuda-device-nccl-tests-30.log, invalid-device, true",
    "set8/x02-ib-unable-to-open-device-pod-imagereward-65.log, ib-device-unavailable, true",
    "set8/x02-ib-unable-to-open-device-pod-imagereward-65.log, ib-error, false",
    "set8/x03-ib-unable-to-open-erdma-hang-nccl-2428.log, ib-device-unavailable, true",
    "set8/x03-ib-unable-to-open-erdma-hang-nccl-2428.log, ib-error, false",
    "set8/x04-proxy-call-broken-pipe-docker-bridge-xgboost-7982.log, socket-interface, true",
    "set8/x05-roce-gid-version-read-failed-title-nccl-1573.log, ib-error, true",
    "set8/x06-unique-id-store-socket-timeout-llamafactory-3698.log, rendezvous-timeout, true",
    "set8/x07-unique-id-store-retreiving-socket-timeout-pytorch-82091.log, rendezvous-timeout, true",
    "set8/x08-invalid-usage-gpu-count-gfpgan-154.log, nccl-error, true",
    "set8/x09-watchdog-broadcast-seq1-slurm-lightning-20434.log, collective-timeout, true",
    "set9/y01-named-symbol-sm80-build-on-h100-nccl-1372.log, cuda-arch-unsupported, true",
    "set9/y02-topo-xml-cpu-arch-static-plugin-file-aws-ofi-nccl-785.log, topology-detection-failed, true",
    "set9/y03-topo-xml-cpu-arch-injected-topo-file-nccl-379.log, topology-detection-failed, true",
    "set9/y04-graph-file-dev-not-found-azhpc-images-327.log, topology-detection-failed, true",
    "set9/y05-pci-real-path-missing-wsl2-nccl-573.log, topology-detection-failed, true",
    "set9/y06-nic-busid-usb-network-device-nccl-1125.log, topology-detection-failed, true",
    "set9/y08-cumempool-operation-not-supported-vgpu-nccl-2101.log, cuda-unsupported, true",
    "set10/z01-ofi-av-insert-security-group-aws-ofi-nccl-663.log, ofi-plugin-error, true",
    "set10/z02-nvls-invalid-argument-fabric-manager-h800-nccl-1338.log, nvls-error, true",
    "set10/z03-peer-mapping-exhausted-10-gpus-nccl-tests-324.log, p2p-setup-failed, true",
    "set10/z04-unhandled-system-error-docker-shm-nccl-473.log, shm-exhausted, false",
    "set10/z05-proxy-accept-no-space-dev-shm-deepep-53.log, shm-exhausted, true",
    "set10/z06-net-id-not-found-2.25.1-nemo-run-266.log, topology-detection-failed, true",
    "set10/z07-bootstrap-ipoib-subnets-fsdp-dgx-nccl-1000.log, socket-interface, true",
    "set10/z08-unhandled-cuda-error-nccl-for-newer-cuda-nccl-tests-6.log, cuda-driver-too-old, false",
    "set10/z09-rem-allocator-stray-connection-2.12-nccl-844.log, rem-allocator-failed, true",
    "set10/z09-rem-allocator-stray-connection-2.12-nccl-844.log, cuda-out-of-memory, false",
    "set10/z10-rtx5090-max-shared-mem-2.25.1-nccl-tests-287.log, cuda-arch-unsupported, true",
    "set10/z11-invalid-rank-2-of-2-aml-kubernetes-58.log, invalid-argument, true",
    "set10/z12-socket-docker-bridges-veth-bond0-nccl-697.log, socket-interface, false",
    "set11/q01-shm-segment-bare-line-docker-video-diffusion-speedrun-2.log, shm-exhausted, true",
    "set11/q02-unhandled-system-error-ib0-2.3.7-nccl-207.log, socket-interface, true",
    "set11/q03-invalid-rank-7-of-4-hybrik-47.log, invalid-argument, true",
    "set11/q04-network-gib-not-found-plugin-glibc-gpu-recipes-5.log, net-plugin-fallback, true",
    "set11/q05-watchdog-seq2-tokenization-llamafactory-2424.log, collective-timeout, true",
    "set11/q06-collective-mismatch-after-validation-lightning-8214.log, collective-mismatch, true",
    "set11/q07-unhandled-cuda-error-bad-node-ray-vllm-7896.log, nccl-error, true",
    "set11/q08-bootstrap-no-interface-exclusion-pattern-marin-7018.log, socket-interface, true",
    "set11/q09-nvls-invalid-argument-driver-12.2-pytorch-150852.log, nvls-error, true",
    "set11/q10-vllm-shm-segment-unhandled-system-error-minimax-01-42.log, shm-exhausted, true",
    "set11/q11-p2p-buffer-cuda-oom-multinode-nccl-1235.log, cuda-out-of-memory, true",
    "set11/q12-unhandled-cuda-error-broken-gpu-vllm-6732.log, nccl-error, true",
    "set12/p01-dist-backend-remote-exited-deepspeedexamples-845.log, socket-interface, false",
    "set12/p02-tcpx-connect-refused-driver-cluster-toolkit-3032.log, socket-connect, true",
    "set12/p03-wsl2-cuda-invalid-argument-2.18.5-pytorch-111187.log, known-nccl-bug, true",
    "set12/p04-ibv-modify-qp-no-such-device-gid-index-k8s-nccl-718.log, ib-error, true",
    "set12/p05-graph-capture-nccl-built-cuda11.0-vllm-3069.log, nccl-build-cuda-old, true",
    "set12/p05-graph-capture-nccl-built-cuda11.0-vllm-3069.log, invalid-argument, false",
    "set12/p06-ib-error-4-gdr-acs-title-nccl-214.log, ib-error, true",
    "set12/p07-windows-no-nccl-built-in-whisper-vits-svc-97.log, nccl-not-built, true",
    "set12/p08-custom-allreduce-peer-access-4090-sglang-4814.log, p2p-setup-failed, true",
    "set12/p09-slurm-gpus-per-task-invalid-ordinal-mace-435.log, invalid-device, true",
    "set12/p10-address-in-use-second-job-same-port-accelerate-508.log, master-port-in-use, true",
    "set12/p11-watchdog-allgather-rank0-checkpoint-save-torchtune-1165.log, collective-timeout, true",
    "set12/p13-duplicate-gpu-two-procs-one-a100-colab-sana-204.log, duplicate-gpu, true",
    "set12/p14-nccl-tests-internal-error-2.18-title-nccl-tests-275.log, nccl-error, true",
    "set12/p15-rtx5090-shared-mem-p2p-disabled-2.25.1-nccl-1637.log, cuda-arch-unsupported, true",
    "set12/p16-rtx5090-named-symbol-torch2.0-cu118-pytorch-152077.log, cuda-arch-unsupported, true",
    "set13/r03-tcpxo-rxdm-gvnic-displaces-gpu-nic-gke-aicr-1662.log, tcpx-rxdm-failed, true",
    "set13/r08-reverse-path-h100-nccl-2.14.3-predates-h100-milabench-183.log, topology-detection-failed, true",
    "set13/r09-comm-id-no-interface-same-subnet-title-nccl-474.log, socket-interface, true",
    "set13/r13-too-many-open-files-4-nodes-slurm-spd-957.log, resource-limit, true",
    "set14/s03-undefined-symbol-ncclcommregister-old-libnccl-pytorch-119932.log, version-mismatch, true",
    "set14/s04-paddle-unhandled-cuda-libnccl-reinstall-paddledetection-4139.log, nccl-error, true",
    "set14/s06-client-socket-example-master-addr-llamafactory-3715.log, rendezvous-timeout, true",
    "set14/s07-diststore-socket-timeout-node-rank-env-renamed-llamafactory-6154.log, rendezvous-timeout, true",
    "set14/s09-cumem-disabled-legacy-ipc-invalid-argument-nemo-rl-564.log, p2p-setup-failed, true",
    "set14/s11-invalid-blocking-attr-two-nccl-installs-2.14.3-vllm-1726.log, invalid-argument, false",
    "set14/s11-invalid-blocking-attr-two-nccl-installs-2.14.3-vllm-1726.log, version-mismatch, true",
    "set14/s12-driver-too-old-for-cuda-runtime-tp2-lmdeploy-1267.log, cuda-driver-too-old, true",
    "set14/s13-slurm-nodes-unset-ranks-duplicated-lightning-10098.log, duplicate-rank, true",
    "set14/s14-unable-to-load-nccl-library-cuda12-local-jax-18391.log, nccl-not-built, true",
  })
  void rootCauseNamed(String file, String id, boolean named) {
    Diagnosis d = Diagnoser.standard().diagnose(Fixtures.read("nccl/heldout/" + file));
    assertThat(d.findings().stream().anyMatch(f -> f.id().equals(id))).isEqualTo(named);
  }

  /**
   * Set 13 (set13/r01-r18) as {@code diagnose} reads it: nccl-tests output beside its NCCL lines is
   * judged too (r02, r10: a run that printed its devices and no result row). Blind 3 of 14 on main
   * at 2359a48; r02, r04 and r10 named after by stopped-at (where the run stopped, if it hung), r01
   * by duplicate-gpu reading NCCL's pre-2.4 INFO lines (rank 10 reached over P2P/IPC on device 2 of
   * a host where device 2 is rank 2's: two machines taken for one), r07 by socket-interface (one
   * NCCL_SOCKET_IFNAME that mpirun's -x sent to both hosts, init failed on one).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set13/r01-hostname-prefix-p2p-ipc-across-hosts-nccl-187.log, duplicate-gpu, true",
    "set13/r02-iommu-p2p-allreduce-hang-2.4.8-nccl-257.log, stopped-at, true",
    "set13/r04-nvls-bind-hang-4-gpus-docker-2.19.3-nccl-tests-216.log, stopped-at, true",
    "set13/r10-amd-iommu-hang-cuda-path-warn-2.14.3-nccl-tests-115.log, stopped-at, true",
    "set13/r05-mtu-mismatch-local-access-violation-2.20.3-nccl-1524.log, ib-error, true",
    "set13/r06-nccl-1.x-unhandled-cuda-error-p100-nccl-tests-5.log, nccl-error, true",
    "set13/r14-ncv4-graph-file-in-nccl-conf-system-error-nccl-1240.log, env-override, true",
    "set13/r07-socket-ifname-differs-per-node-internal-error-nccl-tests-219.log, stopped-at, false",
    "set13/r07-socket-ifname-differs-per-node-internal-error-nccl-tests-219.log, socket-interface, true",
  })
  void setThirteenAsDiagnoseReadsIt(String file, String id, boolean named) {
    assertThat(asDiagnoseReadsIt(file).findings().stream().anyMatch(f -> f.id().equals(id)))
        .isEqualTo(named);
  }

  /**
   * Set 16 (set16/m01-m16) as {@code diagnose} reads it, after close16: 0 of 14 blind on main at
   * 8dfb154. Each row: the finding that names the file's cause, and words its text must hold (the
   * finding's title, explanation and fix together), so that a finding of the right id that does not
   * say the cause fails. m08 and m13 by master-port-in-use reading c10d's bare {@code RuntimeError:
   * Address already in use} quoted in a title and the old THD's {@code ... at
   * .../THD/process_group/General.cpp:17}; m04 by collective-timeout naming ranks that diverged
   * (different operations at far-apart call numbers) with the CUDA-graph deadlock among the causes;
   * m01 by duplicate-gpu reading mpirun's host list (ranks it put on two hosts joined over P2P/IPC
   * under one host name); m06 by shm-exhausted reading {@code docker run} without {@code
   * --shm-size}/{@code --ipc=host} beside ENOSPC; m14 by nccl-error naming /dev/shm in a container
   * as a system error's likeliest cause (no container line in the log: a likely cause, said so).
   * m11 stays unnamed: its title writes the model as a bare {@code 4090}, whose needle would cost 9
   * % of the line filter; consumer-gpu-p2p reads {@code RTX 4090} and {@code GeForce RTX}.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set16/m08-title-address-in-use-two-ddp-runs-lightning-401.log, master-port-in-use, --master_port",
    "set16/m13-thd-address-in-use-two-jobs-one-server-xlm-53.log, master-port-in-use, --master_port",
    "set16/m04-watchdog-allreduce-gather-cuda-graph-vllm-2770.log, collective-timeout, enforce_eager",
    "set16/m01-same-hostname-p2p-ipc-across-machines-horovod-110.log, duplicate-gpu, two machines taken for one",
    "set16/m06-oserror-no-space-left-shm-docker-megatron-878.log, shm-exhausted, without --shm-size or --ipc=host",
    "set16/m14-system-error-2.7.8-docker-no-ipc-host-dekr-18.log, nccl-error, in a container, /dev/shm too small",
  })
  void setSixteenAsDiagnoseReadsIt(String file, String id, String words) {
    assertThat(
            asDiagnoseReadsIt(file).findings().stream()
                .filter(f -> f.id().equals(id))
                .map(f -> f.title() + " " + f.explanation() + " " + f.fix()))
        .anySatisfy(text -> assertThat(text).contains(words));
  }

  /**
   * Set 17 (set17/n01-n16) as {@code diagnose} reads it, after close17a: 5 of 14 blind on main at
   * c940f3e. n03 by collective-timeout reading the stack frame of {@code WorkNCCL::checkTimeout}
   * (the exception checkTimeout builds only on a timeout) without the watchdog's timeout line, and
   * saying that the call and the ranks are not known; n04 by collective-mismatch telling
   * bootstrap's {@code Message truncated : received 256 bytes instead of 4} apart from a
   * collective's and naming NCCL 2.19.3's intermittent init failure of NVIDIA/nccl issue 1176 (the
   * lines do not print the version: the finding says so and asks for it). After close17c: n08 by
   * inter-node-tcp reading NCCL's choice of its socket network ({@code NET/Socket : Using
   * [0]bond0:...}) without connection lines, as a warning for a job whose nodes no line shows,
   * beside a bonded interface (RoCE hosts bond their ports: the fix names {@code NCCL_IB_HCA}).
   * After knownbugs: n06 by known-nccl-bug (NCCL 2.18's peer setup failing with CUDA's 'invalid
   * argument', NVIDIA/nccl issue 957, fixed in 2.18.6: the version PyTorch's error prints, 2.18.1,
   * is in that range).
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set17/n03-rank0-only-eval-timeout-particleflow-390.log, collective-timeout, which collective and which ranks are not known",
    "set17/n04-nccl-2.19-bootstrap-regression-nccl-1176.log, collective-mismatch, NCCL 2.19.3 itself failed intermittently at init",
    "set17/n04-nccl-2.19-bootstrap-regression-nccl-1176.log, collective-mismatch, are not the cause",
    "set17/n08-launcher-no-ib-opt-in-socket-areal-639.log, inter-node-tcp, The lines do not show how many nodes the job has",
    "set17/n08-launcher-no-ib-opt-in-socket-areal-639.log, inter-node-tcp, bond0 is a bonded interface",
    "set17/n08-launcher-no-ib-opt-in-socket-areal-639.log, inter-node-tcp, NCCL_IB_HCA=mlx5_bond",
    "set17/n06-custom-allreduce-nccl-2.18.1-invalid-argument-vllm-3688.log, known-nccl-bug, a known bug of 2.18.1 to 2.18.5, fixed in 2.18.6",
    "set17/n06-custom-allreduce-nccl-2.18.1-invalid-argument-vllm-3688.log, known-nccl-bug, This log shows NCCL 2.18.1",
  })
  void setSeventeenAsDiagnoseReadsIt(String file, String id, String words) {
    assertThat(
            asDiagnoseReadsIt(file).findings().stream()
                .filter(f -> f.id().equals(id))
                .map(f -> f.title() + " " + f.explanation() + " " + f.fix()))
        .anySatisfy(text -> assertThat(text).contains(words));
  }

  /**
   * Set 27 (set27/l01-l24, 24 healthy logs) as diagnose reads them, after close27 (not blind):
   * blind on 251fb3a no error finding on any, warnings on 15. NCCL 2.1-2.10's WARN of a missing
   * libibverbs is verbs-library-missing (info, judged by the job's nodes), no longer the
   * catch-all's warning (l01, l13, l16, l18); GCP's FastSocket plugin is TCP, never gdr-disabled,
   * its lines known (l07). Kept as true: stopped-at and missing-ranks on excerpts that end there
   * (their texts say an excerpt may be cut there), gdr-disabled on p4d EFA without /GDRDMA (l15),
   * p2p-unavailable where eight GPUs use SHM (l06, whose lines do not name the GPUs),
   * busbw-below-expected on a flat 12.7 GB/s of four P2P RTX 4090s (l03), NCCL_IB_DISABLE=1 (l10,
   * l17): no error finding, and exactly these ids.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set27/l01-healthy-socket-no-libibverbs-warn-2.3.7-faster-machine-horovod-969.log, verbs-library-missing",
    "set27/l02-healthy-ib-2.4.7-no-net-plugin-two-nodes-tuning-question-horovod-288.log, env-override",
    "set27/l03-healthy-p2p-direct-four-4090s-patched-driver-2.23.4-all-reduce-perf-tinygrad-open-gpu-kernel-modules-pr-22.log, busbw-below-expected",
    "set27/l04-healthy-ib-gdrdma-two-nodes-mixed-gpus-nccl-tests-128.log, ''",
    "set27/l05-healthy-tuning-trace-three-h100-nodes-across-racks-slow-2.22.3-nccl-1453.log, stopped-at",
    "set27/l06-healthy-shm-eight-4090s-no-p2p-graph-lines-slow-nccl-tests-307.log, p2p-unavailable",
    "set27/l07-healthy-fastsocket-plugin-four-a100-nodes-gcp-random-slow-steps-nccl-651.log, ''",
    "set27/l08-healthy-custom-rdma-net-plugin-gdrdma-shared-two-h20-vms-2.26.5-alltoall-slow-nccl-tests-321.log, stopped-at env-override",
    "set27/l09-healthy-h800-rdma-plugin-v5-nvls-unavailable-all-reduce-perf-nccl-892.log, stopped-at",
    "set27/l10-healthy-azure-four-nodes-socket-ib-disabled-graph-lines-problem-in-mlflow-mlflow-8444.log, env-override",
    "set27/l11-healthy-coll-trace-allreduce-opcount-two-gpus-tensorflow-question-nccl-203.log, ''",
    "set27/l12-healthy-coll-trace-allgather-reducescatter-tensor-parallel-two-h100s-torchtitan-1369.log, ''",
    "set27/l13-healthy-socket-no-libibverbs-warn-2.10.3-multi-node-slower-detectron2-4730.log, verbs-library-missing",
    "set27/l14-healthy-coll-broadcast-megatron-bert-two-a5000s-iterations-megatron-lm-275.log, ''",
    "set27/l15-healthy-efa-libfabric-no-gdrdma-two-p4d-2.7.8-slow-busbw-aws-ofi-nccl-64.log, gdr-disabled missing-ranks stopped-at",
    "set27/l16-healthy-socket-no-libibverbs-warn-2.9.6-two-v100-nodes-broadcast-perf-nccl-tests-82.log, env-override verbs-library-missing",
    "set27/l17-healthy-socket-ib-disabled-two-4090s-2.26.5-nccl-tests-in-vllm-throughput-thread-vllm-17568.log, env-override missing-ranks stopped-at",
    "set27/l18-healthy-k8s-pods-socket-no-libibverbs-warn-2.3.7-byteps-slow-byteps-61.log, verbs-library-missing",
    "set27/l19-healthy-vllm-ray-tp4-v100-rdma-plugin-v5-sharp-slow-vllm-2442.log, ''",
    "set27/l20-healthy-roce-2.5.7-init-four-nodes-v100-faster-than-2.7.6-nccl-378.log, env-override",
    "set27/l21-healthy-init-timings-eight-h100s-2.22.3-slow-init-improved-nccl-534.log, ''",
    "set27/l22-healthy-slingshot-cxi-ofi-plugin-srun-singularity-horovod-mnist-determined-environments-pr-169.log, ''",
    "set27/l23-healthy-nvls-question-eight-h100s-mnnvl-0-p2p-direct-latency-nccl-1259.log, missing-ranks",
    "set27/l24-healthy-deepspeed-eight-a6000s-nvlink-bridges-no-nvls-2.18.5-nccl-1121.log, ''",
  })
  void setTwentySevenHealthyHasNoError(String file, String ids) {
    Diagnosis d = asDiagnoseReadsIt(file);
    assertThat(d.findings()).noneMatch(f -> f.severity() == Severity.ERROR);
    assertThat(d.findings().stream().map(Finding::id).distinct().toList())
        .containsExactlyElementsOf(ids.isEmpty() ? List.of() : List.of(ids.split(" ")));
  }

  /** What set 27's findings after close27 say of their logs. */
  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          set27/l16-healthy-socket-no-libibverbs-warn-2.9.6-two-v100-nodes-broadcast-perf-nccl-tests-82.log | verbs-library-missing | This job spans nodes (mpirun places its ranks on 2 hosts)
          set27/l13-healthy-socket-no-libibverbs-warn-2.10.3-multi-node-slower-detectron2-4730.log | verbs-library-missing | where it spans nodes on hosts with IB or RoCE NICs, the image lacks rdma-core
          set27/l03-healthy-p2p-direct-four-4090s-patched-driver-2.23.4-all-reduce-perf-tinygrad-open-gpu-kernel-modules-pr-22.log | busbw-below-expected | 40% of PCIe Gen4 x16
          set27/l05-healthy-tuning-trace-three-h100-nodes-across-racks-slow-2.22.3-nccl-1453.log | stopped-at | An excerpt may simply be cut there; if the run hung, the nodes connect
          """)
  void setTwentySevenSays(String file, String id, String says) {
    assertFindingSays(file, id, says);
  }

  /** l03's curve is flat from 8 MiB: its finding no longer says busbw may still be rising. */
  @Test
  void flatSweepIsNotCalledRising() {
    assertThat(
            asDiagnoseReadsIt(
                    "set27/l03-healthy-p2p-direct-four-4090s-patched-driver-2.23.4-all-reduce-perf"
                        + "-tinygrad-open-gpu-kernel-modules-pr-22.log")
                .findings())
        .filteredOn(f -> f.id().equals("busbw-below-expected"))
        .singleElement()
        .satisfies(f -> assertThat(f.explanation()).doesNotContain("may still be rising"));
  }

  /** The healthy logs of set 16 as diagnose reads them: no error finding, and these ids. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set16/m15-healthy-deepspeed-launcher-functional-run-deepspeed-716.log, ''",
    "set16/m16-healthy-docker-two-gpus-socket-2.1.15-horovod-243.log, verbs-library-missing",
  })
  void setSixteenHealthyHasNoError(String file, String ids) {
    Diagnosis d = asDiagnoseReadsIt(file);
    assertThat(d.findings()).noneMatch(f -> f.severity() == Severity.ERROR);
    assertThat(d.findings().stream().map(Finding::id).distinct().toList())
        .containsExactlyElementsOf(ids.isEmpty() ? List.of() : List.of(ids));
  }

  /** The healthy logs of set 13 as diagnose reads them: no error finding, and these ids. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set13/r17-healthy-two-nodes-ib-broadcast-fixed-cables-nccl-307.log, ''",
    "set13/r18-healthy-two-gpus-g2-nccl-1706.log, missing-ranks",
  })
  void setThirteenHealthyHasNoError(String file, String ids) {
    Diagnosis d = asDiagnoseReadsIt(file);
    assertThat(d.findings()).noneMatch(f -> f.severity() == Severity.ERROR);
    assertThat(d.findings().stream().map(Finding::id).distinct().toList())
        .containsExactlyElementsOf(ids.isEmpty() ? List.of() : List.of(ids));
  }

  /**
   * Set 15 (set15/k01-k16), network and cluster side, 0 of 14 blind on main at 8dfb154; named after
   * by close15: k02 by rendezvous-timeout reading TCPStore's {@code host not found: Name or service
   * not known} (MASTER_ADDR that does not resolve), k04 by ib-memlock reading libfabric's EFA
   * provider's {@code (-12) Cannot allocate memory}, k05 and k13 by ofi-plugin-error reading
   * libfabric's {@code fi_getinfo: -61} (no EFA device visible), k09 by socket-interface (bootstrap
   * on lo while NCCL_COMM_ID names another address), k11 by nvls-error (CUDA 802 named beside the
   * fabric manager, read with the driver's lines), k06 by ib-error (a warning: the RoCE GID left to
   * NCCL beside NCCL_IB_ROCE_VERSION_NUM, then the proxy's Connect failed). Set 16's m02 and m10
   * (socket-connect: NCCL's socket failures before 2.4, {@code Call to connect timeout : Connection
   * refused}, {@code recv failed : Connection reset by peer}) are the network side of that set.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set15/k02-host-not-found-worker-before-master-pytorch-operator-125.log, rendezvous-timeout, true",
    "set15/k04-efa-memlock-ulimit-libfabric-enomem-awsome-distributed-ai-647.log, ib-memlock, true",
    "set15/k05-infiniband-hostpath-breaks-efa-b200-title-aws-do-eks-pr-63.log, ofi-plugin-error, true",
    "set15/k09-nccl-comm-id-matchsubnet-inverted-binds-lo-nccl-pr-2047.log, socket-interface, true",
    "set15/k13-efa-devices-not-passed-to-docker-aws-ofi-nccl-879.log, ofi-plugin-error, true",
    "set15/k11-fabricmanager-missing-cuda-802-title-aws-dlami-dcv-33.log, nvls-error, true",
    "set15/k06-roce-version-num-gid-in-container-segfault-2.22.3-nccl-1538.log, ib-error, true",
    "set16/m02-title-connect-refused-docker0-interface-horovod-666.log, socket-connect, true",
    "set16/m10-title-recv-reset-ib-error-12-horovod-147.log, socket-connect, true",
  })
  void setFifteenNetworkAsDiagnoseReadsIt(String file, String id, boolean named) {
    assertThat(asDiagnoseReadsIt(file).findings().stream().anyMatch(f -> f.id().equals(id)))
        .isEqualTo(named);
  }

  /**
   * Set 17's n13 as diagnose reads it (nccl-tests output beside the logs): two nccl-tests summaries
   * after {@code mpirun -H} of two hosts with {@code -np 2}, each one host's own run of a build
   * without MPI (nccl-tests issue 27), named by nccl-tests-not-mpi (a warning: the tables are cut
   * from the excerpt, so no device list shows each process's ranks starting at 0).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set17/n13-nccl-tests-stale-non-mpi-build-per-host-nccl-tests-27.log, nccl-tests-not-mpi, WARN",
  })
  void setSeventeenNcclTestsWithoutMpi(String file, String id, Severity severity) {
    assertOneFinding(file, id, severity);
  }

  /**
   * Set 18 (set18/a01-a09) as diagnose reads it: 5 of 8 failures named blind on main at 61f990c,
   * these rows; a04 (one vLLM line), a06 and a08 (titles) hold no line of their cause. The healthy
   * a09 (an nccl-tests header over mpirun, NCCL 2.27.3) has no error finding.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set18/a01-roce-nic-misconfigured-irdma-jax-22740.log, ib-error, ERROR",
    "set18/a02-docker-shm-64m-exit-7-deepspeed-4002.log, shm-exhausted, ERROR",
    "set18/a03-iommu-acs-tp2-stall-two-ada-gpus-vllm-9920.log, p2p-unavailable, WARN",
    "set18/a05-nproc-per-node-exceeds-gpus-hrnet-semantic-segmentation-171.log, invalid-device, ERROR",
    "set18/a07-gpu-needs-reset-gsp-busy-unavailable-sichek-51.log, gpu-unavailable, ERROR",
  })
  void setEighteenAsDiagnoseReadsIt(String file, String id, Severity severity) {
    assertOneFinding(file, id, severity);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"set18/a09-healthy-one-gpu-per-node-l40s-2.27.3-nccl-tests-323.log"})
  void setEighteenHealthyHasNoError(String file) {
    assertThat(asDiagnoseReadsIt(file).findings()).noneMatch(f -> f.severity() == Severity.ERROR);
  }

  /**
   * Set 19 (set19/b01-b15) as diagnose reads it: 7 of 13 failures named blind on main at 61f990c
   * (b01, b02, b03, b06, b08, b11, b13), and after close19 b05 (service-mesh-sidecar: Envoy's RBAC
   * refusal), b07 (nccl-not-built: TensorFlow's NCCL op without a kernel on Windows) and b10
   * (below). b04, b09 and b12 hold no line that names their cause (README's after notes).
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set19/b01-two-jobs-same-master-port-panoptic-deeplab-38.log, master-port-in-use, ERROR",
    "set19/b02-efa-provider-aborted-by-unopenable-mlx5-libfabric-12708.log, ofi-plugin-error, ERROR",
    "set19/b03-docker-shm-sigbus-at-startup-hugectr-backend-42.log, shm-exhausted, ERROR",
    "set19/b05-istio-sidecar-blocks-rendezvous-port-kubeflow-trainer-1634.log, service-mesh-sidecar, ERROR",
    "set19/b06-set-device-after-device-mesh-ep-torchtitan-1224.log, duplicate-gpu, ERROR",
    "set19/b07-nccl-allreduce-op-missing-on-windows-tensorflow-33656.log, nccl-not-built, ERROR",
    "set19/b08-watchdog-timeout-set-to-1ms-instructlab-training-520.log, collective-timeout, ERROR",
    "set19/b11-shm-too-small-ray-runner-grpo-easyr1-228.log, shm-exhausted, ERROR",
    "set19/b13-ray-train-default-socket-ifname-override-ray-42652.log, env-override, INFO",
  })
  void setNineteenAsDiagnoseReadsIt(String file, String id, Severity severity) {
    assertOneFinding(file, id, severity);
  }

  /**
   * Set 19's b10: NCCL 2.5.6's root check printing a communicator of 0 ranks under PyTorch 1.3's
   * DataParallel; invalid-argument names the communicator used before its init (close19).
   */
  @Test
  void setNineteenRootCheckOfAnEmptyCommunicator() {
    assertThat(
            asDiagnoseReadsIt(
                    "set19/b10-pytorch-1.3-dataparallel-on-nccl-2.5-invalid-root-nccl-276.log")
                .findings())
        .filteredOn(f -> f.id().equals("invalid-argument"))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.severity()).isEqualTo(Severity.ERROR);
              assertThat(f.title())
                  .isEqualTo("A collective reached a communicator NCCL had not initialised");
            });
  }

  /** Set 19's healthy b14: nccl-tests over a GB200 NVL72 rack, no finding at all. */
  @Test
  void setNineteenHealthyRackHasNoFinding() {
    assertThat(
            asDiagnoseReadsIt(
                    "set19/b14-healthy-gb200-nvl72-rack-allreduce-coreweave-nccl-tests-43.log")
                .findings())
        .isEmpty();
  }

  /**
   * Set 19's healthy b15, a DDP benchmark's log without NCCL's lines: nothing read as NCCL's, so
   * diagnose says "no NCCL lines" and exits 2, and no finding.
   */
  @Test
  void setNineteenHealthyDdpLogHasNoNcclLine() {
    String file = "set19/b15-healthy-ddp-bench-two-gcp-nodes-skypilot-2987.log";
    Job job = Fixtures.read("nccl/heldout/" + file);
    assertThat(job.inputs()).singleElement().satisfies(f -> assertThat(f.ncclLines()).isZero());
    assertThat(asDiagnoseReadsIt(file).findings()).isEmpty();
  }

  /**
   * Set 20 (set20/c01-c16) as diagnose reads it: 3 of 9 failures named blind on main at 435f1c0
   * (c04, c05, c07; README's measured paragraph).
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set20/c04-nccl-tests-built-without-mpi-two-nodes-run-apart-nccl-tests-182.log, nccl-tests-not-mpi, ERROR",
    "set20/c05-mtu-mismatch-after-port-rate-limit-ib-timeouts-nccl-709.log, ib-error, ERROR",
    "set20/c07-p2p-level-text-value-on-nccl-2.5-reads-as-0-nccl-332.log, env-override, WARN",
    // after close20 (not blind): the run-together line's messages read, IB asked for and none found
    "set20/c01-rdma-not-enabled-ib-not-found-socket-llamafactory-6111.log, net-plugin-fallback, ERROR",
    // after close20: the quoted ibv_modify_qp fragment read as NCCL's WARN
    "set20/c09-ib-hca-list-pairs-wrong-ports-by-position-ainode-89.log, ib-error, ERROR",
  })
  void setTwentyAsDiagnoseReadsIt(String file, String id, Severity severity) {
    assertOneFinding(file, id, severity);
  }

  /**
   * After close20: c07's 0 may be a text value read as a number by an NCCL before 2.6 (its version
   * is not printed), and c09's timed-out QP transition says the paired ports cannot reach each
   * other.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set20/c07-p2p-level-text-value-on-nccl-2.5-reads-as-0-nccl-332.log, p2p-unavailable,"
        + " the 0 may be a text value read as a number",
    "set20/c09-ib-hca-list-pairs-wrong-ports-by-position-ainode-89.log, ib-error,"
        + " NCCL pairs the NICs of two ranks by their place in each rank's list",
    "set20/c01-rdma-not-enabled-ib-not-found-socket-llamafactory-6111.log, net-plugin-fallback,"
        + " the RDMA stack is not installed or not enabled on the host",
  })
  void setTwentyCausesAfterClose(String file, String id, String says) {
    assertFindingSays(file, id, says);
  }

  /**
   * Set 20's healthy c16: nccl-tests over three 8-GPU nodes whose device list stops after four
   * ranks of one host; the nodes are unknown, so busbw is not judged against NVLink: no error.
   */
  @Test
  void setTwentyHealthyCutDeviceListHasNoError() {
    assertThat(
            asDiagnoseReadsIt("set20/c16-healthy-three-a100-nodes-hdr-at-target-nccl-tests-119.log")
                .findings())
        .noneMatch(f -> f.severity() == Severity.ERROR)
        .noneMatch(f -> f.id().equals("busbw-below-expected"));
  }

  /** Set 20's healthy c15: two V100s over P2P after the thread's fix, warnings only. */
  @Test
  void setTwentyHealthyHasNoError() {
    assertThat(
            asDiagnoseReadsIt("set20/c15-healthy-two-v100-after-ib-disable-lightning-4420.log")
                .findings())
        .noneMatch(f -> f.severity() == Severity.ERROR);
  }

  /**
   * Set 21 (set21/d01-d16) as diagnose reads it: 2 of 9 failures named blind on main at 291279d
   * (d07, d08; README's measured paragraph), d04 and d05 by the finding of their symptom.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set21/d07-ray-colocates-two-workers-one-gpu-duplicate-gpu-rllm-10.log, duplicate-gpu, ERROR",
    "set21/d08-nccl-not-installed-v100-parallel-executor-paddle-10608.log, nccl-error, ERROR",
    "set21/d04-fsdp-loading-change-hangs-heartbeat-monitor-transformers-32477.log, watchdog-stuck,"
        + " ERROR",
    "set21/d05-stale-python-env-allreduce-watchdog-weathergenerator-360.log, collective-timeout,"
        + " ERROR",
    // after close21 (not blind): NCCL 1's device list and header without '#' read as nccl-tests
    // output, and a run that printed its header and nothing more is where it stopped
    "set21/d01-acs-enabled-m40-allreduce-stalls-nccl-104.log, stopped-at, WARN",
    // after close21: py-spy's frames of NCCL read; the launch-path spin is the FIFO leak of 2.20
    "set21/d03-nccl-2.20-cuda-graph-launch-hang-tp-h100-text-generation-inference-2099.log,"
        + " known-nccl-bug, WARN",
    "set21/d03-nccl-2.20-cuda-graph-launch-hang-tp-h100-text-generation-inference-2099.log,"
        + " stuck-in-nccl, WARN",
  })
  void setTwentyOneAsDiagnoseReadsIt(String file, String id, Severity severity) {
    assertOneFinding(file, id, severity);
  }

  /** After close21: what d01's and d03's findings say of their causes. */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set21/d01-acs-enabled-m40-allreduce-stalls-nccl-104.log, stopped-at,"
        + " PCI Access Control Services (ACS)",
    "set21/d01-acs-enabled-m40-allreduce-stalls-nccl-104.log, stopped-at, nvidia-smi topo -m",
    "set21/d03-nccl-2.20-cuda-graph-launch-hang-tp-h100-text-generation-inference-2099.log,"
        + " known-nccl-bug, NCCL 2.22.3 or later",
  })
  void setTwentyOneCausesAfterClose(String file, String id, String says) {
    assertFindingSays(file, id, says);
  }

  /**
   * After close22: d03's frames without {@code nccl} ({@code doLaunches (group.cc:161)}, {@code
   * groupLaunch (group.cc:339)}) are read by their NCCL source file, so the stack is read whole.
   */
  @Test
  void setTwentyOneLaunchFramesWithoutNccl() {
    assertThat(
            Fixtures.observe(
                    "nccl/heldout/set21/"
                        + "d03-nccl-2.20-cuda-graph-launch-hang-tp-h100-text-generation-inference-2099.log")
                .job()
                .stackFrames())
        .extracting(io.topolens.model.StackFrame::function)
        .containsExactly(
            "ncclLaunchKernelBefore_NoUncapturedCuda",
            "doLaunches",
            "groupLaunch",
            "ncclGroupEndInternal",
            "ncclGroupEndInternal",
            "ncclEnqueueCheck",
            "ncclAllReduce");
  }

  /**
   * Set 21's files whose cause no line shows, and its healthy logs (d15, NCCL 1's all_reduce_test
   * on two TITAN X; d16, MPI-tagged result rows without a header, read as nccl-tests output since
   * close21; d02, rows without a header before a hang that left no line; d09, init lines only): no
   * finding at all; d06 no error (env-override's info).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set21/d15-healthy-two-titanx-allreduce-test-nccl-36.log, true",
    "set21/d16-healthy-two-p5-efa-mpijob-allreduce-aws-k8s-tester-585.log, true",
    "set21/d02-nvlink-bridge-not-seated-2080ti-system-hang-nccl-340.log, true",
    "set21/d06-nvls-dual-port-nic-bug-allreduce-stuck-nccl-1043.log, false",
    "set21/d09-p2p-hang-two-gpus-fixed-by-p2p-disable-vllm-5484.log, true",
  })
  void setTwentyOneWithoutError(String file, boolean none) {
    List<Finding> found = asDiagnoseReadsIt(file).findings();
    if (none) {
      assertThat(found).isEmpty();
    }
    assertThat(found).noneMatch(f -> f.severity() == Severity.ERROR);
  }

  /** d16 and d02 read as nccl-tests runs: their result rows, no header. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set21/d16-healthy-two-p5-efa-mpijob-allreduce-aws-k8s-tester-585.log, 5",
    "set21/d02-nvlink-bridge-not-seated-2080ti-system-hang-nccl-340.log, 12",
  })
  void setTwentyOneRowsReadAsRuns(String file, int rows) {
    assertThat(Fixtures.observe("nccl/heldout/" + file).benches())
        .singleElement()
        .satisfies(v -> assertThat(v.run().rows()).hasSize(rows));
  }

  /**
   * Set 22 (set22/e01-e15) as diagnose reads it: 1 of 3 failures named blind on main at 291279d
   * (e03, the fabric manager's failed start; README's measured paragraph).
   */
  @Test
  void setTwentyTwoFabricManager() {
    assertOneFinding(
        "set22/e03-fabricmanager-down-driver-mismatch-p5-deadlock-pytorch-129749.log",
        "nvls-error",
        Severity.ERROR);
  }

  /**
   * Set 22's e03 after close22: the fabric manager's own version check (line 5, {@code ...
   * 550.90.07 don't match with driver version 550.54.15}) is cited beside the failed start, both
   * versions named and the fabric manager package of exactly the driver's version in the fix.
   */
  @Test
  void setTwentyTwoFabricManagerVersionMismatch() {
    String file = "set22/e03-fabricmanager-down-driver-mismatch-p5-deadlock-pytorch-129749.log";
    assertThat(asDiagnoseReadsIt(file).findings())
        .filteredOn(f -> f.id().equals("nvls-error"))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.evidence())
                  .extracting(io.topolens.model.Evidence::line)
                  .containsExactly(4L, 5L);
              assertThat(f.explanation())
                  .contains("built for driver 550.90.07) refused the loaded driver 550.54.15");
              assertThat(f.fix())
                  .startsWith(
                      "Install the fabric manager of exactly the driver's"
                          + " version 550.54.15 (apt-get install nvidia-fabricmanager-550=550.54.15-1");
              assertThat(f.fix()).contains("reset the GPUs or reboot");
            });
  }

  /**
   * Set 22's e01 (a server's healthy init lines; the reporter blamed the server) and the healthy
   * e15 (a Ray Train worker's first NCCL line): no finding at all.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set22/e01-server-issue-lora-ddp-error-llamafactory-6225.log",
    "set22/e15-healthy-ray-train-release-test-veth-blacklist-ray-pr-31824.log",
  })
  void setTwentyTwoWithoutFinding(String file) {
    assertThat(asDiagnoseReadsIt(file).findings()).isEmpty();
  }

  /**
   * Set 23 (set23/f01-f16, troubleshooting docs) as diagnose reads it: 1 of 13 named blind on main
   * at 291279d (f04); f01, f02 and f06 by the finding of their symptom or of another cause. After
   * close23 (not blind): the framework messages that said what failed without NCCL's words are
   * read, each by the finding of its class. After tidy23: f09, DDP's unused parameters.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set23/f04-commrank-unhandled-system-error-no-ipc-lock-or-dev-shm-vllm-docs-troubleshooting.log,"
        + " nccl-error, ERROR",
    "set23/f01-allgather-timeout-acs-or-no-nvlink-axolotl-docs-nccl.log, collective-timeout, ERROR",
    "set23/f02-roce-mlx5-1-in-nccl-ib-list-nd-h100-v5-azurehpc-health-checks.log,"
        + " topology-detection-failed, ERROR",
    // after close23: PyTorch's DETAIL check and Accelerate's debug mode, shapes or sequence
    // numbers that differ across ranks
    "set23/f05-broadcast-shape-mismatch-across-ranks-accelerate-docs-troubleshooting.log,"
        + " collective-mismatch, ERROR",
    "set23/f08-tp4-on-half-h200-node-collective-seq-mismatch-sglang-deployment-poc-lessons.log,"
        + " collective-mismatch, ERROR",
    "set23/f10-allreduce-shape-mismatch-across-ranks-detail-debug-pytorch-distributed-docs.log,"
        + " collective-mismatch, ERROR",
    // after close23: monitored_barrier names the rank that never reached it
    "set23/f11-rank-1-never-calls-monitored-barrier-pytorch-distributed-docs.log, lagging-ranks,"
        + " ERROR",
    // after close23: NCCL 1's 'invalid data type' from Horovod, and Horovod's build without nccl.h
    "set23/f12-allreduce-invalid-data-type-wrong-nccl-linked-conda-horovod-docs-troubleshooting.log,"
        + " nccl-error, ERROR",
    "set23/f13-nccl-h-not-found-at-build-horovod-docs-troubleshooting.log, nccl-not-built, ERROR",
    // after tidy23: DDP's unused-parameter error and the parameters it names
    "set23/f09-ddp-unused-parameter-a-weight-no-grad-pytorch-distributed-docs.log,"
        + " ddp-unused-parameters, ERROR",
  })
  void setTwentyThreeAsDiagnoseReadsIt(String file, String id, Severity severity) {
    assertOneFinding(file, id, severity);
  }

  /** After close23: what the framework messages' findings say of their causes. */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set23/f10-allreduce-shape-mismatch-across-ranks-detail-debug-pytorch-distributed-docs.log,"
        + " collective-mismatch, compared the collective each rank was about to run",
    "set23/f11-rank-1-never-calls-monitored-barrier-pytorch-distributed-docs.log, lagging-ranks,"
        + " Rank 1 did not reach",
    "set23/f12-allreduce-invalid-data-type-wrong-nccl-linked-conda-horovod-docs-troubleshooting.log,"
        + " nccl-error, conda remove nccl",
    "set23/f13-nccl-h-not-found-at-build-horovod-docs-troubleshooting.log, nccl-not-built,"
        + " HOROVOD_NCCL_HOME",
    "set23/f09-ddp-unused-parameter-a-weight-no-grad-pytorch-distributed-docs.log,"
        + " ddp-unused-parameters, find_unused_parameters=True",
  })
  void setTwentyThreeCausesAfterClose(String file, String id, String says) {
    assertFindingSays(file, id, says);
  }

  /** Set 23's f03 and f07 (no line of their cause) and its healthy examples: no finding at all. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set23/f03-multinode-hang-at-init-wrong-interface-or-firewall-lightning-fabric-docs.log",
    "set23/f07-gpu-nic-misaligned-4-workers-half-allgather-bw-dranet-gke-rdma-docs.log",
    "set23/f15-healthy-ofi-diag-summary-48-gpus-aws-ofi-nccl-diagnostics.log",
    "set23/f16-healthy-two-a4-b200-nodes-allgather-rdma-cluster-toolkit-gke-a4-readme.log",
  })
  void setTwentyThreeWithoutFinding(String file) {
    assertThat(asDiagnoseReadsIt(file).findings()).isEmpty();
  }

  /**
   * Set 24 (set24/g01-g21, engineers' write-ups) as diagnose reads it: 3 of 16 named blind on main
   * at cc53570 (g06, g12, g14). After close24 (not blind): IB verbs lines read by their call and
   * errno or their completion's status, peer and HCA; a WARN wrapped over lines joined; NCCL's
   * duplicate-GPU text read from its other literals; gIB's tuner and config checker, TCPStore's
   * bind failure without its errno, the loader's refusal of libnccl.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set24/g06-bootstrap-no-socket-interface-wrong-ifname-espnet-distributed-docs.log,"
        + " socket-interface, ERROR",
    "set24/g12-shm-segment-extend-failed-dev-shm-too-small-k8s-agent-pod-clearml-enterprise-docs.log,"
        + " shm-exhausted, ERROR",
    "set24/g14-no-algorithm-for-fp32-allreduce-nccl-algo-forced-collnetchain-512-gpu-together-worklog.log,"
        + " algorithm-unavailable, ERROR",
    // after close24
    "set24/g01-ibv-reg-mr-failed-memlock-limit-hhhyunwoo-blog.log, ib-error, ERROR",
    "set24/g02-ib-loc-prot-err-iommu-translated-mode-sriov-vf-openshift-ml-dev-env.log, ib-error,"
        + " ERROR",
    "set24/g03-duplicate-gpu-across-nodes-device-order-deepseek-24-a100-thomaskalnik-blog.log,"
        + " duplicate-gpu, ERROR",
    "set24/g05-ib-status-4-local-protection-pcie-acs-blocks-gdr-b300-poc-platform-notes.log,"
        + " ib-error, ERROR",
    "set24/g10-ibv-modify-qp-invalid-argument-ib-and-roce-nics-mixed-mindspore-faq.log, ib-error,"
        + " ERROR",
    "set24/g11-nvls-multicast-bind-401-leaked-multicast-team-fabricmanager-b300-kimi-k3-sglang-notes.log,"
        + " nvls-error, ERROR",
    "set24/g13-ib-rem-access-err-vendor-81-faulty-hca-one-node-64-node-b200-together-worklog.log,"
        + " ib-error, ERROR",
    "set24/g09-ibv-modify-qp-timeout-mesh-net-plugin-not-loaded-three-dgx-spark-nccl-mesh-plugin-docs.log,"
        + " ib-error, ERROR",
    "set24/g04-gib-tuner-plugin-no-config-internal-error-gke-llm-d-docs.log, tuner-plugin-failed,"
        + " ERROR",
    "set24/g07-server-socket-bind-failed-two-torchruns-per-node-slurm-ntasks-mcquic-note.log,"
        + " master-port-in-use, ERROR",
    "set24/g15-gib-guest-config-checker-enforced-p2p-nvl-chunksize-ends-workload-gcp-ai-hypercomputer-docs.log,"
        + " env-override, ERROR",
    "set24/g16-libnccl-failed-to-map-segment-gib-dir-not-executable-gcp-ai-hypercomputer-docs.log,"
        + " loader-refused, ERROR",
    // not closed: no line shows the path that stalled (P2P between PCIe GPUs, the IB scan)
    "set24/g08-allreduce-watchdog-seq1-p2p-on-two-rtx-pro-6000-k8s-pod-tistory-blog.log,"
        + " collective-timeout, ERROR",
  })
  void setTwentyFourAsDiagnoseReadsIt(String file, String id, Severity severity) {
    assertOneFinding(file, id, severity);
  }

  /** After close24: what the typed readings say of each failure. */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set24/g01-ibv-reg-mr-failed-memlock-limit-hhhyunwoo-blog.log, ib-error, locked-memory limit",
    "set24/g02-ib-loc-prot-err-iommu-translated-mode-sriov-vf-openshift-ml-dev-env.log, ib-error,"
        + " on mlx5_11 of h-kim-0:1353, against peer 10.128.8.30",
    "set24/g02-ib-loc-prot-err-iommu-translated-mode-sriov-vf-openshift-ml-dev-env.log, ib-error,"
        + " IOMMU in translated mode",
    "set24/g05-ib-status-4-local-protection-pcie-acs-blocks-gdr-b300-poc-platform-notes.log,"
        + " ib-error, PCIe ACS",
    "set24/g13-ib-rem-access-err-vendor-81-faulty-hca-one-node-64-node-b200-together-worklog.log,"
        + " ib-error, that node's HCA is the fault",
    "set24/g10-ibv-modify-qp-invalid-argument-ib-and-roce-nics-mixed-mindspore-faq.log, ib-error,"
        + " an InfiniBand port paired with a RoCE (Ethernet) port",
    "set24/g03-duplicate-gpu-across-nodes-device-order-deepseek-24-a100-thomaskalnik-blog.log,"
        + " duplicate-gpu, ranks 27 and 19 on CUDA device 53000",
    "set24/g11-nvls-multicast-bind-401-leaked-multicast-team-fabricmanager-b300-kimi-k3-sglang-notes.log,"
        + " nvls-error, CUDA error 401",
    "set24/g09-ibv-modify-qp-timeout-mesh-net-plugin-not-loaded-three-dgx-spark-nccl-mesh-plugin-docs.log,"
        + " ib-error, differ in their first three octets (a /24 assumed; the log shows no mask)",
    "set24/g04-gib-tuner-plugin-no-config-internal-error-gke-llm-d-docs.log, tuner-plugin-failed,"
        + " NCCL_TUNER_PLUGIN=none",
    "set24/g07-server-socket-bind-failed-two-torchruns-per-node-slurm-ntasks-mcquic-note.log,"
        + " master-port-in-use, --ntasks",
    "set24/g15-gib-guest-config-checker-enforced-p2p-nvl-chunksize-ends-workload-gcp-ai-hypercomputer-docs.log,"
        + " env-override, not GPU peer-to-peer",
    "set24/g16-libnccl-failed-to-map-segment-gib-dir-not-executable-gcp-ai-hypercomputer-docs.log,"
        + " loader-refused, mounted without exec",
  })
  void setTwentyFourCausesAfterClose(String file, String id, String says) {
    assertFindingSays(file, id, says);
  }

  /** Set 24's healthy nccl-tests gist: no finding at all. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"set24/g21-healthy-two-p3dn-nodes-efa-allreduce-perf-jacobkahn-gist.log"})
  void setTwentyFourWithoutFinding(String file) {
    assertThat(asDiagnoseReadsIt(file).findings()).isEmpty();
  }

  /**
   * Sets 25 and 26 (set25/i01-i20, LLM framework threads; set26/j01-j05, research code threads) as
   * diagnose reads them: 0 of 5 and 0 of 5 named blind on main at 251fb3a. After close2526 (not
   * blind): argcheck's NULL communicator and its 0..-1 root range (a communicator NCCL freed), a
   * timeout the job set below PyTorch's defaults, Lightning's Slurm note beside fewer members,
   * NCCL's own WARN cited by nccl-error, refusals only, the first collective, Paddle's init line.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set25/i01-allreduce-cuda-failure-invalid-argument-nccl-2.25.1-fixed-by-2.26.2-tensorrt-llm-4238.log,"
        + " nccl-error, ERROR",
    "set25/i02-ddp-init-freezes-slurm-script-without-srun-lightning-8707.log, missing-ranks, WARN",
    "set25/i03-first-allgather-watchdog-8-a100-fixed-by-p2p-and-ib-disable-online-rlhf-22.log,"
        + " collective-timeout, ERROR",
    "set25/i04-init-communicator-client-on-server-gpu-duplicate-device-trl-3706.log, nccl-error,"
        + " ERROR",
    "set25/i05-comm-argument-null-single-gpu-nccl-build-fastmoe-149.log, invalid-argument, ERROR",
    "set26/j01-connect-refused-fairseq-train-without-world-size-rank-fairseq-1096.log,"
        + " socket-connect, WARN",
    "set26/j02-shm-cuda-invalid-argument-nccl-242-regression-horovod-893.log, nccl-warning, WARN",
    "set26/j03-broadcast-invalid-root-failed-init-fixed-by-nccl-downgrade-to-2-11-horovod-3752.log,"
        + " invalid-argument, ERROR",
    "set26/j04-watchdog-broadcast-60s-timeout-set-by-yolov5-ddp-init-yolov5-4400.log,"
        + " collective-timeout, ERROR",
  })
  void setsTwentyFiveAndTwentySixAsDiagnoseReadsIt(String file, String id, Severity severity) {
    assertOneFinding(file, id, severity);
  }

  /** After close2526: what the findings say of each failure. */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    // named: the class the file's cause belongs to
    "set25/i02-ddp-init-freezes-slurm-script-without-srun-lightning-8707.log, missing-ranks,"
        + " Lightning under Slurm announced 1 of 8 ranks",
    "set25/i05-comm-argument-null-single-gpu-nccl-build-fastmoe-149.log, invalid-argument,"
        + " NCCL was called without a communicator",
    "set26/j03-broadcast-invalid-root-failed-init-fixed-by-nccl-downgrade-to-2-11-horovod-3752.log,"
        + " invalid-argument, NCCL had already torn down",
    "set26/j04-watchdog-broadcast-60s-timeout-set-by-yolov5-ddp-init-yolov5-4400.log,"
        + " collective-timeout, at the job's own short timeout of 60.0 s",
    // named after bugsweep: the catalog's entry for NCCL 2.25.1's kernel launch at enqueue.cc:1500
    "set25/i01-allreduce-cuda-failure-invalid-argument-nccl-2.25.1-fixed-by-2.26.2-tensorrt-llm-4238.log,"
        + " known-nccl-bug, NCCL 2.25.1's kernel launch failed with CUDA's 'invalid argument'"
        + " (enqueue.cc:1500)",
    // not named: what the lines imply, no more
    "set25/i01-allreduce-cuda-failure-invalid-argument-nccl-2.25.1-fixed-by-2.26.2-tensorrt-llm-4238.log,"
        + " nccl-error, NCCL's own WARN line before it says why: \"Cuda failure 1 'invalid argument'\"",
    "set25/i03-first-allgather-watchdog-8-a100-fixed-by-p2p-and-ib-disable-online-rlhf-22.log,"
        + " collective-timeout, a rank that never arrived, or NCCL's first transfer that never"
        + " completed",
    "set25/i03-first-allgather-watchdog-8-a100-fixed-by-p2p-and-ib-disable-online-rlhf-22.log,"
        + " collective-timeout, NCCL_P2P_DISABLE=1, then with NCCL_IB_DISABLE=1",
    "set26/j01-connect-refused-fairseq-train-without-world-size-rank-fairseq-1096.log,"
        + " socket-connect, nothing listened at the peer's address",
    "set25/i04-init-communicator-client-on-server-gpu-duplicate-device-trl-3706.log, nccl-error,"
        + " two ranks on one GPU",
  })
  void setsTwentyFiveAndTwentySixSay(String file, String id, String says) {
    assertFindingSays(file, id, says);
  }

  /**
   * Set 25's healthy vLLM check: no finding; set 26's j05, Paddle's init line alone: read as the
   * process reaching NCCL's init (no longer "no NCCL lines"), and no finding, since nothing in it
   * says which interface NCCL took.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set25/i20-healthy-vllm-sanity-check-four-h100-nccl-and-cuda-graph-successful-vllm-10453.log",
    "set26/j05-paddle-hang-after-init-nccl-context-socket-ifname-paddlefleetx-1054.log",
  })
  void setsTwentyFiveAndTwentySixWithoutFinding(String file) {
    assertThat(asDiagnoseReadsIt(file).findings()).isEmpty();
    assertThat(Fixtures.read("nccl/heldout/" + file).inputs())
        .singleElement()
        .satisfies(f -> assertThat(f.ncclLines()).isPositive());
  }

  /**
   * Set 28 (set28/o01-o03, o20-o22: logs committed to public repositories that state their cause or
   * health) as diagnose reads them: 1 of 3 named blind on 34ef842 (o01), no error finding on the
   * healthy logs, one false warning (o21's stopped-at). After close28 (not blind): Open MPI's tag
   * inside nccl-tests' result rows is read as a write boundary, so o21's 32 rows are read and
   * stopped-at is gone. o02 keeps its blind result: it holds the delayed rank's NCCL log alone and
   * no line carries a time, so nothing compares its calls with its peer's (rank-behind names the
   * straggler where both ranks' logs are given: GfBenchTest). o03's cause (a hang in the
   * Slingshot/OFI transport) is in no line: job-cancelled, the symptom, is what the log says.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "set28/o01-injected-cuda-oom-rank0-iteration3-two-gpus-gf-bench.log, cuda-out-of-memory, ERROR",
    "set28/o03-pytorch-ddp-hang-first-step-trial-14-slingshot-ofi-plugin-perlmutter-pytorch-nccl"
        + "-hang.log, job-cancelled, ERROR",
  })
  void setTwentyEightAsDiagnoseReadsIt(String file, String id, Severity severity) {
    assertOneFinding(file, id, severity);
  }

  /** Set 28's logs without an error finding, and exactly these ids (o02 is a miss, see above). */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set28/o02-injected-straggler-rank1-six-second-delay-global-timeout-gf-bench.log,"
        + " p2p-unavailable env-override missing-ranks",
    "set28/o20-healthy-normal-run-ten-all-reduces-two-gpus-shm-abort-on-exit-gf-bench.log,"
        + " p2p-unavailable env-override missing-ranks",
    "set28/o21-healthy-two-p5-nodes-efa-aws-ofi-nccl-1.9.2-nccl-2.22.3-all-reduce-488-gbps-p5-nccl"
        + "-test.log, ''",
    "set28/o22-healthy-send-recv-two-nodes-slingshot-cxi-aws-ofi-nccl-2.24.3-completed-benchmark"
        + ".log, ''",
  })
  void setTwentyEightWithoutError(String file, String ids) {
    Diagnosis d = asDiagnoseReadsIt(file);
    assertThat(d.findings()).noneMatch(f -> f.severity() == Severity.ERROR);
    assertThat(d.findings().stream().map(Finding::id).distinct().toList())
        .containsExactlyElementsOf(ids.isEmpty() ? List.of() : List.of(ids.split(" ")));
  }

  /** The healthy logs of set 15 as diagnose reads them: no finding at all. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set15/k15-healthy-after-gdrdrv-mounted-talos-siderolabs-docs-566.log",
    "set15/k16-healthy-mpijob-aks-infiniband-aks-rdma-infiniband-30.log",
  })
  void setFifteenHealthyHasNoFinding(String file) {
    assertThat(asDiagnoseReadsIt(file).findings()).isEmpty();
  }

  private static Diagnosis asDiagnoseReadsIt(String file) {
    return Diagnoser.standard().diagnose(Fixtures.observe("nccl/heldout/" + file));
  }

  /** Diagnose finds {@code id} once in {@code file}, its title, explanation or fix saying it. */
  private static void assertFindingSays(String file, String id, String says) {
    assertThat(asDiagnoseReadsIt(file).findings())
        .filteredOn(f -> f.id().equals(id))
        .singleElement()
        .satisfies(
            f -> assertThat(f.title() + " " + f.explanation() + " " + f.fix()).contains(says));
  }

  /** Diagnose finds {@code id} once in the held-out {@code file}, at {@code severity}. */
  private static void assertOneFinding(String file, String id, Severity severity) {
    assertThat(asDiagnoseReadsIt(file).findings())
        .filteredOn(f -> f.id().equals(id))
        .singleElement()
        .satisfies(f -> assertThat(f.severity()).isEqualTo(severity));
  }

  /**
   * The healthy logs of sets 4, 5, 7, 8, 9, 10, 11, 12, 14 and 17: no error finding (t15 sets
   * NCCL_IB_DISABLE=1: a warning; set 17's n15, cut two lines after Init START, was an error of
   * missing-ranks when measured blind and is a warning since). t15 and p18 run on two nodes over
   * sockets: inter-node-tcp warns of it since close17c read NCCL's choice of its socket network
   * (their connection lines name no rank's host).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "set4/t15-healthy-two-nodes-line-numbers-espnet-1940.log, inter-node-tcp env-override",
    "set4/t16-healthy-channels-32-ranks-nccl-514.log, ''",
    "set5/u07-healthy-ring-lines-numbered-nccl-385.log, ''",
    "set7/w14-healthy-eight-gpus-trees-distilling-step-by-step-3.log, ''",
    "set7/w15-healthy-ibext-sharp-plugin-2.12-nccl-988.log, ''",
    "set8/x11-healthy-libibverbs-missing-socket-lightning-10471.log, verbs-library-missing",
    "set9/y07-healthy-init-complete-32-ranks-nccl-tests-29.log, missing-ranks",
    "set10/z13-healthy-socket-net-two-nodes-2.11-nccl-676.log, env-override",
    "set11/q13-healthy-p2p-disabled-two-4090s-open-gpu-kernel-modules-45.log, ''",
    "set12/p17-healthy-nvlink-two-workers-2.7.8-nccl-360.log, env-override",
    "set12/p18-healthy-two-nodes-socket-numbered-2.4.8-pytorch-38702.log, inter-node-tcp env-override",
    "set13/r17-healthy-two-nodes-ib-broadcast-fixed-cables-nccl-307.log, ''",
    "set13/r18-healthy-two-gpus-g2-nccl-1706.log, missing-ranks",
    "set14/s15-healthy-four-tasks-ib-2.4.2-pytorch-25767.log, ''",
    "set14/s16-healthy-nccl-sanity-test-four-ranks-2.26.2-vllm-18567.log, ''",
    "set17/n15-healthy-ib-after-libibverbs-install-dstack-2712.log, missing-ranks",
    "set17/n16-healthy-efa-plugin-2.27.7-aws-ofi-nccl-1055.log, ''",
  })
  void healthyHasNoError(String file, String ids) {
    Diagnosis d = Diagnoser.standard().diagnose(Fixtures.read("nccl/heldout/" + file));
    assertThat(d.findings()).noneMatch(f -> f.severity() == Severity.ERROR);
    assertThat(d.findings().stream().map(Finding::id).distinct().toList())
        .containsExactlyElementsOf(ids.isEmpty() ? List.of() : List.of(ids.split(" ")));
  }
}
