package io.topolens.verdict;

import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.PathSpec;
import io.topolens.catalog.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Finds the rate that bounds a path on given hardware, from the catalog only. */
public final class Expectations {
  private final HardwareCatalog catalog;

  public Expectations(HardwareCatalog catalog) {
    this.catalog = catalog;
  }

  public HardwareCatalog catalog() {
    return catalog;
  }

  /** The expectation for {@code path} on {@code hw}; its rate is null when hw does not tell it. */
  public Expectation of(PathKind path, Hardware hw) {
    PathSpec spec =
        catalog
            .path(path.catalogId())
            .orElseThrow(() -> new IllegalStateException("catalog lacks path " + path.catalogId()));
    List<String> keys = new ArrayList<>();
    Double rate = null;
    String basis;
    GpuSpec gpu = hw.gpu();
    switch (spec.rate()) {
      case "gpu.nvlink" -> {
        if (gpu == null) {
          basis = "GPU model unknown (pass --gpu or --instance)";
        } else if (gpu.nvlink() == null) {
          basis = gpu.name() + " has no NVLink in the catalog";
          keys.addAll(gpu.sources());
        } else {
          rate = gpu.nvlink().gbps();
          basis =
              String.format(
                  Locale.ROOT,
                  "NVLink %d, %s links, on %s: %s GB/s per direction",
                  gpu.nvlink().generation(),
                  gpu.nvlink().links() == null ? "?" : gpu.nvlink().links().toString(),
                  gpu.name(),
                  Numbers.gbps(rate));
          keys.addAll(gpu.sources());
        }
      }
      case "gpu.pcie" -> {
        if (gpu == null) {
          basis = "GPU model unknown (pass --gpu or --instance)";
        } else if (gpu.pcie() == null) {
          basis = gpu.name() + " reaches its host without PCIe (C2C)";
          keys.addAll(gpu.sources());
        } else {
          rate = gpu.pcie().gbps();
          basis =
              String.format(
                  Locale.ROOT,
                  "PCIe Gen%d x%s on %s: %s GB/s per direction",
                  gpu.pcie().generation(),
                  gpu.pcie().lanes() == null ? "?" : gpu.pcie().lanes().toString(),
                  gpu.name(),
                  Numbers.gbps(rate));
          keys.addAll(gpu.sources());
        }
      }
      case "instance.efa" -> {
        if (hw.instance() != null && hw.instance().efa() > 0) {
          rate = hw.instance().networkGBps();
          basis =
              String.format(
                  Locale.ROOT,
                  "%d EFA on %s: %s Gbps = %s GB/s per node",
                  hw.instance().efa(),
                  hw.instance().type(),
                  Numbers.gbps(hw.instance().efaGbps()),
                  Numbers.gbps(rate));
          keys.addAll(hw.instance().sources());
        } else if (hw.instance() != null) {
          basis = hw.instance().type() + " has no EFA";
          keys.addAll(hw.instance().sources());
        } else if (hw.nicGbps() != null) {
          rate = hw.nicGbps() / 8.0;
          basis = nicBasis(hw);
        } else {
          basis = "instance type unknown (pass --instance)";
        }
      }
      default -> {
        if (hw.nicGbps() != null) {
          rate = hw.nicGbps() / 8.0;
          basis = nicBasis(hw);
        } else if (hw.instance() != null) {
          rate = hw.instance().networkGBps();
          basis =
              String.format(
                  Locale.ROOT,
                  "network of %s: %s Gbps = %s GB/s per node",
                  hw.instance().type(),
                  Numbers.gbps(hw.instance().efaGbps()),
                  Numbers.gbps(rate));
          keys.addAll(hw.instance().sources());
        } else {
          basis = "NIC rate unknown (pass --nic-gbps or --instance)";
        }
      }
    }
    keys.addAll(spec.sources());
    List<Source> sources = catalog.sources(keys.stream().distinct().toList());
    return new Expectation(path, rate, basis, spec, sources);
  }

  private static String nicBasis(Hardware hw) {
    return String.format(
        Locale.ROOT,
        "%s Gbps = %s GB/s per node (%s)",
        Numbers.gbps(hw.nicGbps()),
        Numbers.gbps(hw.nicGbps() / 8.0),
        hw.nicSource() == null ? "given" : hw.nicSource());
  }
}
