package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code ib-device-unavailable}: NCCL lists an IB/RoCE device it cannot open ({@code NET/IB :
 * Unable to open device mlx5_59}, {@code Call to ibv_open_device failed}) and leaves it out; or
 * libibverbs lists one it has no provider library for ({@code libibverbs: Warning: no userspace
 * device-specific driver found for /sys/class/infiniband_verbs/uverbs0}).
 */
public final class IbDeviceUnavailable extends WarningRule {

  public IbDeviceUnavailable() {
    super(Severity.WARN, NcclWarning.Kind.IB_DEVICE);
  }

  @Override
  public String id() {
    return "ib-device-unavailable";
  }

  @Override
  String title() {
    return "An InfiniBand/RoCE device is listed but cannot be opened";
  }

  @Override
  String explanation() {
    return "ibv_open_device failed for a device the verbs library lists (sysfs shows it): in a container or pod this is a device whose /dev/infiniband/uverbsN was not passed in (the RDMA device plugin or --device admitted only some of them), otherwise a device whose driver is down or held exclusively. NCCL leaves the device out and uses the others (NET/IB : Using ... names them). When ranks end up with different device sets the job can fail to connect or hang (a channel on a NIC the peer does not have), and with fewer NICs each rank gets less bandwidth.";
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            "no userspace device-specific driver",
            "`no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbsN` is libibverbs' own warning (libibverbs 1.x prints it always, rdma-core under IBV_SHOW_WARNINGS): the kernel exposes the device, but the process has no user-space provider library for it (libmlx5 for ConnectX, libefa for EFA, in rdma-core's ibverbs-providers), most often a container image (Docker, Singularity/Apptainer, enroot) built without them while the host has them. The device cannot be opened, so NCCL's IB transport finds nothing or fails where it expected the device (nccl-tests' `internal error`, an unhandled system error).",
            "Install the verbs providers in the image (Debian/Ubuntu: ibverbs-providers and libibverbs1 from rdma-core, or the MLNX_OFED/DOCA user-space libraries matching the host; RHEL: rdma-core and libibverbs), or bind them in from the host (Singularity/Apptainer --bind of /etc/libibverbs.d and the provider libraries; the NGC images ship them); ibv_devinfo inside the container must list the device. With no RDMA wanted, NCCL_IB_DISABLE=1 uses sockets."),
        new Form(
            "could not find real path of /sys/class/infiniband/",
            "`Could not find real path of /sys/class/infiniband/DEV/device (No such file or directory)` (net_ib.cc) says the device's sysfs entry is missing where the rank runs: NCCL cannot find which PCI device the NIC is, so it cannot place it in the topology and leaves it out. Typical of a container that was given the verbs device files (/dev/infiniband) but a /sys without the host's InfiniBand class (a private sysfs, an RDMA device plugin that exposes only some NICs), or of an NCCL_IB_HCA naming a device this host lacks.",
            "Make the host's /sys/class/infiniband visible in the container (the RDMA shared device plugin or a privileged pod with the host's /sys, as the NGC and EKS EFA/IB guides do); ls -l /sys/class/infiniband/*/device and ibv_devinfo inside the container must list every NIC NCCL_IB_HCA names; drop names of devices this host lacks from NCCL_IB_HCA."));
  }

  @Override
  String fix() {
    return "List what each process can open (ibv_devinfo inside the container, ls /dev/infiniband), pass every uverbs device the job should use (device plugin resources, --device=/dev/infiniband), or restrict all ranks alike with NCCL_IB_HCA to the devices they can open.";
  }
}
