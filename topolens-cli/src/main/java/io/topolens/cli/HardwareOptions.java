package io.topolens.cli;

import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.InstanceSpec;
import io.topolens.nccl.InputProblem;
import io.topolens.verdict.Hardware;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Options that say what hardware the inputs come from, shared by diagnose, topo and bench. */
final class HardwareOptions {

  @Option(
      names = "--instance",
      paramLabel = "TYPE",
      description =
          "Instance type the inputs come from (e.g. p5.48xlarge): its GPU, NVSwitch and EFA from the catalog.")
  String instance;

  @Option(
      names = "--gpu",
      paramLabel = "NAME",
      description = "GPU model when no input names it (e.g. H200, \"A100-SXM4\", L40S).")
  String gpu;

  @Option(
      names = "--nic-gbps",
      paramLabel = "GBPS",
      description = "Network rate of one node in Gbit/s, when no instance type gives it.")
  Double nicGbps;

  @Option(
      names = "--catalog",
      paramLabel = "FILE",
      description =
          "A JSON file that adds or replaces catalog entries (docs/catalog.md); repeatable.")
  List<Path> catalogs = new ArrayList<>();

  /** The catalog with the --catalog files, and the hardware the options name. */
  record Resolved(HardwareCatalog catalog, Hardware hardware) {}

  Resolved resolve() throws InputProblem {
    HardwareCatalog c = catalog();
    return new Resolved(c, hardware(c));
  }

  /** {@link #resolve()}, or null after saying on {@code err} what is wrong with the options. */
  Resolved resolve(PrintWriter err) {
    try {
      return resolve();
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return null;
    }
  }

  HardwareCatalog catalog() throws InputProblem {
    return HardwareCatalog.load(catalogs);
  }

  Hardware hardware(HardwareCatalog catalog) throws InputProblem {
    InstanceSpec inst = null;
    if (instance != null) {
      inst =
          catalog
              .instance(instance)
              .orElseThrow(
                  () ->
                      new InputProblem(
                          "--instance "
                              + instance
                              + ": not in the catalog (known: "
                              + String.join(
                                  ", ",
                                  catalog.instances().stream().map(InstanceSpec::type).toList())
                              + "; add it with --catalog FILE)"));
    }
    GpuSpec g = null;
    if (gpu != null) {
      g =
          catalog
              .gpuByName(gpu)
              .or(() -> catalog.gpu(gpu))
              .orElseThrow(
                  () ->
                      new InputProblem(
                          "--gpu "
                              + gpu
                              + ": not in the catalog (known: "
                              + String.join(", ", catalog.gpus().stream().map(GpuSpec::id).toList())
                              + ")"));
    } else if (inst != null) {
      g = catalog.gpuOf(inst);
    }
    if (nicGbps != null && nicGbps <= 0) {
      throw new InputProblem("--nic-gbps must be a positive rate in Gbit/s, not " + nicGbps);
    }
    return new Hardware(g, inst, nicGbps, nicGbps == null ? null : "--nic-gbps");
  }
}
