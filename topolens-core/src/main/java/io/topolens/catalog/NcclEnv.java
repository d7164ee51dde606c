package io.topolens.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

  private record File(String about, List<EnvVariable> variables) {}

  private static NcclEnv load() {
    try (InputStream in = NcclEnv.class.getResourceAsStream("nccl-env.json")) {
      if (in == null) {
        throw new IllegalStateException("nccl-env.json missing from the jar");
      }
      File f = new ObjectMapper().readValue(in, File.class);
      Map<String, EnvVariable> map = new LinkedHashMap<>();
      f.variables().forEach(v -> map.put(v.name(), v));
      return new NcclEnv(map);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
