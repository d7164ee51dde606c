package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.List;
import java.util.Set;

/** A rule that reports the WARN lines of some kinds as one finding. */
abstract class WarningRule implements Rule {
  private final Set<NcclWarning.Kind> kinds;
  private final Severity severity;

  WarningRule(Severity severity, NcclWarning.Kind... kinds) {
    this.kinds = Set.of(kinds);
    this.severity = severity;
  }

  abstract String title();

  abstract String explanation();

  abstract String fix();

  /**
   * A form of the kind with a cause of its own: lines whose lower-cased text holds {@code words}
   * add {@code detail} to the explanation and take {@code fix} instead of {@link #fix()}.
   */
  record Form(
      List<String> words,
      java.util.function.Predicate<NcclWarning> read,
      String detail,
      String fix) {
    Form(String words, String detail, String fix) {
      this(List.of(words), detail, fix);
    }

    Form(List<String> words, String detail, String fix) {
      this(words, null, detail, fix);
    }

    /**
     * A form told by what the reader read from the line ({@link NcclWarning#detail()}), not by its
     * words.
     */
    Form(java.util.function.Predicate<NcclWarning> read, String detail, String fix) {
      this(List.of(), read, detail, fix);
    }

    /** Whether the line is of this form: its detail as read, or any of the words in it. */
    boolean saidBy(NcclWarning w) {
      if (read != null) {
        return read.test(w);
      }
      String m = w.message().toLowerCase(java.util.Locale.ROOT);
      return words.stream().anyMatch(m::contains);
    }
  }

  /** The forms of this kind that have their own cause; none by default. */
  List<Form> forms() {
    return List.of();
  }

  private String detail(List<NcclWarning> hits) {
    StringBuilder b = new StringBuilder();
    for (Form f : forms()) {
      if (hits.stream().anyMatch(f::saidBy)) {
        b.append(' ').append(f.detail());
      }
    }
    return b.toString();
  }

  /** The fix for these lines: each form's own fix, and {@link #fix()} for lines of no form. */
  String fix(List<NcclWarning> hits) {
    List<String> fixes = new java.util.ArrayList<>();
    for (Form f : forms()) {
      if (hits.stream().anyMatch(f::saidBy)) {
        fixes.add(f.fix());
      }
    }
    if (hits.stream().anyMatch(w -> forms().stream().noneMatch(f -> f.saidBy(w)))) {
      fixes.add(fix());
    }
    return String.join(" ", fixes);
  }

  /** The title for these lines: {@link #title()} unless a form of the kind needs its own. */
  String title(List<NcclWarning> hits) {
    return title();
  }

  /**
   * The explanation of these lines: {@link #explanation()} unless a form of the kind needs its own.
   */
  String explanation(List<NcclWarning> hits) {
    return explanation();
  }

  /** The severity of these lines: the rule's, unless the job shows they did no harm. */
  Severity severity(Job job, List<NcclWarning> hits) {
    return severity;
  }

  /** What the rest of the log adds to these lines (a version it printed), with its lines. */
  record Context(String text, List<io.topolens.model.Evidence> evidence) {}

  /** The log's context for these lines, or null; none by default. */
  Context context(Job job, List<NcclWarning> hits) {
    return null;
  }

  /** Whether another rule explains this line better (it is then left to that rule). */
  boolean elsewhere(Job job, NcclWarning w) {
    return false;
  }

  @Override
  public List<Finding> check(Job job) {
    List<NcclWarning> hits =
        job.warnings().stream()
            .filter(w -> kinds.contains(w.kind()) && w.evidence() != null && !elsewhere(job, w))
            .toList();
    if (hits.isEmpty()) {
      return List.of();
    }
    long lines = hits.stream().mapToLong(NcclWarning::count).sum();
    long processes = hits.stream().mapToLong(NcclWarning::processes).max().orElse(0);
    Context context = context(job, hits);
    List<io.topolens.model.Evidence> evidence =
        new java.util.ArrayList<>(hits.stream().map(NcclWarning::evidence).toList());
    if (context != null) {
      context.evidence().stream().filter(e -> !evidence.contains(e)).forEach(evidence::add);
    }
    return List.of(
        new Finding(
            id(),
            severity(job, hits),
            title(hits),
            lines
                + " line(s) of "
                + hits.size()
                + " distinct form(s), from up to "
                + processes
                + " process(es). "
                + explanation(hits)
                + detail(hits)
                + (context == null ? "" : " " + context.text()),
            evidence,
            fix(hits)));
  }
}
