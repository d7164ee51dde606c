package io.topolens.diagnose;

import io.topolens.model.Evidence;
import java.util.List;

/**
 * What a rule found.
 *
 * @param id stable kebab-case id (docs/findings.md)
 * @param severity error, warn or info
 * @param title one line
 * @param explanation why it matters, in plain words, with the numbers and their sources
 * @param evidence the lines that show it
 * @param fix what to change: env var, pod spec field, host setting
 */
public record Finding(
    String id,
    Severity severity,
    String title,
    String explanation,
    List<Evidence> evidence,
    String fix) {

  /** Evidence lists are cut to this many lines; the explanation says how many there were. */
  public static final int MAX_EVIDENCE = 8;

  public Finding {
    evidence =
        evidence.size() > MAX_EVIDENCE
            ? List.copyOf(evidence.subList(0, MAX_EVIDENCE))
            : List.copyOf(evidence);
  }
}
