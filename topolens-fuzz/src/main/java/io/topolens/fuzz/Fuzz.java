package io.topolens.fuzz;

import io.topolens.nccl.LogInput;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The fuzzer's main: {@code Fuzz [--seed S] [--mutants N] [--minutes M] [--timeout-ms T] [--out
 * DIR] [--index I] [--baseline]}, run from the repository root (bench/fuzz.sh). Mutant {@code i} of
 * seed {@code S} is the same on every run, so {@code --seed S --index I} replays one and keeps it.
 */
public final class Fuzz {
  private final long seed;
  private final long timeoutMs;
  private final Path out;
  private final Corpus corpus;
  private final PrintStream log = System.out;
  private final PrintWriter tsv;
  private final Map<String, List<String>> byCause = new LinkedHashMap<>();
  private int stuck;
  private long runs;

  private Fuzz(long seed, long timeoutMs, Path out, Corpus corpus) throws IOException {
    this.seed = seed;
    this.timeoutMs = timeoutMs;
    this.out = out;
    this.corpus = corpus;
    Files.createDirectories(out.resolve("cases"));
    this.tsv =
        new PrintWriter(
            Files.newBufferedWriter(
                out.resolve("failures-" + seed + ".tsv"), StandardCharsets.UTF_8),
            true);
  }

  public static void main(String[] args) throws IOException {
    long seed = System.currentTimeMillis() % 1_000_000;
    long mutants = 1000;
    double minutes = 0;
    long timeoutMs = 30_000;
    long index = -1;
    boolean baseline = false;
    Path out = Path.of("target/fuzz");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--mutants" -> mutants = Long.parseLong(args[++i]);
        case "--minutes" -> minutes = Double.parseDouble(args[++i]);
        case "--timeout-ms" -> timeoutMs = Long.parseLong(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--index" -> index = Long.parseLong(args[++i]);
        case "--baseline" -> baseline = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    System.setProperty("topolens.debug", "true");
    Corpus corpus = Corpus.load(Path.of(""), Corpus.ROOTS);
    Fuzz f = new Fuzz(seed, timeoutMs, out, corpus);
    f.log.printf(
        "fuzz: seed %d, %d seed files, timeout %d ms%n", seed, corpus.seeds().size(), timeoutMs);
    if (index >= 0) {
      f.mutant(index, true);
    } else {
      if (baseline) {
        f.baseline();
      }
      long deadline = minutes > 0 ? System.nanoTime() + (long) (minutes * 60e9) : Long.MAX_VALUE;
      long i = 0;
      for (; i < mutants && System.nanoTime() < deadline && f.stuck < 3; i++) {
        try {
          f.mutant(i, false);
        } catch (OutOfMemoryError e) {
          f.log.printf("fuzz: mutant %d too large to make or run (%s); skipped%n", i, e);
        }
        if ((i + 1) % 100 == 0) {
          f.log.printf("fuzz: %d mutants, %d runs, %d cause(s)%n", i + 1, f.runs, f.byCause.size());
        }
      }
      f.log.printf("fuzz: seed %d: %d mutants, %d runs%n", seed, i, f.runs);
    }
    f.summary();
    System.exit(0);
  }

  /** Every seed as it is: a failure here is one without any mutation. */
  private void baseline() throws IOException {
    Random r = new Random(seed);
    for (Seed s : corpus.seeds()) {
      run(-1, new Mutant(s, s.bytes(), false, List.of("none")), r, false);
    }
  }

  private void mutant(long i, boolean keep) throws IOException {
    Random r = new Random(seed * 0x9E3779B97F4A7C15L + i);
    List<Seed> seeds = corpus.seeds();
    Seed s = seeds.get(r.nextInt(seeds.size()));
    Mutant m = new Mutations(r, seeds).mutate(s);
    run(i, m, r, keep);
  }

  private void run(long i, Mutant m, Random r, boolean keep) throws IOException {
    Path dir = out.resolve("work").resolve(String.valueOf(i)).toAbsolutePath();
    deleteTree(dir);
    Files.createDirectories(dir);
    if (m.seed().kind() == SeedKind.EXPERIMENT_RESULTS) {
      try (Stream<Path> sib = Files.list(m.seed().path().getParent())) {
        for (Path p : sib.filter(Files::isRegularFile).toList()) {
          if (!p.getFileName().toString().endsWith(".tar.gz")) {
            Files.copy(p, dir.resolve(p.getFileName()));
          }
        }
      }
    }
    Path file = dir.resolve(m.fileName());
    if (m.seed().kind() == SeedKind.INPUT && r.nextInt(4) == 0) {
      // the mutant among its folder's other inputs, read as one job (diagnose DIR)
      Path folder = dir.resolve("job");
      Files.createDirectories(folder);
      corpus.seeds().stream()
          .filter(s -> s.kind() == SeedKind.INPUT && s != m.seed())
          .filter(s -> s.path().getParent().equals(m.seed().path().getParent()))
          .limit(30)
          .forEach(s -> write(folder.resolve(s.path().getFileName()), s.bytes()));
      file = folder.resolve(m.fileName());
    }
    Files.write(file, m.bytes());
    boolean failed = false;
    for (List<String> args : Targets.of(m, file, dir, r)) {
      CliCall c = CliCall.run(args, m.bytes(), timeoutMs);
      runs++;
      Failure f = Failure.of(c, names(args));
      if (keep) {
        log.printf("%s -> exit %d in %d ms%n%s%n", args, c.code(), c.millis(), c.err());
      }
      if (f != null) {
        failed = true;
        record(i, m, c, f);
      }
      if (c.timedOut()) {
        stuck++;
      }
    }
    if (!failed && !keep) {
      deleteTree(dir);
    } else if (keep) {
      log.printf("kept %s (%s)%n", file, String.join("; ", m.steps()));
    }
  }

  private void record(long i, Mutant m, CliCall c, Failure f) throws IOException {
    List<String> seen = byCause.computeIfAbsent(f.cause(), k -> new ArrayList<>());
    String where = "seed " + seed + " index " + i;
    seen.add(where);
    String line =
        String.join(
            "\t",
            String.valueOf(seed),
            String.valueOf(i),
            m.seed().path().toString(),
            String.join("; ", m.steps()),
            String.join(" ", c.args()),
            f.symptom(),
            f.cause(),
            f.firstLine().replace('\t', ' '));
    tsv.println(line);
    if (seen.size() == 1) {
      log.printf(
          "fuzz: NEW %s: %s%n      %s, %s: %s [%s]%n",
          f.symptom(),
          f.cause(),
          where,
          m.seed().path(),
          String.join("; ", m.steps()),
          String.join(" ", c.args().subList(0, 1)));
    }
    if (seen.size() <= 3) {
      Path dst = out.resolve("cases").resolve(seed + "-" + i + "-" + m.fileName());
      Files.write(dst, m.bytes());
      if (f.symptom().equals("stack trace") || f.symptom().equals("uncaught")) {
        Files.writeString(dst.resolveSibling(dst.getFileName() + ".err"), c.err());
      }
    }
  }

  private void summary() throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("seed " + seed + ": " + runs + " runs, " + byCause.size() + " cause(s)");
    byCause.entrySet().stream()
        .sorted(Comparator.comparing(e -> -e.getValue().size()))
        .forEach(
            e ->
                lines.add(
                    String.format(
                        "%6d  %s  (first: %s)",
                        e.getValue().size(), e.getKey(), e.getValue().getFirst())));
    Files.write(out.resolve("summary-" + seed + ".txt"), lines, StandardCharsets.UTF_8);
    lines.forEach(log::println);
    tsv.close();
  }

  /** The names a message may use for this command's inputs: paths as given and their file names. */
  private static Set<String> names(List<String> args) {
    List<String> n = new ArrayList<>();
    for (String a : args) {
      if (a.equals("-")) {
        n.add(LogInput.STDIN);
        n.add(" in -"); // diagnose's "no files to read in -", as for a file
      }
      if (a.contains("/") || a.contains(".")) {
        n.add(a);
        Path p = Path.of(a).getFileName();
        if (p != null) {
          n.add(p.toString());
        }
      }
    }
    n.sort(Comparator.comparing(String::length).reversed());
    return new LinkedHashSet<>(n);
  }

  private static void write(Path p, byte[] bytes) {
    try {
      Files.write(p, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
