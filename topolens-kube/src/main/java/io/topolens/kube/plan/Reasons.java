package io.topolens.kube.plan;

import io.topolens.kube.yaml.YamlList;
import io.topolens.kube.yaml.YamlMap;
import io.topolens.kube.yaml.YamlNode;
import io.topolens.kube.yaml.YamlScalar;
import java.util.ArrayList;
import java.util.List;

/**
 * Every reason a plan carries as a YAML comment, with the path of the field it stands above, so
 * that {@code --explain} lists them all and not only the sizing choices.
 */
public final class Reasons {
  private Reasons() {}

  /** One commented field: its path in its document ("TrainJob spec.trainer.numNodes") and why. */
  public record Reason(String path, String value, String why) {}

  public static List<Reason> of(Plan plan) {
    List<Reason> out = new ArrayList<>();
    for (YamlMap doc : plan.documents()) {
      String kind =
          doc.get("kind").filter(n -> n instanceof YamlScalar).map(Reasons::text).orElse("?");
      walk(doc, kind + " ", out);
    }
    return out;
  }

  private static void walk(YamlNode node, String path, List<Reason> out) {
    switch (node) {
      case YamlMap m -> {
        for (YamlMap.Entry e : m.entries()) {
          String p = path.endsWith(" ") ? path + e.key() : path + "." + e.key();
          if (e.comment() != null) {
            out.add(
                new Reason(
                    p, e.value() instanceof YamlScalar ? text(e.value()) : null, e.comment()));
          }
          walk(e.value(), p, out);
        }
      }
      case YamlList l -> {
        int i = 0;
        for (YamlList.Item it : l.items()) {
          String p = path + "[" + i++ + "]";
          if (it.comment() != null) {
            out.add(
                new Reason(
                    p, it.value() instanceof YamlScalar ? text(it.value()) : null, it.comment()));
          }
          walk(it.value(), p, out);
        }
      }
      case YamlScalar s -> {}
    }
  }

  private static String text(YamlNode n) {
    return n.toJson().asText();
  }
}
