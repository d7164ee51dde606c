package io.topolens.perf;

import java.util.Locale;

/** Training precision of parameters (and of gradient reduction). */
public enum Precision {
  BF16(2),
  FP32(4);

  private final int bytes;

  Precision(int bytes) {
    this.bytes = bytes;
  }

  public int bytes() {
    return bytes;
  }

  public static Precision parse(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "bf16", "bfloat16", "fp16", "16" -> BF16;
      case "fp32", "float32", "32", "tf32" -> FP32;
      default ->
          throw new IllegalArgumentException("unknown precision \"" + text + "\" (bf16 or fp32)");
    };
  }
}
