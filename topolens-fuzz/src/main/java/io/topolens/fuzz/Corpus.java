package io.topolens.fuzz;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The seeds: every real input under the given roots, in path order so that a seed number means the
 * same file on every run. Golden outputs, docs and scripts are left out.
 */
final class Corpus {
  /** The repository's inputs, relative to its root. */
  static final List<String> ROOTS =
      List.of(
          "examples",
          "topolens-core/src/test/resources",
          "topolens-report/src/test/resources",
          "bench/results");

  private static final long MAX_SEED_BYTES = 4 << 20;

  private final List<Seed> seeds;

  private Corpus(List<Seed> seeds) {
    this.seeds = List.copyOf(seeds);
  }

  List<Seed> seeds() {
    return seeds;
  }

  static Corpus load(Path repo, List<String> roots) {
    List<Seed> seeds = new ArrayList<>();
    for (String root : roots) {
      Path dir = repo.resolve(root);
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
          SeedKind kind = kind(f);
          if (kind != null && Files.size(f) <= MAX_SEED_BYTES) {
            seeds.add(new Seed(f, kind, bytes(f)));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new Corpus(seeds);
  }

  private static byte[] bytes(Path f) throws IOException {
    if (f.toString().endsWith(".gz")) {
      try (InputStream in = new GZIPInputStream(Files.newInputStream(f))) {
        return in.readAllBytes();
      }
    }
    return Files.readAllBytes(f);
  }

  /** What a file is, by its name and a glance at its content; null for what is not an input. */
  static SeedKind kind(Path f) throws IOException {
    String path = f.toString().replace('\\', '/');
    String name = f.getFileName().toString().toLowerCase(Locale.ROOT);
    if (path.contains("/golden/")
        || name.endsWith(".tar.gz")
        || name.endsWith(".md")
        || name.endsWith(".py")
        || name.endsWith(".sh")
        || name.endsWith(".c")
        || name.endsWith(".html")
        || name.endsWith(".png")
        || name.endsWith(".exit")) {
      return null;
    }
    String head = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
    if (name.endsWith(".yaml") || name.endsWith(".yml")) {
      if (head.contains("apiVersion:")) {
        return SeedKind.MANIFEST;
      }
      if (head.contains("\nwhere:") || head.contains("\nvariants:")) {
        return null; // an experiment spec: running it starts processes
      }
      return SeedKind.PERF_CONFIG;
    }
    if (name.equals("results.json")) {
      return SeedKind.EXPERIMENT_RESULTS;
    }
    if (name.endsWith(".json") && (path.contains("catalog") || head.contains("\"instances\""))) {
      return SeedKind.CATALOG;
    }
    if (path.contains("bench/results/") && (name.endsWith(".jsonl") || name.endsWith(".json"))) {
      return SeedKind.STEP_MEASUREMENTS;
    }
    return SeedKind.INPUT;
  }
}
