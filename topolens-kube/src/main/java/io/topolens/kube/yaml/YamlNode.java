package io.topolens.kube.yaml;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A YAML tree that topolens writes: mappings and lists whose entries may carry a comment (the
 * reason for a choice), and scalars. {@link YamlWriter} prints it; {@link #toJson()} gives the same
 * tree to validators.
 */
public sealed interface YamlNode permits YamlMap, YamlList, YamlScalar {

  /** The same tree without comments, as Jackson nodes. */
  JsonNode toJson();

  /** A scalar or an empty collection for {@code v}: nodes pass, other values become scalars. */
  static YamlNode of(Object v) {
    return v instanceof YamlNode n ? n : new YamlScalar(v);
  }
}
