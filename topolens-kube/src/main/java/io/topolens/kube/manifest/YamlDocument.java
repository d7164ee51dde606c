package io.topolens.kube.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import io.topolens.model.Evidence;
import java.util.List;
import java.util.Map;

/**
 * One YAML document of a manifest file, as a Jackson tree, with the line of every key and list item
 * so that whatever is read from it can carry its evidence.
 *
 * @param file the file name as the user gave it
 * @param index 0-based position of the document in the file
 * @param root the document's tree
 * @param lines 1-based line of each JSON pointer ({@code /spec/trainer/numNodes})
 * @param text the file's lines, for evidence text
 */
public record YamlDocument(
    String file, int index, JsonNode root, Map<String, Integer> lines, List<String> text) {

  public YamlDocument {
    lines = Map.copyOf(lines);
    text = List.copyOf(text);
  }

  /** The line of {@code pointer}, or of its nearest ancestor that has one. */
  public int line(String pointer) {
    String p = pointer;
    while (true) {
      Integer l = lines.get(p);
      if (l != null) {
        return l;
      }
      if (p.isEmpty()) {
        return 1;
      }
      p = p.substring(0, p.lastIndexOf('/'));
    }
  }

  /** Evidence for the line of {@code pointer}. */
  public Evidence at(String pointer) {
    return lineEvidence(line(pointer));
  }

  /** Evidence for a 1-based line of the file. */
  public Evidence lineEvidence(int line) {
    String t = line >= 1 && line <= text.size() ? text.get(line - 1).strip() : "";
    return new Evidence(file, line, t);
  }

  /**
   * The first line at or after {@code pointer}'s line that contains {@code needle}, for facts read
   * from inside a multi-line string (a flag in a bash script); the pointer's own line if none does.
   */
  public Evidence find(String pointer, String needle) {
    return find(line(pointer), needle);
  }

  /** The first line at or after {@code from} that contains {@code needle} as a word. */
  public Evidence find(int from, String needle) {
    java.util.regex.Pattern word =
        java.util.regex.Pattern.compile(
            "(?<![\\w])" + java.util.regex.Pattern.quote(needle) + "(?![\\w])");
    for (int i = from; i <= text.size(); i++) {
      if (word.matcher(text.get(i - 1)).find()) {
        return lineEvidence(i);
      }
    }
    return lineEvidence(from);
  }

  /** The node at {@code pointer}, or a missing node. */
  public JsonNode get(String pointer) {
    return root.at(pointer);
  }

  /** A pointer one level below {@code parent}: the key escaped as RFC 6901 says. */
  public static String child(String parent, String key) {
    return parent + "/" + key.replace("~", "~0").replace("/", "~1");
  }

  /** A pointer to item {@code i} of the list at {@code parent}. */
  public static String item(String parent, int i) {
    return parent + "/" + i;
  }
}
