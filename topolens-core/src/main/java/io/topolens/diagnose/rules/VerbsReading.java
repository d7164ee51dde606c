package io.topolens.diagnose.rules;

import io.topolens.model.NcclWarning;
import io.topolens.model.NcclWarning.Detail.IbCompletion;
import io.topolens.model.NcclWarning.Detail.VerbsCall;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code ib-error}'s lines say by their typed reading (the verbs call and its errno, a
 * completion's status, peer and HCA), so the finding names what THIS failure implies rather than
 * every status's usual causes: a title, a sentence, a fix, or null where the lines name nothing of
 * it.
 */
record VerbsReading(String title, String explanation, String fix) {

  /** The reading of the first line of each kind that has one, most specific first. */
  static VerbsReading of(List<NcclWarning> hits) {
    VerbsReading r = completion(hits);
    if (r != null) {
      return r;
    }
    for (NcclWarning w : hits) {
      if (w.detail() instanceof VerbsCall c) {
        VerbsReading v = call(c);
        if (v != null) {
          return v;
        }
      }
    }
    return null;
  }

  /**
   * A memory-access completion (status 4 or 10): the registration or DMA path, one peer or many.
   */
  private static VerbsReading completion(List<NcclWarning> hits) {
    List<NcclWarning> memory =
        hits.stream()
            .filter(w -> w.detail() instanceof IbCompletion c && c.memoryAccess())
            .toList();
    if (memory.isEmpty()) {
      return null;
    }
    IbCompletion first = (IbCompletion) memory.getFirst().detail();
    Set<String> peers = new LinkedHashSet<>();
    Set<String> hcas = new LinkedHashSet<>();
    Set<String> reporters = new LinkedHashSet<>();
    for (NcclWarning w : memory) {
      IbCompletion c = (IbCompletion) w.detail();
      if (c.peer() != null) {
        peers.add(c.peer());
      }
      if (c.hca() != null) {
        hcas.add(c.hca());
      }
      if (!w.process().isEmpty() && !w.process().startsWith("?")) {
        reporters.add(w.process());
      }
    }
    int processes = memory.stream().mapToInt(NcclWarning::processes).sum();
    String status =
        first.status() == IbCompletion.LOCAL_PROTECTION
            ? "status 4 (IBV_WC_LOC_PROT_ERR, local protection)"
            : "status 10 (IBV_WC_REM_ACCESS_ERR, remote access)";
    String where =
        (hcas.isEmpty() ? "" : " on " + String.join(", ", hcas))
            + (reporters.isEmpty() ? "" : " of " + String.join(", ", reporters))
            + (peers.isEmpty() ? "" : ", against peer " + String.join(", ", peers));
    String vendor =
        first.vendorErr() < 0
            ? ""
            : " (vendor error "
                + first.vendorErr()
                + ", 0x"
                + Integer.toHexString(first.vendorErr())
                + ", the HCA's own syndrome)";
    String who;
    if (peers.size() == 1 && processes > 1) {
      who =
          " Every failing line ("
              + processes
              + " processes) names the one peer "
              + peers.iterator().next()
              + ": the fault is most likely that node, its HCA or its GPU-to-NIC path; run without"
              + " it and test it alone.";
    } else if (peers.size() == 1) {
      who =
          " The lines name one peer, "
              + peers.iterator().next()
              + (hcas.isEmpty() ? "" : ", and one local HCA, " + String.join(", ", hcas))
              + ": where the other ranks' logs name this same peer (many ranks failing against one),"
              + " that node's HCA is the fault; where every node fails against many peers, it is the"
              + " DMA path that all hosts share (PCIe ACS, the IOMMU, GPUDirect registration).";
    } else if (peers.size() > 1) {
      who =
          " The lines name "
              + peers.size()
              + " peers ("
              + String.join(", ", peers)
              + "): the failure is not one peer's, so look at the path every host shares (PCIe ACS,"
              + " the IOMMU, GPUDirect registration)"
              + (hcas.size() == 1 ? ", or the one local HCA " + hcas.iterator().next() : "")
              + ".";
    } else {
      who = "";
    }
    return new VerbsReading(
        "IB completion " + status + where + ": memory protection, not a link",
        "This reading: the completion's "
            + status
            + vendor
            + " means the HCA could not access a buffer under its memory registration: it is the"
            + " registration and DMA path, not the link, the fabric or a peer that stopped"
            + " answering (those are status 12 and 13). With GPU buffers (GPUDirect RDMA) the"
            + " NIC's DMA to GPU memory crosses the PCIe fabric: PCIe ACS forcing peer-to-peer"
            + " traffic up to the root complex, or the IOMMU in translated mode (DMA remapping, as"
            + " SR-IOV virtual functions on AMD EPYC hosts need it) fails that DMA this way, as does"
            + " a GPU buffer registered without nvidia-peermem or dma-buf; one node's faulty HCA"
            + " fails every transfer through it the same way."
            + who,
        "Check the DMA path of the hosts named: PCIe ACS on the switches between NIC and GPU"
            + " (lspci -vvv | grep ACSCtl: SrcValid+ and ReqRedir+ must be off for GPUDirect RDMA,"
            + " setpci or the BIOS), the IOMMU mode (iommu=pt, or amd_iommu=on iommu=pt on AMD EPYC;"
            + " dmesg | grep -i iommu), nvidia-peermem or dma-buf registration (lsmod | grep"
            + " peermem); where one peer or HCA is named by many ranks, exclude that node and run"
            + " ib_write_bw with --use_cuda on its HCA; NCCL_NET_GDR_LEVEL=LOC (no GPUDirect RDMA)"
            + " tells the GPU path from the HCA.");
  }

  /** A verbs call's failure read by its call and errno. */
  private static VerbsReading call(VerbsCall c) {
    if (c.registersMemory()) {
      return c.errno() == 0
          ? new VerbsReading(
              c.call() + " failed (no errno printed): memory registration refused",
              "This reading: "
                  + c.call()
                  + " failed, and this NCCL or IB plugin prints no errno for it (NCCL's ibvwrap of"
                  + " 2015-2019 checks ibv_reg_mr with IBV_PTR_CHECK, which reports only \"Call to"
                  + " ibv_reg_mr failed\", as do the HPC-X IB plugin's ibvwrap.c and its copies;"
                  + " later NCCL adds strerror(errno)). Registering a buffer pins it: the usual"
                  + " refusal is the locked-memory limit (ENOMEM, ulimit -l too low for the process,"
                  + " 64 KB or 8 MB by default and in containers; EPERM where it is 0), then a GPU"
                  + " buffer the NIC cannot"
                  + " register (EFAULT or EINVAL: nvidia-peermem not loaded, GPUDirect RDMA"
                  + " unsupported).",
              "Raise the locked-memory limit where the ranks run (ulimit -l unlimited inside the"
                  + " job, memlock unlimited in /etc/security/limits.conf, LimitMEMLOCK=infinity"
                  + " for the daemons that start jobs, docker --ulimit memlock=-1:-1); if it is"
                  + " unlimited already, check nvidia-peermem (lsmod | grep peermem); a newer NCCL"
                  + " prints the errno.")
          : c.errno() == 14 || c.errno() == VerbsCall.INVALID_ARGUMENT
              ? new VerbsReading(
                  c.call() + " failed with errno " + c.errno() + ": GPU buffer not registrable",
                  "This reading: "
                      + c.call()
                      + " failed with "
                      + (c.errno() == 14 ? "EFAULT (Bad address)" : "EINVAL (Invalid argument)")
                      + ": the HCA's driver could not pin the buffer's pages, as with a GPU buffer"
                      + " when no peer-memory client (nvidia-peermem) or dma-buf path registers"
                      + " GPU memory.",
                  "Load nvidia-peermem (modprobe nvidia-peermem) or use a driver and NCCL with"
                      + " dma-buf (NCCL_DMABUF_ENABLE=1, kernel 5.12+); NCCL_NET_GDR_LEVEL=LOC"
                      + " runs without GPUDirect RDMA meanwhile.")
              : null;
    }
    if (!c.call().equals("ibv_modify_qp")) {
      return null;
    }
    if (c.errno() == VerbsCall.TIMED_OUT && c.addresses().size() == 2) {
      String local = c.gids().get(0);
      String remote = c.gids().get(1);
      String a = network(c.addresses().get(0));
      String b = network(c.addresses().get(1));
      if (!a.equals(b)) {
        return new VerbsReading(
            "ibv_modify_qp timed out between GIDs "
                + local
                + " and "
                + remote
                + ", whose IPv4 addresses differ in their first three octets (a /24 assumed; the"
                + " log shows no mask)",
            "This reading: the queue pair joined local GID "
                + local
                + " to remote GID "
                + remote
                + ", IPv4 addresses that differ in their first three octets ("
                + a
                + " and "
                + b
                + "): different networks where the mask is /24, as per-link RoCE layouts use;"
                + " the log shows no mask, and a wider one (/16) puts both in one network, so"
                + " check the ports' masks (ip -4 addr). On different networks RoCE routes by"
                + " that address, and where no route joins the two ports the transition to RTR"
                + " times out (110), as here. NCCL's built-in IB"
                + " transport pairs the NICs of two ranks by their place in each list, not by"
                + " subnet; a direct-connect mesh or a per-link subnet layout needs a net plugin"
                + " that pairs ports by link, and where such a plugin failed to load NCCL used its"
                + " own IB transport and met exactly this.",
            "Pair only ports that share a subnet: NCCL_IB_HCA naming the same network's ports on"
                + " every node (ibdev2netdev, ip -4 addr), or a routed fabric; where a net plugin"
                + " is meant to pair the links (NCCL_NET_PLUGIN), make sure it loads (NCCL_DEBUG=INFO"
                + " prints the plugin it loaded, or why it could not).");
      }
      return null;
    }
    if (c.errno() == VerbsCall.INVALID_ARGUMENT) {
      return new VerbsReading(
          "ibv_modify_qp failed with EINVAL: the HCA refused the queue pair's path",
          "This reading: ibv_modify_qp failing with EINVAL (Invalid argument, not a timeout) means"
              + " the local HCA refused the attributes NCCL gave the queue pair, before any packet"
              + " left: a GID index with no GID on that port (NCCL_IB_GID_INDEX), or the two ends"
              + " on different link layers, an InfiniBand port paired with a RoCE (Ethernet) port,"
              + " as on hosts whose NIC list mixes IB and RoCE devices: the path attributes of one"
              + " link layer do not fit the other.",
          "List NICs of one link layer, the same on every node: NCCL_IB_HCA=mlx5_0,mlx5_1 (ibv_devinfo"
              + " | grep link_layer shows InfiniBand or Ethernet per device); on RoCE set"
              + " NCCL_IB_GID_INDEX to a RoCE v2 GID that exists on every listed port (show_gids).");
    }
    return null;
  }

  /** The first three octets of an IPv4 address ({@code 192.168.100}). */
  private static String network(java.net.Inet4Address a) {
    byte[] b = a.getAddress();
    return (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff);
  }
}
