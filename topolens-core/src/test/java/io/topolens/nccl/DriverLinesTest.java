package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.GpuXid;
import io.topolens.model.Job;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The NVIDIA driver's and nvidia-smi's lines users paste beside an NCCL failure, from the real
 * excerpts in nccl/failures (sources in its README): every GPU error read, with its GPU as NCCL's
 * busId prints it and its Xid, and nothing else of the driver taken.
 */
class DriverLinesTest {

  /** file, GPU errors as "busId xid line" (busId "null" where the line names none). */
  static Stream<Arguments> excerpts() {
    return Stream.of(
        Arguments.of(
            "xid79-smi-lost-akash-support-209.log",
            List.of("a1000 -1 2", "a1000 79 7", "a1000 79 8")),
        Arguments.of(
            "xid79-journal-open-gpu-kernel-modules-1151.log", List.of("2b000 79 2", "2b000 79 3")),
        Arguments.of(
            "xid45-after-nvlink-open-gpu-kernel-modules-1150.log",
            List.of(
                "dc000 45 1",
                "ed000 45 2",
                "ba000 45 3",
                "97000 45 4",
                "dc000 45 5",
                "ba000 45 6",
                "ed000 45 7")),
        Arguments.of("smi-lost-pcie-aer-returnn-1486.log", List.of("3000 -1 2")),
        Arguments.of("smi-lost-nvidia-docker-1553.log", List.of("9000 -1 1")),
        Arguments.of("xid-old-driver-pastebin-xJaypMZt.log", List.of("1000 79 1", "1000 3 3")),
        Arguments.of("xid-fallen-multiline-nvsentinel-155.log", List.of("null 79 3")),
        Arguments.of(
            "xid-forms-gpud-1174.log", List.of("1901000 149 1", "1801000 145 2", "9b000 94 3")),
        Arguments.of("xid63-ml-engineering-debug.log", List.of("101c0 63 1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("excerpts")
  void readsEveryGpuError(String file, List<String> errors) throws Exception {
    Job job = FrameworkLinesTest.read(file);

    assertThat(job.gpuErrors())
        .extracting(x -> x.pciBus() + " " + x.xid() + " " + x.evidence().line())
        .containsExactlyElementsOf(errors);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    // the driver's forms, each release's address as NCCL's busId prints it
    "'NVRM: Xid (PCI:0000:3b:00): 79, pid=812, name=python, GPU has fallen off the bus.', 3b000, 79",
    "'NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row marked', 101c0, 63",
    "'NVRM: Xid (0000:01:00): 3, C 00000005 SC 00000007', 1000, 3",
    "'NVRM: GPU at 0000:01:00.0 has fallen off the bus.', 1000, 79",
    "'NVRM: GPU 0000:2b:00.0: GPU has fallen off the bus.', 2b000, 79",
    "'Unable to determine the device handle for GPU0000:CB:00.0: GPU is lost', cb000, -1",
    // not the driver's GPU error
    "'NVRM: GPU at PCI:0000:2b:00: GPU-0b11d014-1685-04bd-26ed-5fc0bc1c44ae', , ",
    "'NVRM: Xid count is 0 on every GPU', , ",
    "'the card has fallen off the bus again, says the forum', , ",
    "'Unable to determine the device handle for the device', , ",
  })
  void readsOneLine(String line, String busId, Integer xid) {
    NcclEvent e = DriverLine.parse(line);

    if (xid == null) {
      assertThat(e).isNull();
    } else {
      assertThat(e).isEqualTo(new NcclEvent.Xid(busId, xid));
    }
  }

  /** The kernel's IB port lines and the fabric manager's: warnings of NCCL's kinds, or nothing. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // Linux's own example (lore.kernel.org linux-rdma, IB/cache: Add log messages ...)
        "mlx5_core 0000:08:00.0 mlx5_0: Port: 1 Link DOWN | IB | mlx5_core 0000:08:00.0 mlx5_0: Port: 1 Link DOWN",
        // https://github.com/leptonai/gpud/pull/1209: coming up is no failure
        "Feb 14 05:03:41 000-000-00000-1-gpu-1 kernel: mlx5_core 0000:ab:00.0 mlx5_5: Port: 1 Link ACTIVE | |",
        // mlx5 events.c's format, values invented
        "mlx5_core 0000:ab:00.0: Port module event[error]: module 0, Cable error, High Temperature | IB | mlx5_core 0000:ab:00.0: Port module event[error]: module 0, Cable error, High Temperature",
        // https://github.com/data-infra/cube-studio/issues/29
        "Sep 18 03:19:01 ubuntu2404 nvidia-fabricmanager-start.sh[4753]: Detected Pre-NVL5 system | |",
      })
  void readsHostWarnings(String line, String kind, String message) {
    NcclEvent e = DriverLine.parse(line);

    if (kind == null) {
      assertThat(e).isNull();
    } else {
      assertThat(e)
          .isEqualTo(
              new NcclEvent.Warning(
                  io.topolens.model.NcclWarning.Kind.valueOf(kind), message, null));
    }
  }

  /**
   * The fabric manager failing to start, in its journal and its service's: NVLS warnings, the text
   * from the program's name on, with whether the NVSwitch driver answered with an error and whether
   * that error says it found no NVSwitch.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // line | message | driver error | no NVSwitch
        // https://github.com/NVIDIA/gpu-operator/issues/610
        "11月 15 14:15:47 leon-NF5468M6 nv-fabricmanager[4177]: request to query NVSwitch device"
            + " information from NVSwitch driver failed with error:WARNING Nothing to do"
            + " [NV_WARN_NOTHING_TO_DO] | nv-fabricmanager[4177]: request to query NVSwitch device"
            + " information from NVSwitch driver failed with error:WARNING Nothing to do"
            + " [NV_WARN_NOTHING_TO_DO] | true | true",
        // https://github.com/NVIDIA/gpu-operator/issues/610
        "11月 15 14:15:47 leon-NF5468M6 systemd[1]: nvidia-fabricmanager.service: Control process"
            + " exited, code=exited, status=1/FAILURE | nvidia-fabricmanager.service: Control process"
            + " exited, code=exited, status=1/FAILURE | false | false",
        // https://github.com/data-infra/cube-studio/issues/29
        "Sep 18 03:19:01 ubuntu2404 nvidia-fabricmanager-start.sh[4753]: \"/usr/bin/nv-fabricmanager"
            + " -c /usr/share/nvidia/nvswitch/fabricmanager.cfg\" failed! Exit code: 1"
            + " | nvidia-fabricmanager-start.sh[4753]: \"/usr/bin/nv-fabricmanager -c"
            + " /usr/share/nvidia/nvswitch/fabricmanager.cfg\" failed! Exit code: 1 | false | false",
        // built: the driver's query failing with another error (the NVSwitch is there)
        "nv-fabricmanager[812]: request to query NVSwitch device information from NVSwitch driver"
            + " failed with error:ERROR Generic error [NV_ERR_GENERIC] | nv-fabricmanager[812]:"
            + " request to query NVSwitch device information from NVSwitch driver failed with"
            + " error:ERROR Generic error [NV_ERR_GENERIC] | true | false",
      })
  void readsFabricManagerFailures(
      String line, String message, boolean driverError, boolean noSwitch) {
    NcclEvent e = DriverLine.parse(line);

    assertThat(e)
        .isEqualTo(
            new NcclEvent.Warning(
                io.topolens.model.NcclWarning.Kind.NVLS,
                message,
                null,
                new io.topolens.model.NcclWarning.Detail.FabricManagerDown(driverError, noSwitch)));
  }

  /**
   * The fabric manager refusing a driver of another version, in each form real threads paste (the
   * README lists them): NVLS warnings with both versions, from the fabric manager's words on.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // line | fabric manager's version | driver's version | driver's branch | message from
        // https://github.com/pytorch/pytorch/issues/129749 (held-out set 22's e03)
        "NVIDIA GPU driver interface version 550.90.07 don't match with driver version 550.54.15"
            + " | 550.90.07 | 550.54.15 | 550 | NVIDIA GPU driver",
        // https://github.com/NVIDIA/gpu-operator/issues/544
        "nv-fabricmanager[3228]: fabric manager NVIDIA GPU driver interface version 530.30.02 don't"
            + " match with driver version 530.41.03. Please update with matching NVIDIA driver"
            + " package. | 530.30.02 | 530.41.03 | 530 | fabric manager",
        // https://github.com/akash-network/website/pull/632 (the fabric manager's later wording)
        "Nov 05 13:55:26 node1 nv-fabricmanager[104230]: fabric manager NVIDIA GPU driver interface"
            + " version 550.127.05 doesn't match with driver version 550.120. Please update with the"
            + " matching NVIDIA driver package. | 550.127.05 | 550.120 | 550 | fabric manager",
        // https://github.com/NVIDIA/nvtrust/issues/55 (a typographic apostrophe, no full stop)
        "\"fabric manager NVIDIA GPU driver interface version 550.90.07 don’t match with driver"
            + " version 550.107.02. Please update with matching NVIDIA driver package\""
            + " | 550.90.07 | 550.107.02 | 550 | fabric manager",
        // https://github.com/NVIDIA/gpu-driver-container/issues/735 (the sentence cut at its line)
        "fabric manager NVIDIA GPU driver interface version 590.48.01 don't match with driver"
            + " version 580.126.09. | 590.48.01 | 580.126.09 | 580 | fabric manager",
      })
  void readsFabricManagerVersions(
      String line, String fabricManager, String driver, String branch, String from) {
    NcclEvent e = DriverLine.parse(line);

    assertThat(e)
        .isEqualTo(
            new NcclEvent.Warning(
                io.topolens.model.NcclWarning.Kind.NVLS,
                line.substring(line.indexOf(from)).strip(),
                null,
                new io.topolens.model.NcclWarning.Detail.FabricManagerVersion(
                    fabricManager, driver, branch)));
  }

  /** Words of a version check that are not the fabric manager's: nothing read. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // built: the needle without the fabric manager's "driver interface version"
        "the CUDA toolkit does not match with driver version 12.2",
        // built: the words without a version after them
        "fabric manager NVIDIA GPU driver interface version unknown don't match with driver version",
      })
  void readsNoOtherVersionCheck(String line) {
    assertThat(DriverLine.parse(line)).isNull();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "0000:3b:00, 3b000",
    "0000:3B:00.0, 3b000",
    "00000000:A1:00.0, a1000",
    "0019:01:00, 1901000",
    "0000:10:1c, 101c0",
    "3b:00.0, ",
    "0000:3b:0, ",
    "PCI:0000:3b:00, ",
  })
  void busIdAsNcclPrintsIt(String address, String busId) {
    assertThat(DriverLine.busId(address)).isEqualTo(busId);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"3b000, 0000:3b:00.0", "1901000, 0019:01:00.0", "101c0, 0000:10:1c.0"})
  void addressOfABusId(String busId, String address) {
    assertThat(new GpuXid(busId, 79, null).address()).isEqualTo(address);
  }
}
