package io.topolens.ncclxml;

import io.topolens.smi.CpuList;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The CPUs of a Linux {@code cpumap} mask as NCCL copies it into {@code affinity}: comma-separated
 * 32-bit hex words, most significant first ({@code 0000ffff,ffffffff} is CPUs 0-47). Hand-written
 * files sometimes hold a CPU list ({@code 0-63}) instead; that is read too.
 */
final class CpuMask {
  private static final Pattern MASK =
      Pattern.compile("(?:0x)?[0-9a-fA-F]{1,8}(?:,[0-9a-fA-F]{1,8})*");

  private CpuMask() {}

  static List<Integer> parse(String text) {
    if (text == null) {
      return null;
    }
    String t = text.trim();
    if (t.contains("-")) {
      return CpuList.parse(t);
    }
    if (!MASK.matcher(t).matches()) {
      return null;
    }
    String[] words = t.replaceFirst("^0x", "").split(",");
    List<Integer> cpus = new ArrayList<>();
    for (int w = words.length - 1, base = 0; w >= 0; w--, base += 32) {
      long bits = Long.parseLong(words[w], 16);
      for (int b = 0; b < 32; b++) {
        if ((bits & (1L << b)) != 0) {
          cpus.add(base + b);
        }
      }
    }
    return List.copyOf(cpus);
  }
}
