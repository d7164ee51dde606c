package io.topolens.kube.plan;

import io.topolens.kube.yaml.YamlMap;
import io.topolens.kube.yaml.YamlWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The manifests a plan writes, in apply order, with every choice and its reason, and the warnings
 * about what the asked-for layout costs.
 *
 * @param summary one line: what runs where
 * @param jobKind the kind of the job document ({@code TrainJob}, ...); the others support it
 */
public record Plan(
    String summary,
    String name,
    String jobKind,
    List<YamlMap> documents,
    List<Choice> choices,
    List<String> warnings) {

  public Plan {
    documents = List.copyOf(documents);
    choices = List.copyOf(choices);
    warnings = List.copyOf(warnings);
  }

  /** The manifests as one YAML stream, the summary and warnings as comments on top. */
  public String yaml() {
    YamlWriter w = new YamlWriter();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < documents.size(); i++) {
      List<String> header = new ArrayList<>();
      if (i == 0) {
        header.add("Written by topolens plan: " + summary);
        for (String warning : warnings) {
          header.add("WARNING: " + warning);
        }
      }
      if (i > 0) {
        sb.append("---\n");
      }
      sb.append(w.write(documents.get(i), header));
    }
    return sb.toString();
  }
}
