package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Observed;
import io.topolens.model.EnvSetting;
import io.topolens.model.Evidence;
import io.topolens.model.Interface;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import io.topolens.smi.SmiReport;
import io.topolens.smi.TopoMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the inputs show of RDMA hardware beside a job whose network is sockets, and of why NCCL did
 * not use it: a bonded or IPoIB socket interface, IB turned off by a variable, no verbs library in
 * the image (NCCL's {@code Failed to open libibverbs.so[.1]}), RDMA NICs in a {@code topo -m} given
 * beside the logs. Each is a reason to expect IB/RoCE or to have missed it, not a proof. NCCL's
 * {@code NET/IB : No device found} is not one: it prints it wherever the verbs library is installed
 * and no HCA is present.
 *
 * @param evidence the lines that show them
 * @param explanation one sentence per hint, or empty
 * @param fix what to change for them, or empty
 * @param hardware whether a hint is of the hardware itself (a bonded or IPoIB interface, RDMA NICs
 *     in the topology), not of a setting or of a device NCCL could not see
 */
record RdmaHints(List<Evidence> evidence, String explanation, String fix, boolean hardware) {

  static RdmaHints of(Observed observed) {
    Job job = observed.job();
    List<Evidence> lines = new ArrayList<>();
    StringBuilder why = new StringBuilder();
    StringBuilder fix = new StringBuilder();
    List<String> bonds = new ArrayList<>();
    List<String> ipoib = new ArrayList<>();
    for (Interface i : job.interfaces()) {
      if (i.role() != Interface.Role.SOCKET) {
        continue;
      }
      boolean bond = i.name().startsWith("bond");
      boolean ib = SocketInterface.ipoib(i.name());
      if (bond && !bonds.contains(i.name())) {
        bonds.add(i.name());
      }
      if (ib && !ipoib.contains(i.name())) {
        ipoib.add(i.name());
      }
      if ((bond || ib) && !lines.contains(i.evidence())) {
        lines.add(i.evidence());
      }
    }
    if (!bonds.isEmpty()) {
      why.append(String.join(", ", bonds))
          .append(
              " is a bonded interface: RoCE hosts bond their ConnectX ports, and verbs expose the bond"
                  + " as one RDMA device (mlx5_bond_0; ibdev2netdev maps it to the bond), which NCCL's"
                  + " IB transport would use instead of TCP over the same ports. ");
      fix.append(
          " For RoCE over a bond: NCCL_IB_HCA naming the bond's verbs device (NCCL_IB_HCA=mlx5_bond),"
              + " NCCL_IB_GID_INDEX of its RoCE v2 GID (show_gids), set by the launcher for every"
              + " rank (AReaL issue 639 was fixed so); NCCL_NET=IB makes a run fail instead of"
              + " falling back to sockets.");
    }
    if (!ipoib.isEmpty()) {
      why.append(String.join(", ", ipoib))
          .append(
              " is IPoIB: the host has InfiniBand, and NCCL carries its data as TCP over it instead"
                  + " of through verbs. ");
    }
    for (EnvSetting e : job.env()) {
      boolean ibOff = e.name().equals("NCCL_IB_DISABLE") && e.value().strip().equals("1");
      boolean socketNet =
          e.name().equals("NCCL_NET") && e.value().strip().equalsIgnoreCase("Socket");
      if (ibOff || socketNet) {
        lines.add(e.evidence());
        why.append(e.name())
            .append('=')
            .append(e.value().strip())
            .append(" is set: NCCL was told not to use IB/RoCE. ");
      }
    }
    List<NcclWarning> noVerbs =
        job.warnings().stream()
            .filter(
                w ->
                    w.detail() instanceof NcclWarning.Detail.NoVerbsLibrary && w.evidence() != null)
            .toList();
    if (!noVerbs.isEmpty()) {
      noVerbs.forEach(w -> lines.add(w.evidence()));
      why.append(
          "NCCL found no verbs library (Failed to open libibverbs.so[.1]): the image lacks rdma-core,"
              + " so NCCL could not use IB/RoCE even where the hosts have it. ");
      fix.append(
          " Install rdma-core's libibverbs1 and ibverbs-providers in the image (or the MLNX_OFED/DOCA"
              + " user space matching the host).");
    }
    List<String> nics = new ArrayList<>();
    for (SmiReport r : observed.smi()) {
      TopoMatrix m = r.matrix().orElse(null);
      if (m == null) {
        continue;
      }
      boolean any = false;
      for (String n : m.nics()) {
        String name = m.nicLegend().getOrDefault(n, n);
        if (rdma(name) && !nics.contains(name)) {
          nics.add(name);
          any = true;
        }
      }
      if (any) {
        lines.add(m.header());
      }
    }
    if (!nics.isEmpty()) {
      why.append("The topology given beside the logs lists RDMA NICs (")
          .append(Facts.list(nics, 8))
          .append("), which NCCL did not use. ");
    }
    return new RdmaHints(
        List.copyOf(lines),
        why.toString(),
        fix.toString(),
        !bonds.isEmpty() || !ipoib.isEmpty() || !nics.isEmpty());
  }

  /** Verbs device names: Mellanox/NVIDIA ConnectX, Broadcom, Intel, EFA, IPoIB's predictable. */
  private static boolean rdma(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.startsWith("mlx")
        || n.startsWith("bnxt_re")
        || n.startsWith("irdma")
        || n.startsWith("rdmap")
        || n.startsWith("efa");
  }
}
