package io.topolens.lab.kube;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** Kubernetes names for an experiment's objects, made from its name, a variant's and a phase. */
final class Names {
  /**
   * Longest job name: the operators add {@code -node-0-0} or {@code -worker-12} and a random suffix
   * to make pod names and hostnames, which must stay within 63 characters.
   */
  static final int MAX_JOB = 40;

  private Names() {}

  /** {@code EXPERIMENT-VARIANT-PHASE} as a DNS label of at most {@link #MAX_JOB} characters. */
  static String job(String experiment, String variant, Phase phase) {
    String full = dns(experiment + "-" + variant);
    String suffix = "-" + phase.label();
    if (full.length() + suffix.length() <= MAX_JOB) {
      return full + suffix;
    }
    String hash = hash(experiment + "/" + variant).substring(0, 6);
    int keep = MAX_JOB - suffix.length() - hash.length() - 1;
    String head = full.substring(0, keep).replaceAll("-+$", "");
    return head + "-" + hash + suffix;
  }

  /** Lower-case letters, digits and single dashes, starting with a letter. */
  static String dns(String s) {
    String d =
        s.toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9]+", "-")
            .replaceAll("^-+|-+$", "")
            .replaceAll("-+", "-");
    if (d.isEmpty() || !Character.isLetter(d.charAt(0))) {
      d = "x-" + d;
    }
    return d.replaceAll("-+$", "");
  }

  /** A label value: at most 63 characters of letters, digits, '-', '_' and '.'. */
  static String label(String s) {
    String v = s.replaceAll("[^A-Za-z0-9._-]+", "_");
    if (v.length() > 63) {
      v = v.substring(0, 56) + "_" + hash(s).substring(0, 6);
    }
    return v.replaceAll("^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "");
  }

  private static String hash(String s) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
