package io.topolens.fuzz;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command lines a mutant is given to, by what its seed is. Companion inputs (a topology beside
 * a catalog, the seeds' YAML beside an experiment) are the repository's own, relative to its root.
 */
final class Targets {
  private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"]+)\"");

  private Targets() {}

  /** The first instance type the seed catalog defines, so predict uses the entry under test. */
  private static String instanceType(String catalog) {
    Matcher m = TYPE.matcher(catalog);
    return m.find() ? m.group(1) : "p4d.24xlarge";
  }

  static List<List<String>> of(Mutant m, Path file, Path dir, Random random) {
    String f = file.toString();
    String html = dir.resolve("out.html").toString();
    String md = dir.resolve("out.md").toString();
    List<List<String>> cmds = new ArrayList<>();
    switch (m.seed().kind()) {
      case INPUT -> {
        cmds.add(
            random.nextBoolean()
                ? List.of("diagnose", f)
                : List.of("diagnose", "--format", "json", "-v", f));
        if (file.getParent().getFileName().toString().equals("job")) {
          cmds.add(List.of("diagnose", file.getParent().toString()));
        }
        switch (random.nextInt(6)) {
          case 0 -> cmds.add(List.of("diagnose", "-")); // the mutant on standard input
          case 1 -> cmds.add(List.of("diagnose", "--node-map", f, "examples/eks-efa-fallback"));
          case 2 -> cmds.add(List.of("diagnose", "--format", "json", "--fold-channels", f));
          default -> {}
        }
        cmds.add(List.of("topo", f));
        cmds.add(
            random.nextBoolean() ? List.of("bench", f) : List.of("bench", "--format", "json", f));
        if (random.nextInt(4) == 0) {
          cmds.add(List.of("report", f, "-o", html));
        }
        String text = new String(m.seed().bytes(), StandardCharsets.ISO_8859_1);
        if (text.contains("busbw") && random.nextInt(3) == 0) {
          cmds.add(
              List.of(
                  "predict",
                  "--catalog",
                  "examples/perf/h200x4-catalog.json",
                  "--instance",
                  "h200x4-vm",
                  "--model",
                  "llama-3-8b",
                  "--calibrate",
                  f));
        }
        if (text.contains("fwd_microstep") || text.contains("wall_clock")) {
          cmds.add(
              List.of(
                  "predict",
                  "--instance",
                  "p4d.24xlarge",
                  "--model",
                  "llama-3-8b",
                  "--zero",
                  "3",
                  "--deepspeed-timers",
                  f));
        }
      }
      case PERF_CONFIG -> {
        cmds.add(List.of("predict", "--config", f));
        cmds.add(List.of("compare", "--config", f));
        if (random.nextInt(4) == 0) {
          cmds.add(List.of("report", "--config", f, "-o", html));
        }
      }
      case MANIFEST -> {
        cmds.add(List.of("lint", f));
        if (random.nextBoolean()) {
          cmds.add(List.of("lint", "--format", "sarif", f));
        }
      }
      case CATALOG -> {
        cmds.add(List.of("topo", "--catalog", f, "examples/h200-bench/smi.txt"));
        cmds.add(
            List.of(
                "predict",
                "--catalog",
                f,
                "--instance",
                instanceType(new String(m.bytes(), StandardCharsets.ISO_8859_1)),
                "--model",
                "llama-3-8b"));
      }
      case EXPERIMENT_RESULTS -> {
        cmds.add(List.of("report", dir.toString(), "-o", html));
        cmds.add(
            List.of(
                "validate-model",
                "--experiment",
                f,
                "--experiment-config",
                "examples/perf/h100x2-experiment-runs.yaml",
                "--out",
                md));
      }
      case STEP_MEASUREMENTS -> cmds.add(List.of("validate-model", f, "--out", md));
    }
    return cmds;
  }
}
