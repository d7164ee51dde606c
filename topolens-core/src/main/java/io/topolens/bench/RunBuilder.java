package io.topolens.bench;

import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One run as its lines arrive (text or JSON), then {@link #finish}: which collective, how many
 * ranks, and how far it got, each with its evidence.
 */
final class RunBuilder {

  enum Phase {
    PREAMBLE,
    TABLE,
    SUMMARY,
    CLOSED
  }

  final String file;
  final Evidence start;
  Phase phase = Phase.PREAMBLE;

  String testsVersion;
  Integer ncclHeaders;
  Integer ncclLibrary;
  Integer ncclFromLog;

  /** From {@code Collective test starting/concluded}, or the JSON's args. */
  Collective named;

  Evidence namedFrom;

  /** From a command line seen before the run. */
  Collective commanded;

  Evidence commandedFrom;
  boolean versionSeen;
  boolean paramsSeen;
  final Map<String, String> params = new LinkedHashMap<>();
  final List<BenchDevice> devices = new ArrayList<>();
  boolean devicesElided;

  /** JSON lists one device per process; each process drives nThread x nGpus ranks. */
  boolean devicesPerProcess;

  TableLayout layout = TableLayout.DEFAULT;
  boolean headerSeen;
  String envelope = "";
  final List<BenchRow> rows = new ArrayList<>();
  boolean rowsElided;

  Double avgBusBw;
  String outOfBounds;
  Evidence outOfBoundsAt;
  Evidence summary;

  Evidence error;
  Evidence partialRow;
  Evidence warnAfterLastRow;
  Evidence stoppedInside;
  Evidence concluded;

  RunBuilder(String file, Evidence start) {
    this.file = file;
    this.start = start;
  }

  /**
   * Whether the run printed anything of its own; a run that failed right after {@code # Using
   * devices} (before any rank line) is kept, with its error line as its end.
   */
  boolean hasContent() {
    return versionSeen
        || named != null
        || paramsSeen
        || !devices.isEmpty()
        || headerSeen
        || !rows.isEmpty()
        || summary != null
        || error != null;
  }

  void addRow(BenchRow row) {
    rows.add(row);
    partialRow = null;
    warnAfterLastRow = null;
  }

  BenchRun finish(String nameHint) {
    Evidence collectiveFrom;
    Collective collective;
    Set<Collective> table =
        rows.isEmpty() ? EnumSet.allOf(Collective.class) : CollectiveInference.fromTable(rows);
    if (named != null) {
      collective = named;
      collectiveFrom = namedFrom;
    } else if (commanded != null) {
      collective = commanded;
      collectiveFrom = commandedFrom;
    } else {
      Set<Collective> byName = CollectiveInference.fromName(nameHint);
      Set<Collective> both = EnumSet.noneOf(Collective.class);
      both.addAll(table);
      both.retainAll(byName);
      Evidence at = rows.isEmpty() ? start : rows.getFirst().evidence();
      if (table.size() == 1) {
        collective = table.iterator().next();
        collectiveFrom =
            new Evidence(file, at.line(), "collective inferred from the table: " + names(table));
      } else if (both.size() == 1) {
        collective = both.iterator().next();
        collectiveFrom =
            new Evidence(
                file,
                0,
                "collective from the file name "
                    + nameHint
                    + (rows.isEmpty() ? "" : "; the table fits " + names(table)));
      } else {
        collective = null;
        collectiveFrom =
            new Evidence(
                file,
                at.line(),
                table.isEmpty()
                    ? "collective unknown: the table fits none"
                    : rows.isEmpty()
                        ? "collective unknown: no name and no rows"
                        : "collective unknown: the table fits " + names(table));
      }
    }
    Integer nccl =
        ncclLibrary != null ? ncclLibrary : ncclHeaders != null ? ncclHeaders : ncclFromLog;
    Ranks ranks = ranks(collective, table);
    Completion completion;
    Evidence end;
    if (avgBusBw != null) {
      completion = Completion.COMPLETE;
      end = concluded != null ? concluded : summary;
    } else if (error != null) {
      completion = Completion.ABORTED;
      end = error;
    } else if (partialRow != null) {
      completion = Completion.ABORTED;
      end =
          new Evidence(file, partialRow.line(), "output stops inside a row: " + partialRow.text());
    } else if (stoppedInside != null) {
      completion = Completion.ABORTED;
      end = stoppedInside;
    } else if (!rows.isEmpty()) {
      BenchRow last = rows.getLast();
      SizeSweep sweep = SizeSweep.of(params);
      long next = sweep == null ? -1 : sweep.nextAfter(last.bytes());
      if (next > 0) {
        completion = Completion.ABORTED;
        end =
            warnAfterLastRow != null
                ? warnAfterLastRow
                : new Evidence(
                    file,
                    last.evidence().line(),
                    "output stops after the "
                        + last.bytes()
                        + " B row; sizes up to "
                        + sweep.max()
                        + " B were due (next "
                        + next
                        + " B)");
      } else {
        completion = Completion.NO_SUMMARY;
        end = summary != null ? summary : last.evidence();
      }
    } else {
      completion = Completion.ABORTED;
      Evidence at = summary != null ? summary : start;
      end =
          new Evidence(
              file,
              at.line(),
              headerSeen ? BenchRun.STOPPED_AFTER_HEADER : "output stops before the results table");
    }
    return new BenchRun(
        file,
        collective,
        testsVersion,
        nccl,
        params,
        devices,
        ranks.n,
        ranks.inferred,
        rows,
        avgBusBw,
        outOfBounds,
        completion,
        start,
        collectiveFrom,
        ranks.from,
        end,
        outOfBoundsAt);
  }

  private record Ranks(int n, boolean inferred, Evidence from) {}

  private Ranks ranks(Collective collective, Set<Collective> candidates) {
    RankInference table =
        collective != null ? RankInference.of(collective, rows) : agreed(candidates);
    Evidence tableAt = rows.isEmpty() ? start : rows.getFirst().evidence();
    if (devices.isEmpty()) {
      if (table == null) {
        return new Ranks(
            0,
            false,
            new Evidence(
                file,
                start.line(),
                "nranks unknown: no rank lines"
                    + (collective == null ? " and no collective" : " and the table cannot tell")));
      }
      return fromTable(table.choose(1), table, tableAt, "");
    }
    BenchDevice first = devices.getFirst();
    Evidence devAt = first.evidence();
    if (devicesPerProcess) {
      int threads = intParam("nThread");
      int gpus = intParam("nGpus");
      int n = devices.size() * threads * gpus;
      if (table == null || (n >= table.low() && n <= table.high())) {
        return new Ranks(
            n,
            false,
            new Evidence(
                file,
                devAt.line(),
                devices.size()
                    + " device entries (one per process) x nThread "
                    + threads
                    + " x nGpus "
                    + gpus
                    + " = "
                    + n
                    + " ranks"));
      }
      return fromTable(table.choose(1), table, tableAt, " (the device list gives " + n + ")");
    }
    Set<Integer> seen = new HashSet<>();
    int max = -1;
    for (BenchDevice d : devices) {
      seen.add(d.rank());
      max = Math.max(max, d.rank());
    }
    boolean complete = !devicesElided && seen.size() == devices.size() && max + 1 == devices.size();
    Set<Integer> groups =
        devices.stream().map(BenchDevice::group).filter(g -> g != null).collect(Collectors.toSet());
    if (complete) {
      int n = devices.size();
      String how = n + " rank lines";
      if (groups.size() > 1) {
        Integer g0 = first.group();
        n = (int) devices.stream().filter(d -> g0.equals(d.group())).count();
        how = n + " of " + devices.size() + " rank lines in group " + g0 + " (NCCL_TESTS_SPLIT)";
      }
      if (table == null || (n >= table.low() && n <= table.high())) {
        return new Ranks(n, false, new Evidence(file, devAt.line(), how));
      }
      return fromTable(table.choose(1), table, tableAt, "; it contradicts the " + how);
    }
    int atLeast = max + 1;
    String partial =
        devicesElided
            ? "the rank lines are elided after rank " + max
            : "the rank lines are partial (last rank " + max + ")";
    if (table != null) {
      int n = table.choose(atLeast);
      if (n > 0) {
        return fromTable(n, table, tableAt, "; " + partial);
      }
    }
    return new Ranks(
        atLeast,
        true,
        new Evidence(file, devAt.line(), "nranks inferred: at least " + atLeast + ", " + partial));
  }

  /** {@code n} ranks as the table reads them, {@code note} after the basis, at the table. */
  private Ranks fromTable(int n, RankInference table, Evidence tableAt, String note) {
    return new Ranks(
        n, true, new Evidence(file, tableAt.line(), "nranks inferred: " + table.basis() + note));
  }

  /** The exact rank count every candidate collective's table reading gives, or null. */
  private RankInference agreed(Set<Collective> candidates) {
    RankInference common = null;
    if (rows.isEmpty() || candidates.isEmpty()) {
      return null;
    }
    for (Collective c : candidates) {
      RankInference r = RankInference.of(c, rows);
      if (r == null || r.low() != r.high() || (common != null && common.low() != r.low())) {
        return null;
      }
      common = r;
    }
    return common;
  }

  private int intParam(String name) {
    try {
      return Math.max(1, Integer.parseInt(params.getOrDefault(name, "1")));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private static String names(Set<Collective> set) {
    return set.stream().map(Collective::testName).collect(Collectors.joining(", "));
  }
}
