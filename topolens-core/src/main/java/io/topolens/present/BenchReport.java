package io.topolens.present;

import com.fasterxml.jackson.core.JsonGenerator;
import io.topolens.bench.BenchDevice;
import io.topolens.bench.BenchFile;
import io.topolens.bench.BenchResult;
import io.topolens.bench.BenchRow;
import io.topolens.bench.BenchRun;
import io.topolens.catalog.Source;
import io.topolens.model.Evidence;
import io.topolens.verdict.BenchVerdict;
import io.topolens.verdict.Numbers;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** Renders nccl-tests runs, their verdicts and a side-by-side comparison as text or JSON. */
public final class BenchReport {
  private final List<BenchFile> files;
  private final List<BenchVerdict> verdicts;
  private final BenchComparison comparison;

  public BenchReport(
      List<BenchFile> files, List<BenchVerdict> verdicts, BenchComparison comparison) {
    this.files = files;
    this.verdicts = verdicts;
    this.comparison = comparison;
  }

  // ------------------------------------------------------------------ text

  public void text(PrintWriter out, boolean rows) {
    for (BenchVerdict v : verdicts) {
      BenchRun run = v.run();
      out.println(header(run));
      if (rows && !run.rows().isEmpty()) {
        out.println(
            String.format(
                Locale.ROOT,
                "  %12s %12s %6s %6s  %10s %8s %8s %6s  %10s %8s %8s %6s",
                "size",
                "count",
                "type",
                "redop",
                "oop us",
                "algbw",
                "busbw",
                "wrong",
                "ip us",
                "algbw",
                "busbw",
                "wrong"));
        for (BenchRow r : run.rows()) {
          out.println(
              String.format(
                  Locale.ROOT,
                  "  %12s %12d %6s %6s  %s  %s",
                  Numbers.bytes(r.bytes()),
                  r.count(),
                  nz(r.type()),
                  nz(r.redop()),
                  result(r.outOfPlace()),
                  result(r.inPlace())));
        }
      }
      out.println("  stopped: " + completion(run));
      if (v.peak() != null) {
        out.println(
            "  peak: "
                + Numbers.gbps(v.peakBusBw())
                + " GB/s busbw at "
                + Numbers.bytes(v.peak().bytes())
                + " (out-of-place)"
                + (run.avgBusBw() == null
                    ? ""
                    : "; avg bus bandwidth " + run.avgBusBw() + " GB/s"));
      }
      out.println("  verdict [" + v.grade().label() + "]: " + v.sentence());
      if (v.expected() != null && !v.expected().sources().isEmpty()) {
        out.println(
            "  sources: "
                + String.join(", ", v.expected().sources().stream().map(Source::cite).toList()));
      }
      for (Evidence e : v.evidence()) {
        out.println("    " + e);
      }
      out.println();
    }
    if (comparison != null && !comparison.lines().isEmpty()) {
      textComparison(out);
    }
    for (BenchFile f : files) {
      if (f.unrecognized() > 0 || f.malformedRows() > 0) {
        out.println(
            f.file()
                + ": "
                + f.unrecognized()
                + " unrecognized line(s), "
                + f.malformedRows()
                + " malformed row(s)"
                + (f.malformedSamples().isEmpty() ? "" : ", e.g. " + f.malformedSamples().get(0)));
      }
    }
    out.flush();
  }

  private void textComparison(PrintWriter out) {
    List<BenchRun> runs = comparison.runs();
    out.println("Side by side (out-of-place busbw GB/s; ratio to the first):");
    for (int i = 0; i < runs.size(); i++) {
      out.println("  [" + (char) ('A' + i) + "] " + runs.get(i).file() + " " + name(runs.get(i)));
    }
    StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "  %12s", "size"));
    for (int i = 0; i < runs.size(); i++) {
      h.append(String.format(Locale.ROOT, " %10s", "[" + (char) ('A' + i) + "]"));
    }
    for (int i = 1; i < runs.size(); i++) {
      h.append(String.format(Locale.ROOT, " %8s", (char) ('A' + i) + "/A"));
    }
    out.println(h);
    for (BenchComparison.Line l : comparison.lines()) {
      StringBuilder s =
          new StringBuilder(String.format(Locale.ROOT, "  %12s", Numbers.bytes(l.bytes())));
      for (double b : l.busBw()) {
        s.append(String.format(Locale.ROOT, " %10.2f", b));
      }
      for (int i = 1; i < l.ratio().size(); i++) {
        Double r = l.ratio().get(i);
        s.append(
            r == null
                ? String.format(Locale.ROOT, " %8s", "-")
                : String.format(Locale.ROOT, " %7.2fx", r));
      }
      out.println(s);
    }
    out.println();
  }

  private static String header(BenchRun run) {
    StringBuilder s = new StringBuilder(run.file()).append(": ").append(name(run));
    s.append(", ")
        .append(run.nranks())
        .append(run.nranksInferred() ? " ranks (inferred from busbw/algbw)" : " ranks");
    List<String> hosts =
        run.devices().stream().map(BenchDevice::host).filter(Objects::nonNull).distinct().toList();
    if (!hosts.isEmpty()) {
      s.append(" on ").append(hosts.size()).append(hosts.size() == 1 ? " host (" : " hosts (");
      s.append(String.join(", ", hosts.stream().limit(4).toList()));
      s.append(hosts.size() > 4 ? ", ...)" : ")");
    }
    run.devices().stream()
        .map(BenchDevice::name)
        .filter(Objects::nonNull)
        .findFirst()
        .ifPresent(n -> s.append(", ").append(n));
    if (run.testsVersion() != null) {
      s.append("; nccl-tests ").append(run.testsVersion());
    }
    if (run.ncclVersion() != null) {
      s.append(", NCCL ").append(run.ncclVersion());
    }
    return s.toString();
  }

  private static String name(BenchRun run) {
    return run.collective() == null ? "unknown collective" : run.collective().testName();
  }

  private static String completion(BenchRun run) {
    String c = run.completion().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    if (run.end() != null && !run.completion().name().equals("COMPLETE")) {
      return c + " at " + run.end();
    }
    return c;
  }

  private static String result(BenchResult r) {
    if (r == null) {
      return String.format(Locale.ROOT, "%10s %8s %8s %6s", "-", "-", "-", "-");
    }
    return String.format(
        Locale.ROOT, "%10.2f %8.2f %8.2f %6s", r.timeUs(), r.algBw(), r.busBw(), nz(r.wrong()));
  }

  private static String nz(String s) {
    return s == null ? "-" : s;
  }

  // ------------------------------------------------------------------ json

  public void json(PrintWriter out) {
    JsonFields.document(out, 1, this::json);
  }

  private void json(JsonGenerator g) throws IOException {
    g.writeArrayFieldStart("runs");
    for (BenchVerdict v : verdicts) {
      run(g, v);
    }
    g.writeEndArray();
    if (comparison != null) {
      g.writeObjectFieldStart("comparison");
      g.writeArrayFieldStart("files");
      for (BenchRun r : comparison.runs()) {
        g.writeString(r.file());
      }
      g.writeEndArray();
      g.writeArrayFieldStart("sizes");
      for (BenchComparison.Line l : comparison.lines()) {
        g.writeStartObject();
        g.writeNumberField("bytes", l.bytes());
        g.writeArrayFieldStart("busBw");
        for (double b : l.busBw()) {
          g.writeNumber(b);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("ratio");
        for (Double r : l.ratio()) {
          if (r == null) {
            g.writeNull();
          } else {
            g.writeNumber(Math.round(r * 10000) / 10000.0);
          }
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeArrayFieldStart("files");
    for (BenchFile f : files) {
      g.writeStartObject();
      g.writeStringField("file", f.file());
      g.writeNumberField("lines", f.lines());
      g.writeNumberField("ncclLines", f.ncclLines());
      g.writeNumberField("unrecognized", f.unrecognized());
      g.writeNumberField("malformedRows", f.malformedRows());
      JsonFields.evidenceArray(g, "samples", f.samples());
      JsonFields.evidenceArray(g, "malformedSamples", f.malformedSamples());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static void run(JsonGenerator g, BenchVerdict v) throws IOException {
    BenchRun run = v.run();
    g.writeStartObject();
    g.writeStringField("file", run.file());
    g.writeStringField("collective", run.collective() == null ? null : run.collective().testName());
    g.writeNumberField("nranks", run.nranks());
    g.writeBooleanField("nranksInferred", run.nranksInferred());
    g.writeStringField("testsVersion", run.testsVersion());
    JsonFields.numberOrNull(g, "ncclVersion", run.ncclVersion());
    g.writeStringField("completion", run.completion().name().toLowerCase(Locale.ROOT));
    g.writeArrayFieldStart("devices");
    for (BenchDevice d : run.devices()) {
      g.writeStartObject();
      g.writeNumberField("rank", d.rank());
      g.writeStringField("host", d.host());
      g.writeNumberField("device", d.device());
      g.writeStringField("busId", d.busId());
      g.writeStringField("name", d.name());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("rows");
    for (BenchRow r : run.rows()) {
      g.writeStartObject();
      g.writeNumberField("bytes", r.bytes());
      g.writeNumberField("count", r.count());
      g.writeStringField("type", r.type());
      g.writeStringField("redop", r.redop());
      JsonFields.numberOrNull(g, "root", r.root());
      result(g, "outOfPlace", r.outOfPlace());
      result(g, "inPlace", r.inPlace());
      g.writeNumberField("line", r.evidence().line());
      g.writeEndObject();
    }
    g.writeEndArray();
    JsonFields.numberOrNull(g, "avgBusBw", run.avgBusBw());
    g.writeObjectFieldStart("verdict");
    g.writeStringField("grade", v.grade().label());
    g.writeStringField("severity", v.grade().severity().label());
    if (v.peak() != null) {
      g.writeNumberField("peakBytes", v.peak().bytes());
      g.writeNumberField("peakBusBw", v.peakBusBw());
    }
    g.writeStringField("ranOn", v.ranOn() == null ? null : v.ranOn().path().catalogId());
    g.writeStringField("ranOnHow", v.ranOn() == null ? null : v.ranOn().how());
    g.writeStringField("offered", v.offered() == null ? null : v.offered().catalogId());
    if (v.expected() != null) {
      g.writeStringField("judgedOn", v.expected().path().catalogId());
      JsonFields.numberOrNull(g, "expectedGBps", v.expected().rateGBps());
      g.writeStringField("basis", v.expected().basis());
      g.writeArrayFieldStart("sources");
      for (Source s : v.expected().sources()) {
        g.writeStartObject();
        g.writeStringField("key", s.key());
        g.writeStringField("url", s.url());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    JsonFields.numberOrNull(
        g, "ratio", v.ratio() == null ? null : Math.round(v.ratio() * 10000) / 10000.0);
    g.writeStringField("sentence", v.sentence());
    JsonFields.evidenceArray(g, "evidence", v.evidence());
    g.writeEndObject();
    g.writeEndObject();
  }

  private static void result(JsonGenerator g, String name, BenchResult r) throws IOException {
    if (r == null) {
      g.writeNullField(name);
      return;
    }
    g.writeObjectFieldStart(name);
    g.writeNumberField("timeUs", r.timeUs());
    g.writeNumberField("algBw", r.algBw());
    g.writeNumberField("busBw", r.busBw());
    g.writeStringField("wrong", r.wrong());
    g.writeEndObject();
  }
}
