package io.topolens.kube.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A mapping whose keys keep their order, each entry with an optional comment. */
public final class YamlMap implements YamlNode {

  /** One key, its value and the comment written above it (null for none). */
  public record Entry(String key, YamlNode value, String comment) {}

  private final List<Entry> entries = new ArrayList<>();

  /** Adds {@code key: value}; a key given twice replaces the first. */
  public YamlMap put(String key, Object value) {
    return put(key, value, null);
  }

  /** Adds {@code key: value} with a comment line (wrapped) above it. */
  public YamlMap put(String key, Object value, String comment) {
    Entry e = new Entry(key, YamlNode.of(value), comment);
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).key().equals(key)) {
        entries.set(i, e);
        return this;
      }
    }
    entries.add(e);
    return this;
  }

  public List<Entry> entries() {
    return List.copyOf(entries);
  }

  public Optional<YamlNode> get(String key) {
    return entries.stream().filter(e -> e.key().equals(key)).map(Entry::value).findFirst();
  }

  /** The mapping under {@code key}, created empty when absent. */
  public YamlMap map(String key) {
    Optional<YamlNode> n = get(key);
    if (n.isPresent() && n.get() instanceof YamlMap m) {
      return m;
    }
    YamlMap m = new YamlMap();
    put(key, m);
    return m;
  }

  public boolean isEmpty() {
    return entries.isEmpty();
  }

  @Override
  public JsonNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    for (Entry e : entries) {
      o.set(e.key(), e.value().toJson());
    }
    return o;
  }
}
