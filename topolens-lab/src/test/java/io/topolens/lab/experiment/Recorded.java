package io.topolens.lab.experiment;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import io.topolens.verdict.Hardware;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A real experiment kept in bench/results (4 x H200: its spec, results.json and every variant's
 * probe and training logs in variants.tar.gz) run again through {@link ExperimentRun} with a runner
 * that hands back the recorded logs instead of starting processes: what {@code topolens experiment}
 * computes from those logs today.
 *
 * @param stored the results.json written when it ran
 * @param replayed the experiment as it runs now from the same logs
 * @param spec its spec, its catalog beside it
 */
record Recorded(Path results, Experiment stored, Experiment replayed, ExperimentSpec spec) {
  static final Path RESULTS = Path.of("../bench/results");
  static final Path CATALOG = Path.of("../examples/experiment/lent-h100-catalog.json");

  /** Replays {@code bench/results/NAME} in {@code work}. */
  static Recorded replay(String name, Path work) throws Exception {
    Path folder = RESULTS.resolve(name);
    Path logs = work.resolve("recorded");
    TarGz.extract(folder.resolve("variants.tar.gz"), logs);
    ExperimentSpec spec = spec(name, work);
    HardwareCatalog catalog = HardwareCatalog.load(spec.catalogs());
    Path variants;
    try (Stream<Path> top = Files.list(logs)) {
      // gpu4exp/variants, launchexp/variants: the experiment's folder as the run named it
      variants =
          top.map(d -> d.resolve("variants")).filter(Files::isDirectory).findFirst().orElseThrow();
    }
    Experiment replayed =
        new ExperimentRun(
                spec,
                new Replay(variants),
                new VariantAnalysis(catalog, Hardware.unknown()),
                catalog,
                work.resolve("out"),
                false,
                new PrintWriter(new StringWriter()))
            .run();
    return new Recorded(folder.resolve(Experiment.FILE), Experiment.read(folder), replayed, spec);
  }

  /** The spec {@code bench/results/NAME} ran, read in {@code work} with its catalog beside it. */
  static ExperimentSpec spec(String name, Path work) throws Exception {
    Path folder = RESULTS.resolve(name);
    Path specDir = Files.createDirectories(work.resolve("spec"));
    if (Files.isRegularFile(folder.resolve("spec.yaml"))) {
      Files.copy(folder.resolve("spec.yaml"), specDir.resolve("spec.yaml"));
    } else {
      TarGz.extract(folder.resolve("extra.tar.gz"), specDir);
    }
    Files.copy(CATALOG, specDir.resolve(CATALOG.getFileName()));
    return SpecReader.read(specDir.resolve("spec.yaml"));
  }

  /** Hands back each variant's recorded rank outputs, copied into the folder the run gives it. */
  private record Replay(Path recorded) implements VariantRunner {
    @Override
    public Optional<String> skipReason(Variant v) {
      return Optional.empty();
    }

    @Override
    public VariantRun run(Variant v, Path dir, Consumer<String> progress) throws IOException {
      List<Path> logs = new ArrayList<>();
      for (String part : List.of("probe", "train")) {
        Path from = recorded.resolve(v.dirName()).resolve(part);
        if (!Files.isDirectory(from)) {
          continue;
        }
        Path to = Files.createDirectories(dir.resolve(part));
        try (Stream<Path> s = Files.list(from)) {
          for (Path p : s.sorted().toList()) {
            if (p.getFileName().toString().matches("rank-\\d+\\.(out|err)")) {
              logs.add(Files.copy(p, to.resolve(p.getFileName())));
            }
          }
        }
      }
      return new VariantRun(logs.isEmpty() ? "no recorded logs" : null, logs, v.ranks());
    }

    @Override
    public void stop() {}
  }
}
