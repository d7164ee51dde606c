package io.topolens.kube.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;

/** A string, number or boolean. */
public record YamlScalar(Object value) implements YamlNode {

  public YamlScalar {
    if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
      throw new IllegalArgumentException("not a YAML scalar: " + value);
    }
  }

  @Override
  public JsonNode toJson() {
    JsonNodeFactory f = JsonNodeFactory.instance;
    return switch (value) {
      case String s -> f.textNode(s);
      case Boolean b -> f.booleanNode(b);
      case Integer i -> f.numberNode(i);
      case Long l -> f.numberNode(l);
      case Number n -> f.numberNode(new BigDecimal(n.toString()));
      default -> throw new IllegalStateException();
    };
  }
}
