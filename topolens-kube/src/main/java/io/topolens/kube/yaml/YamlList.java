package io.topolens.kube.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;

/** A list, each item with an optional comment. */
public final class YamlList implements YamlNode {

  /** One item and the comment written above it (null for none). */
  public record Item(YamlNode value, String comment) {}

  private final List<Item> items = new ArrayList<>();

  /** A list of scalars or nodes. */
  public static YamlList of(Object... values) {
    YamlList l = new YamlList();
    for (Object v : values) {
      l.add(v);
    }
    return l;
  }

  public YamlList add(Object value) {
    return add(value, null);
  }

  public YamlList add(Object value, String comment) {
    items.add(new Item(YamlNode.of(value), comment));
    return this;
  }

  public List<Item> items() {
    return List.copyOf(items);
  }

  public boolean isEmpty() {
    return items.isEmpty();
  }

  @Override
  public JsonNode toJson() {
    ArrayNode a = JsonNodeFactory.instance.arrayNode();
    for (Item i : items) {
      a.add(i.value().toJson());
    }
    return a;
  }
}
