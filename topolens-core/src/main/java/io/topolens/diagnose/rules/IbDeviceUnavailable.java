package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code ib-device-unavailable}: NCCL lists an IB/RoCE device it cannot open ({@code NET/IB :
 * Unable to open device mlx5_59}, {@code Call to ibv_open_device failed}) and leaves it out.
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
  String fix() {
    return "List what each process can open (ibv_devinfo inside the container, ls /dev/infiniband), pass every uverbs device the job should use (device plugin resources, --device=/dev/infiniband), or restrict all ranks alike with NCCL_IB_HCA to the devices they can open.";
  }
}
