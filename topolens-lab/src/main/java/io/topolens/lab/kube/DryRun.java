package io.topolens.lab.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.topolens.diagnose.Finding;
import io.topolens.lab.experiment.ExperimentSpec;
import io.topolens.lab.experiment.Variant;
import io.topolens.lab.probe.ProbeScript;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code topolens experiment --dry-run}: every variant's manifests as they would be applied,
 * written to {@code DIR/variants/NAME/PHASE/manifests.yaml} and printed with lint's verdict; the
 * probe's text is left out of the printed ConfigMap (the files hold it). Nothing reaches a cluster.
 */
public final class DryRun {
  private DryRun() {}

  /**
   * @return 0 when every variant's jobs could be applied, 1 when lint stops one or a variant cannot
   *     be planned
   */
  public static int print(
      ExperimentSpec spec, VariantManifests manifests, Path out, PrintWriter stdout)
      throws IOException {
    List<Variant> variants = spec.variants();
    int code = 0;
    for (int i = 0; i < variants.size(); i++) {
      Variant v = variants.get(i);
      String tag = "# [" + (i + 1) + "/" + variants.size() + "] variant " + v.name();
      Optional<String> cannot = manifests.cannot(v);
      if (cannot.isPresent()) {
        stdout.println(tag + ": skipped: " + cannot.get());
        code = 1;
        continue;
      }
      for (Phase p : manifests.phases()) {
        VariantJob job;
        try {
          job = manifests.job(v, p);
        } catch (InputProblem e) {
          stdout.println(tag + " (" + p.label() + "): " + e.getMessage());
          code = 1;
          continue;
        }
        Path dir = out.resolve("variants").resolve(v.dirName()).resolve(p.label());
        Files.createDirectories(dir);
        Path file = dir.resolve("manifests.yaml");
        Files.writeString(file, job.yaml(), StandardCharsets.UTF_8);
        stdout.println(tag + " (" + p.label() + "), " + v.ranks() + " ranks: " + file);
        stdout.println(lintLine(job));
        stdout.print(printed(job));
        stdout.println("---");
        if (!job.blocking().isEmpty()) {
          code = 1;
        }
      }
    }
    stdout.flush();
    return code;
  }

  private static String lintLine(VariantJob job) {
    if (job.findings().isEmpty()) {
      return "# lint: no findings";
    }
    List<String> ids = new ArrayList<>();
    for (Finding f : job.findings()) {
      boolean askedFor =
          f.severity() == io.topolens.diagnose.Severity.ERROR && !job.blocking().contains(f);
      ids.add(
          f.severity().label() + " " + f.id() + (askedFor ? " (asked for by the variant)" : ""));
    }
    return "# lint: "
        + String.join(", ", ids)
        + (job.blocking().isEmpty() ? "" : "; NOT APPLIED: an error the variant did not ask for");
  }

  /** The manifests with the probe's text replaced by a line saying where it is. */
  static String printed(VariantJob job) {
    List<JsonNode> docs = new ArrayList<>();
    String first = job.yaml().lines().findFirst().orElse("");
    for (var d : job.documents()) {
      JsonNode n = d.root().deepCopy();
      if (n.path("kind").asText().equals("ConfigMap")
          && n.path("data").has(ProbeScript.FILE_NAME)) {
        long lines = n.path("data").path(ProbeScript.FILE_NAME).asText().lines().count();
        ((ObjectNode) n.path("data"))
            .put(ProbeScript.FILE_NAME, "(probe.py, " + lines + " lines, in manifests.yaml)");
      }
      docs.add(n);
    }
    return first + "\n" + VariantManifests.yaml(docs);
  }
}
