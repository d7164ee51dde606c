package io.topolens.perf;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.topolens.inputs.JsonMessages;
import io.topolens.inputs.YamlLineLimit;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Configurations from a YAML (or JSON) file: either one configuration's keys at the top, or {@code
 * defaults:} (applied to every run) and {@code runs:} (a list). Keys are {@link RunConfig}'s field
 * names; an unknown key is an error naming its line.
 */
public final class ScenarioFile {
  static final ObjectMapper MAPPER =
      new ObjectMapper(new YAMLFactory())
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
          .configure(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY, false);

  private static final Set<String> TOP = Set.of("defaults", "runs", "about");

  private ScenarioFile() {}

  /** The runs of the file, each with the defaults under it, named when the file names none. */
  public static List<RunConfig> read(Path file) throws InputProblem {
    JsonNode root;
    try {
      byte[] bytes = Files.readAllBytes(file);
      YamlLineLimit.check(file.toString(), new String(bytes, StandardCharsets.ISO_8859_1));
      root = MAPPER.readTree(bytes);
    } catch (NoSuchFileException e) {
      throw new InputProblem(file + ": no such file");
    } catch (JsonProcessingException e) {
      throw new InputProblem(
          file + where(e.getLocation()) + ": not YAML: " + JsonMessages.plain(e));
    } catch (IOException e) {
      throw new InputProblem(file + ": cannot read: " + e.getMessage());
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      throw new InputProblem(file + ": empty configuration file");
    }
    if (!root.isObject()) {
      throw new InputProblem(file + ": expected keys (a mapping) at the top");
    }
    if (!root.has("runs")) {
      return List.of(convert(root, file, "the file"));
    }
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!TOP.contains(key)) {
        throw new InputProblem(
            file + ": unknown top-level key \"" + key + "\" beside runs (defaults, runs, about)");
      }
    }
    if (root.has("defaults") && !root.get("defaults").isObject()) {
      // "defaults:" with nothing under it reads as null, which converts to no configuration at all
      throw new InputProblem(file + lineOf(file, "defaults") + ": defaults is not a mapping");
    }
    RunConfig defaults =
        root.has("defaults") ? convert(root.get("defaults"), file, "defaults") : RunConfig.empty();
    JsonNode runs = root.get("runs");
    if (!runs.isArray() || runs.isEmpty()) {
      throw new InputProblem(file + ": runs must be a non-empty list");
    }
    List<RunConfig> out = new ArrayList<>();
    int i = 0;
    for (JsonNode run : runs) {
      i++;
      if (!run.isObject()) {
        throw new InputProblem(file + ": run " + i + " is not a mapping");
      }
      RunConfig r = defaults.merge(convert(run, file, "run " + i));
      out.add(r);
    }
    return out;
  }

  private static RunConfig convert(JsonNode node, Path file, String what) throws InputProblem {
    if (node instanceof ObjectNode o && o.has("about")) {
      o = o.deepCopy();
      o.remove("about");
      node = o;
    }
    try {
      return MAPPER.treeToValue(node, RunConfig.class);
    } catch (UnrecognizedPropertyException e) {
      throw new InputProblem(
          file
              + lineOf(file, e.getPropertyName())
              + ": "
              + what
              + ": "
              + firstLine(e.getOriginalMessage())
              + " (keys: "
              + String.join(", ", KEYS)
              + ")");
    } catch (JsonProcessingException e) {
      throw new InputProblem(
          file + where(e.getLocation()) + ": " + what + ": " + JsonMessages.plain(e));
    }
  }

  /** The keys a configuration may have. */
  static final List<String> KEYS =
      java.util.Arrays.stream(RunConfig.class.getRecordComponents())
          .map(java.lang.reflect.RecordComponent::getName)
          .toList();

  /** {@code :N} for the first line that sets {@code key}, or empty. */
  private static String lineOf(Path file, String key) {
    java.util.regex.Pattern p =
        java.util.regex.Pattern.compile(
            "(^|[\\s{,-])" + java.util.regex.Pattern.quote(key) + "\\s*:");
    try {
      List<String> lines = Files.readAllLines(file, java.nio.charset.StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        if (p.matcher(lines.get(i)).find()) {
          return ":" + (i + 1);
        }
      }
    } catch (IOException | RuntimeException e) {
      return "";
    }
    return "";
  }

  private static String where(JsonLocation at) {
    return at == null || at.getLineNr() < 1 ? "" : ":" + at.getLineNr();
  }

  static String firstLine(String message) {
    if (message == null) {
      return "invalid value";
    }
    String m = message.split("\n")[0];
    return m.replaceAll(" \\(class [^)]*\\)", "").replaceAll(", not marked as ignorable.*", "");
  }
}
