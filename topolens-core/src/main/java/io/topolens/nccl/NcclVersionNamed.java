package io.topolens.nccl;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NCCL's release as a line other than NCCL's own names it: a package list ({@code
 * nvidia-nccl-cu12==2.18.1}, {@code nvidia-nccl-cu12 2.18.1 pypi_0 pypi}, {@code libnccl2
 * 2.18.1-1+cuda12.1}, {@code nccl 2.18.1.1 h6103f9b_0}), a library path ({@code libnccl.so.2.18.1},
 * {@code nccl_2.18.1-1+cuda12.1_x86_64}), vLLM's {@code vLLM is using nccl==2.18.1}, torch's {@code
 * torch.cuda.nccl.version()} ({@code (2, 18, 1)}, or {@code 2708} before torch 1.10) and the
 * header's {@code NCCL_VERSION_CODE 21801}. Only lines that hold the word nccl in some case reach
 * it (the line filter's needles).
 */
final class NcclVersionNamed {
  private NcclVersionNamed() {}

  private static final String RELEASE = "(2\\.\\d{1,2}\\.\\d{1,2})";

  /** The forms, each with the release as its first group. */
  private static final List<Pattern> FORMS =
      List.of(
          // requirement pins and vLLM's "nccl==2.18.1"; pip's list "nvidia-nccl-cu12 2.18.1"
          Pattern.compile("nccl(?:-cu\\d+)?\\s*==\\s*" + RELEASE + "(?![\\d])"),
          Pattern.compile("nvidia-nccl-cu\\d+\\s+" + RELEASE + "(?![\\d])"),
          // conda's list: "nccl   2.18.1.1   h6103f9b_0   conda-forge" (a build string after it,
          // so prose that names "NCCL 2.18.5" is not one)
          Pattern.compile(
              "^\\s*(?:\\[conda\\]\\s+)?nccl\\s+" + RELEASE + "(?:\\.\\d+)?\\s+\\S*_\\d+\\b"),
          // a library file, a package file or directory: libnccl.so.2.18.1, nccl_2.18.1-1+cuda12.1,
          // nccl-2.18.1, libnccl2=2.18.1-1+cuda12.1, libnccl2 2.18.1-1+cuda12.1
          Pattern.compile(
              "(?:libnccl\\.so\\.|nccl[_-]|libnccl2?[=\\s]\\s*)" + RELEASE + "(?![\\d])"));

  /** torch's tuple on a line that names NCCL: {@code torch.cuda.nccl.version(): (2, 18, 1)}. */
  private static final Pattern TUPLE =
      Pattern.compile("\\(\\s*2\\s*,\\s*(\\d{1,2})\\s*,\\s*(\\d{1,2})\\s*\\)");

  /**
   * The header's version code ({@code NCCL_VERSION_CODE 21801}) or torch's integer before 1.10
   * ({@code torch.cuda.nccl.version(): 2708}).
   */
  private static final Pattern CODE =
      Pattern.compile("(?:nccl_version(?:_code)?|nccl\\.version\\(\\))\\W{0,4}(\\d{4,5})\\b");

  /** The release the line names ({@code 2.18.1}), or null. */
  static String parse(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (!lower.contains("nccl")) {
      return null;
    }
    for (Pattern p : FORMS) {
      Matcher m = p.matcher(lower);
      if (m.find()) {
        return m.group(1);
      }
    }
    Matcher tuple = TUPLE.matcher(lower);
    if (tuple.find()) {
      return "2." + Integer.parseInt(tuple.group(1)) + "." + Integer.parseInt(tuple.group(2));
    }
    Matcher code = CODE.matcher(lower);
    if (code.find()) {
      return fromCode(Integer.parseInt(code.group(1)));
    }
    return null;
  }

  /**
   * NCCL's version code as a release: major * 10000 + minor * 100 + patch from 2.9 on (21801 is
   * 2.18.1), major * 1000 + minor * 100 + patch before (2708 is 2.7.8); null for other numbers.
   */
  static String fromCode(int code) {
    if (code >= 20900 && code < 30000) {
      return "2." + (code % 10000) / 100 + "." + code % 100;
    }
    if (code >= 2000 && code < 2900) {
      return "2." + (code % 1000) / 100 + "." + code % 100;
    }
    return null;
  }
}
