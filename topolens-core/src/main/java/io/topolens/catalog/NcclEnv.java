package io.topolens.catalog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The NCCL settings topolens explains ({@code nccl-env.json}), by name. */
public final class NcclEnv {
  private static final NcclEnv BUNDLED = load();

  private final Map<String, EnvVariable> byName;

  private NcclEnv(Map<String, EnvVariable> byName) {
    this.byName = byName;
  }

  public static NcclEnv bundled() {
    return BUNDLED;
  }

  public Optional<EnvVariable> get(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  public List<EnvVariable> all() {
    return List.copyOf(byName.values());
  }

  private static NcclEnv load() {
    Map<String, EnvVariable> map = new LinkedHashMap<>();
    for (Map<String, String> v :
        BundledList.read(
            NcclEnv.class,
            "nccl-env.json",
            "variables",
            Set.of("name", "severity", "effect", "fix"))) {
      map.put(
          v.get("name"),
          new EnvVariable(v.get("name"), v.get("severity"), v.get("effect"), v.get("fix")));
    }
    return new NcclEnv(map);
  }
}
