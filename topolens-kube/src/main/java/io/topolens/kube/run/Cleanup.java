package io.topolens.kube.run;

import java.util.Locale;

/** What to do with the job when the run stops early: keep it running, or delete it. */
public enum Cleanup {
  KEEP,
  DELETE;

  public static Cleanup parse(String s) {
    return switch (s.strip().toLowerCase(Locale.ROOT)) {
      case "keep" -> KEEP;
      case "delete" -> DELETE;
      default -> throw new IllegalArgumentException("must be keep or delete, not \"" + s + "\"");
    };
  }
}
