package io.topolens.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.topolens.experiment.Experiment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A real results.json with some variants' fields changed, for the cases the recorded runs do not
 * hold (a variant that measured no step, one the model could not take).
 */
final class EditedResults {
  private EditedResults() {}

  /**
   * Writes {@code from/results.json} into {@code to} with {@code edits} applied and reads it back.
   *
   * @param edits {@code VARIANT:FIELD=VALUE} separated by spaces (a variant name without a colon);
   *     {@code *} for every variant, {@code null} for JSON's null, {@code %20} for a space
   */
  static Experiment read(Path from, String edits, Path to) throws Exception {
    ObjectMapper json = new ObjectMapper();
    ObjectNode root = (ObjectNode) json.readTree(from.resolve(Experiment.FILE).toFile());
    for (String edit : edits.isBlank() ? new String[0] : edits.strip().split(" +")) {
      int colon = edit.indexOf(':');
      int eq = edit.indexOf('=', colon);
      String variant = edit.substring(0, colon);
      String field = edit.substring(colon + 1, eq);
      String value = edit.substring(eq + 1).replace("%20", " ");
      boolean found = false;
      for (var v : root.withArray("variants")) {
        if (variant.equals("*") || v.get("name").asText().equals(variant)) {
          ((ObjectNode) v).put(field, value.equals("null") ? null : value);
          found = true;
        }
      }
      if (!found) {
        throw new IllegalArgumentException("no variant " + variant + " in " + from);
      }
    }
    Files.createDirectories(to);
    json.writeValue(to.resolve(Experiment.FILE).toFile(), root);
    return Experiment.read(to);
  }
}
