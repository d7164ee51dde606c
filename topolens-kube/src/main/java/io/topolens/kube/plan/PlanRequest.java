package io.topolens.kube.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.topolens.kube.model.OffloadMode;
import io.topolens.kube.model.Quantity;
import io.topolens.kube.model.TrainerRelease;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A plan request as the user wrote it, every field optional: from command-line options or from a
 * YAML spec file with the same names ({@code instance: p4d.24xlarge}, {@code nodes: 4}, {@code
 * gpusPerPod: all}, ...). Options override the file; {@link #toSpec()} checks and converts.
 */
public record PlanRequest(
    String instance,
    Integer nodes,
    String gpusPerPod,
    String network,
    String kind,
    String workload,
    String image,
    String command,
    String name,
    String namespace,
    String runtime,
    String trainerVersion,
    String zone,
    Boolean sameZone,
    Map<String, String> nodeLabels,
    List<String> tolerations,
    String shm,
    String offload,
    String params,
    Integer podsPerNode) {

  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

  /** Reads a spec file. */
  public static PlanRequest read(Path file) throws InputProblem {
    try {
      PlanRequest r = YAML.readValue(Files.readString(file), PlanRequest.class);
      if (r == null) {
        throw new InputProblem(file + ": empty plan spec");
      }
      return r;
    } catch (NoSuchFileException e) {
      throw new InputProblem(file + ": no such file");
    } catch (UnrecognizedPropertyException e) {
      throw new InputProblem(
          file
              + ":"
              + keyLine(file, e.getPropertyName(), e.getLocation().getLineNr())
              + ": unknown key "
              + e.getPropertyName()
              + " (plan specs take instance, nodes, gpusPerPod, network, kind, workload, image, command, name, namespace, runtime, trainerVersion, zone, sameZone, nodeLabels, tolerations, shm, offload, params, podsPerNode)");
    } catch (com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
      // a value of the wrong shape: name the key and what it should be, not Jackson's types
      String key =
          e.getPath().isEmpty() ? null : e.getPath().get(e.getPath().size() - 1).getFieldName();
      String want =
          e.getTargetType() == null
              ? "another kind of value"
              : Number.class.isAssignableFrom(e.getTargetType())
                      || e.getTargetType() == int.class
                      || e.getTargetType() == long.class
                  ? "a number"
                  : e.getTargetType() == Boolean.class || e.getTargetType() == boolean.class
                      ? "true or false"
                      : java.util.List.class.isAssignableFrom(e.getTargetType())
                          ? "a list"
                          : "a single value";
      String where = e.getLocation() == null ? "" : ":" + e.getLocation().getLineNr();
      throw new InputProblem(
          file + where + ": " + (key == null ? "a value" : key) + " must be " + want);
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : ":" + e.getLocation().getLineNr();
      throw new InputProblem(
          file
              + where
              + ": not a plan spec: "
              + e.getOriginalMessage().lines().findFirst().orElse(""));
    } catch (IOException e) {
      throw new InputProblem(file + ": cannot read: " + e.getMessage());
    }
  }

  /** The line where {@code key:} is written; Jackson reports the token after it. */
  private static int keyLine(Path file, String key, int fallback) {
    try {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).matches("\\s*" + java.util.regex.Pattern.quote(key) + "\\s*:.*")) {
          return i + 1;
        }
      }
    } catch (IOException e) {
      // the reported line will do
    }
    return fallback;
  }

  /** This request with {@code over}'s non-null fields replacing its own. */
  public PlanRequest overriddenBy(PlanRequest over) {
    Map<String, String> labels = new LinkedHashMap<>(nodeLabels == null ? Map.of() : nodeLabels);
    if (over.nodeLabels != null) {
      labels.putAll(over.nodeLabels);
    }
    return new PlanRequest(
        or(over.instance, instance),
        or(over.nodes, nodes),
        or(over.gpusPerPod, gpusPerPod),
        or(over.network, network),
        or(over.kind, kind),
        or(over.workload, workload),
        or(over.image, image),
        or(over.command, command),
        or(over.name, name),
        or(over.namespace, namespace),
        or(over.runtime, runtime),
        or(over.trainerVersion, trainerVersion),
        or(over.zone, zone),
        or(over.sameZone, sameZone),
        labels,
        over.tolerations != null && !over.tolerations.isEmpty() ? over.tolerations : tolerations,
        or(over.shm, shm),
        or(over.offload, offload),
        or(over.params, params),
        or(over.podsPerNode, podsPerNode));
  }

  private static <T> T or(T a, T b) {
    return a != null ? a : b;
  }

  /** The checked spec; a missing or malformed value is an {@link InputProblem}. */
  public PlanSpec toSpec() throws InputProblem {
    if (instance == null) {
      throw new InputProblem("plan needs --instance TYPE (or instance: in the spec file)");
    }
    if (nodes == null) {
      throw new InputProblem("plan needs --nodes N (or nodes: in the spec file)");
    }
    try {
      Integer gpp =
          gpusPerPod == null || gpusPerPod.equalsIgnoreCase("all")
              ? null
              : Integer.valueOf(gpusPerPod.strip());
      return new PlanSpec(
          instance,
          nodes,
          gpp,
          network == null ? null : PlanSpec.Network.parse(network),
          kind == null ? null : PlanSpec.JobKind.parse(kind),
          workload == null ? null : PlanSpec.Workload.parse(workload),
          image,
          command,
          name,
          namespace,
          runtime,
          trainerVersion == null ? null : TrainerRelease.parse(trainerVersion),
          zone,
          Boolean.TRUE.equals(sameZone),
          nodeLabels,
          tolerations,
          shm == null
              ? null
              : Quantity.parse(shm)
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              "shm must be a quantity such as 64Gi, not \"" + shm + "\"")),
          offload == null ? null : OffloadMode.parse(offload),
          params == null ? null : params(params),
          podsPerNode);
    } catch (NumberFormatException e) {
      throw new InputProblem("gpusPerPod must be all or a number, not \"" + gpusPerPod + "\"");
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      if (m != null && m.startsWith("No enum constant")) {
        String field =
            m.contains("Network")
                ? "network (efa or eni)"
                : m.contains("JobKind")
                    ? "kind (trainjob, pytorchjob or mpijob)"
                    : "workload (train or nccl-tests)";
        throw new InputProblem(
            "unknown "
                + field
                + ": "
                + m.substring(m.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT).replace('_', '-'));
      }
      throw new InputProblem(m);
    }
  }

  /** A parameter count: {@code 8e9}, {@code 8B}, {@code 1.5b}, {@code 125M}. */
  public static double params(String s) {
    var m =
        java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?(?:[eE]\\d+)?)\\s*([kKmMbBtT]?)")
            .matcher(s.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "params must be a count such as 8e9, 8B or 125M, not \"" + s + "\"");
    }
    double v = Double.parseDouble(m.group(1));
    return switch (m.group(2).toUpperCase(Locale.ROOT)) {
      case "K" -> v * 1e3;
      case "M" -> v * 1e6;
      case "B" -> v * 1e9;
      case "T" -> v * 1e12;
      default -> v;
    };
  }
}
