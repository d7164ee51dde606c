package io.topolens.bench;

import java.util.Locale;
import java.util.Map;

/** Bytes per element of the data types nccl-tests and rccl-tests print. */
final class DataTypes {
  private DataTypes() {}

  private static final Map<String, Integer> SIZES =
      Map.ofEntries(
          Map.entry("int8", 1),
          Map.entry("uint8", 1),
          Map.entry("char", 1),
          Map.entry("f8e4m3", 1),
          Map.entry("f8e5m2", 1),
          Map.entry("fp8_e4m3", 1),
          Map.entry("fp8_e5m2", 1),
          Map.entry("half", 2),
          Map.entry("float16", 2),
          Map.entry("bfloat16", 2),
          Map.entry("int32", 4),
          Map.entry("uint32", 4),
          Map.entry("int", 4),
          Map.entry("float", 4),
          Map.entry("float32", 4),
          Map.entry("int64", 8),
          Map.entry("uint64", 8),
          Map.entry("double", 8),
          Map.entry("float64", 8));

  /** Bytes per element, or 0 for a type this table does not know. */
  static int size(String type) {
    return type == null ? 0 : SIZES.getOrDefault(type.toLowerCase(Locale.ROOT), 0);
  }
}
