package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code tcpx-rxdm-failed}: GKE's GPUDirect-TCPX/TCPXO receive-datapath manager (RxDM, the sidecar
 * the FasTrak/TCPX plugin hands GPU buffers to) failed its start-up checks or was not there: {@code
 * Number of GPUs detected in the PCI tree 7 is not equal to the actual number of GPUs reported by
 * CUDA 8}, {@code Timeout: RxDM not ready on HOST after N seconds} (google/nccl-plugin-gpudirect-
 * tcpxo's buffer_mgmt_daemon and fastrak_offload/init.cc).
 */
public final class TcpxRxdmFailed extends WarningRule {

  public TcpxRxdmFailed() {
    super(Severity.ERROR, NcclWarning.Kind.TCPX_RXDM);
  }

  @Override
  public String id() {
    return "tcpx-rxdm-failed";
  }

  @Override
  String title() {
    return "GPUDirect-TCPX(O)'s receive-datapath manager (RxDM) failed or is not running";
  }

  @Override
  String explanation() {
    return "On GKE's A3 machines NCCL's network plugin (GPUDirect-TCPX on a3-highgpu, TCPXO/FasTrak on a3-megagpu) moves data through a receive-datapath manager (RxDM) that runs beside the training container, in the tcpx-daemon or tcpxo-daemon sidecar, and talks to it over a Unix socket. When the RxDM stops at its start-up checks or never starts, the plugin cannot connect to it (its `connect() error: 111: Connection refused`, `RxDM not ready`) and NCCL's connections fail or are refused.";
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            "gpus detected in the pci tree",
            "`Number of GPUs detected in the PCI tree N is not equal to the actual number of GPUs reported by CUDA M` says the RxDM paired fewer GPUs with a GPU NIC under the same PCI switch than CUDA sees: a GPU NIC is missing from the node. On a3-megagpu-8g an extra gVNIC network attached to the node pool takes the PCI slot of the first GPU NIC (eth1-eth8 must be the eight GPU NICs), or a GPU NIC network was not attached; 0 in the PCI tree means the sidecar does not see the host's /sys.",
            "Give the node pool exactly the default gVNIC network and the eight GPU NIC networks (no other additional network; check the node's networking.gke.io/nic-info annotation: the eight GPU NICs on eth1-eth8); mount the host's /sys into the tcpxo-daemon container (as /hostsysfs) and /proc/sys; then restart the pods."),
        new Form(
            "number of nics detected",
            "`Number of NICs detected (N) is not equal to the actual number of NICs specified (M)` says fewer GPU NICs came up than the RxDM was told to use: a GPU NIC network is missing from the node or the pod.",
            "Attach every GPU NIC network to the node pool and list them all in the pod's networking.gke.io/interfaces annotation (the eight vpc networks of A3 Mega, four of A3 High)."),
        new Form(
            "rxdm not ready",
            "`Timeout: RxDM not ready on HOST after N seconds` says the plugin waited for the RxDM's socket and it never answered: the sidecar is not in the pod, crashed at its checks, or started too late.",
            "Check the sidecar: kubectl logs POD -c tcpxo-daemon (or tcpx-daemon) shows why it stopped; the pod spec needs it (privileged, hostNetwork or the GPU NIC networks, the nccl-plugin-installer DaemonSet's libraries), started before the training container; NCCL_FASTRAK_... and the LD_LIBRARY_PATH of the plugin as GKE's A3 guide sets them."));
  }

  @Override
  String fix() {
    return "Run the RxDM sidecar the GKE GPUDirect-TCPX/TCPXO guide gives for this machine type (its image matching the plugin installer's version), with the host's /sys and /proc/sys mounted, and check its log (kubectl logs POD -c tcpxo-daemon): it prints `Buffer manager initialization completed.` when ready. Give the node pool the default gVNIC network and the GPU NIC networks only, and use the GPU driver of the node image (newer drivers than the image's are not supported with TCPX).";
  }
}
