package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclFailure;
import io.topolens.model.NcclWarning;
import io.topolens.model.PrintedVersion;
import io.topolens.model.Rank;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * {@code version-mismatch}: NCCL versions that do not agree: ranks that run different ones (or NCCL
 * said so at init), or a program built against newer NCCL headers than the libnccl it loaded
 * ({@code undefined symbol: ncclCommRegister}, {@code Invalid config blocking attribute value
 * -2147483648}).
 */
public final class VersionMismatch implements Rule {

  /**
   * NCCL functions frameworks call and the release that added each (NCCL's release notes and API
   * docs): an undefined one names the oldest library the program can run with.
   */
  private static final Map<String, String> SINCE =
      Map.ofEntries(
          Map.entry("ncclRedOpCreatePreMulSum", "2.11"),
          Map.entry("ncclGetLastError", "2.13"),
          Map.entry("ncclCommInitRankConfig", "2.14"),
          Map.entry("ncclCommFinalize", "2.14"),
          Map.entry("ncclCommSplit", "2.18"),
          Map.entry("ncclCommRegister", "2.19"),
          Map.entry("ncclCommDeregister", "2.19"),
          Map.entry("ncclMemAlloc", "2.19"),
          Map.entry("ncclCommWindowRegister", "2.27"));

  @Override
  public String id() {
    return "version-mismatch";
  }

  @Override
  public List<Finding> check(Job job) {
    List<NcclWarning> said =
        job.warnings().stream()
            .filter(w -> w.kind() == NcclWarning.Kind.VERSION && w.evidence() != null)
            .toList();
    List<NcclWarning> older = said.stream().filter(VersionMismatch::olderLibrary).toList();
    List<Finding> findings = new ArrayList<>();
    if (!older.isEmpty()) {
      findings.add(olderLibrary(job, older));
    }
    Finding between = betweenRanks(job, said.stream().filter(w -> !olderLibrary(w)).toList());
    if (between != null) {
      findings.add(between);
    }
    return findings;
  }

  private static boolean olderLibrary(NcclWarning w) {
    String m = w.message().toLowerCase(Locale.ROOT);
    return m.contains("undefined symbol: nccl") || m.contains("attribute value -2147483648");
  }

  /** The program was built against newer NCCL headers than the library it loaded. */
  private static Finding olderLibrary(Job job, List<NcclWarning> hits) {
    List<Evidence> evidence = new ArrayList<>();
    hits.forEach(w -> evidence.add(w.evidence()));
    StringBuilder text = new StringBuilder();
    text.append(hits.stream().mapToLong(NcclWarning::count).sum())
        .append(
            " line(s) say the program (a framework's library such as libtorch_cuda.so, nccl-tests) needs more"
                + " of NCCL than the libnccl it loaded has.");
    for (NcclWarning w : hits) {
      String symbol = symbol(w.message());
      if (symbol != null) {
        String since = SINCE.get(symbol);
        text.append(" The loader found no ")
            .append(symbol)
            .append(since == null ? "" : ", an NCCL function since " + since)
            .append(": the library is older than the headers the program was built with.");
      } else {
        text.append(
            " -2147483648 is NCCL_CONFIG_UNDEF_INT, the \"not set\" value newer headers'"
                + " NCCL_CONFIG_INITIALIZER put in the communicator's config; NCCL 2.14 takes any value"
                + " but 0 and 1 as invalid, later releases as \"use the default\": the library is older"
                + " than the headers the program was built with.");
      }
    }
    // the version the library reports (PyTorch's "NCCL error in: ..., NCCL version 2.14.3")
    String loaded = null;
    for (NcclFailure f : job.failures()) {
      if (f.ncclVersion() != null) {
        loaded = f.ncclVersion();
        evidence.add(f.evidence());
        break;
      }
    }
    List<PrintedVersion> printed = job.printed(PrintedVersion.Of.NCCL);
    if (loaded == null && !printed.isEmpty()) {
      loaded = String.join(", ", printed.stream().map(PrintedVersion::version).toList());
    }
    if (loaded != null) {
      text.append(" The library the process loaded reports NCCL ").append(loaded).append('.');
    }
    text.append(
        " The framework ships or names the NCCL it was built with (PyTorch's pip wheels depend on an"
            + " nvidia-nccl-cu* wheel); a second NCCL found first by the dynamic loader shadows it: a"
            + " system libnccl2 or a conda nccl package, another package's nvidia-nccl-cu11/cu12 wheel, a"
            + " directory in LD_LIBRARY_PATH or LD_PRELOAD.");
    return new Finding(
        "version-mismatch",
        Severity.ERROR,
        "The NCCL library is older than the program was built for",
        text.toString(),
        evidence,
        "See which libnccl the process loads: python -c 'import torch; print(torch.__version__,"
            + " torch.cuda.nccl.version())', ldd on the framework's library (ldd .../torch/lib/libtorch_cuda.so"
            + " | grep nccl), echo $LD_LIBRARY_PATH, pip list | grep -i nccl (two nvidia-nccl-cu* wheels),"
            + " conda list nccl; remove the stray NCCL or its directory from LD_LIBRARY_PATH/LD_PRELOAD so"
            + " the framework loads the one it was built with, or install the framework release built for"
            + " the NCCL you have.");
  }

  /** The NCCL function an {@code undefined symbol: ncclX} line names, or null. */
  private static String symbol(String message) {
    int at = message.indexOf("undefined symbol: ");
    if (at < 0) {
      return null;
    }
    int start = at + "undefined symbol: ".length();
    int end = start;
    while (end < message.length() && Character.isLetterOrDigit(message.charAt(end))) {
      end++;
    }
    return end > start ? message.substring(start, end) : null;
  }

  /** Ranks that print different NCCL versions, or NCCL's own mismatch report; null for none. */
  private static Finding betweenRanks(Job job, List<NcclWarning> said) {
    Map<String, List<Rank>> byVersion = new LinkedHashMap<>();
    for (Rank r : job.ranks()) {
      if (r.ncclVersion() != null) {
        byVersion.computeIfAbsent(r.ncclVersion(), k -> new ArrayList<>()).add(r);
      }
    }
    if (byVersion.size() < 2 && said.isEmpty()) {
      return null;
    }
    List<Evidence> evidence = new ArrayList<>();
    said.forEach(w -> evidence.add(w.evidence()));
    if (byVersion.size() >= 2) {
      // one line per version, so the report shows where each was printed
      for (List<Rank> rs : byVersion.values()) {
        rs.stream()
            .map(Rank::versionEvidence)
            .filter(Objects::nonNull)
            .findFirst()
            .ifPresent(evidence::add);
      }
    }
    StringBuilder text = new StringBuilder();
    if (byVersion.size() >= 2) {
      text.append("The ranks print ").append(byVersion.size()).append(" NCCL versions: ");
      List<String> parts = new ArrayList<>();
      for (Map.Entry<String, List<Rank>> e : byVersion.entrySet()) {
        parts.add(
            e.getKey()
                + " on "
                + e.getValue().size()
                + " GPU context(s), e.g. "
                + e.getValue().get(0).id());
      }
      text.append(String.join("; ", parts)).append(". ");
    }
    text.append(
        "NCCL requires the same version on every rank: its wire formats and protocols change between releases, so"
            + " mixed versions fail at init (\"Mismatched NCCL version detected\") or hang or corrupt data later.");
    return new Finding(
        "version-mismatch",
        Severity.ERROR,
        "Ranks run different NCCL versions",
        text.toString(),
        evidence,
        "Run every pod from the same image digest (pin the image by digest, not a moving tag) and check nothing"
            + " overrides libnccl (LD_LIBRARY_PATH, LD_PRELOAD, a pip nvidia-nccl wheel beside the system one);"
            + " python -c 'import torch; print(torch.cuda.nccl.version())' must agree on every node.");
  }
}
