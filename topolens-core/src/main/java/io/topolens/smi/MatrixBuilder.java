package io.topolens.smi;

import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects the rows under one matrix header. A header with affinity columns or NIC columns is a
 * topology matrix; one with GPU columns only is told apart by its first row's cells ({@code NV18}
 * against {@code OK}).
 */
final class MatrixBuilder {
  enum Kind {
    TOPO,
    P2P,
    UNDECIDED
  }

  /** What one line was to this matrix: one of its rows, a malformed row, or not a row at all. */
  record Outcome(boolean row, String malformed) {
    static final Outcome NOT_A_ROW = new Outcome(false, null);
    static final Outcome ROW = new Outcome(true, null);

    static Outcome malformed(String why) {
      return new Outcome(true, why);
    }
  }

  private final String file;
  private final MatrixHeader header;
  private final Evidence headerEvidence;
  private Kind kind;
  private P2pMode mode = P2pMode.UNKNOWN;
  private Evidence modeEvidence;
  private final Map<String, Map<String, Link>> links = new LinkedHashMap<>();
  private final Map<String, Map<String, P2pStatus>> statuses = new LinkedHashMap<>();
  private final Map<String, GpuAffinity> affinity = new LinkedHashMap<>();
  private final Map<String, Evidence> rows = new LinkedHashMap<>();
  private final Map<String, String> nicLegend = new LinkedHashMap<>();
  private final List<String> printedRows = new ArrayList<>();

  MatrixBuilder(String file, MatrixHeader header, Evidence headerEvidence) {
    this.file = file;
    this.header = header;
    this.headerEvidence = headerEvidence;
    this.kind = header.isTopology() ? Kind.TOPO : Kind.UNDECIDED;
  }

  Kind kind() {
    return kind;
  }

  Evidence headerEvidence() {
    return headerEvidence;
  }

  void mode(P2pMode m, Evidence e) {
    this.mode = m;
    this.modeEvidence = e;
  }

  void nicLegend(String nic, String device) {
    nicLegend.put(nic, device);
  }

  Outcome accept(String line, Evidence ev) {
    String[] t = line.trim().split("\\s+");
    List<String> devices = header.devices();
    if (t.length == 0 || !devices.contains(t[0])) {
      return Outcome.NOT_A_ROW;
    }
    String label = t[0];
    if (printedRows.contains(label)) {
      return Outcome.malformed("row " + label + " printed twice");
    }
    printedRows.add(label);
    int n = devices.size();
    if (t.length - 1 < n) {
      return Outcome.malformed((t.length - 1) + " cells, " + n + " expected");
    }
    String[] cells = Arrays.copyOfRange(t, 1, n + 1);
    String[] extra = Arrays.copyOfRange(t, n + 1, t.length);
    if (kind == Kind.UNDECIDED) {
      boolean allLinks = Arrays.stream(cells).allMatch(c -> Link.parse(c) != null);
      boolean allStatuses = Arrays.stream(cells).allMatch(c -> P2pStatus.ofCode(c) != null);
      if (allStatuses) {
        kind = Kind.P2P;
      } else if (allLinks) {
        kind = Kind.TOPO;
      } else {
        return Outcome.malformed("cells are neither topology classes nor P2P statuses");
      }
    }
    int self = devices.indexOf(label);
    return kind == Kind.TOPO
        ? topoRow(label, self, cells, extra, ev)
        : p2pRow(label, self, cells, extra, ev);
  }

  private Outcome topoRow(String label, int self, String[] cells, String[] extra, Evidence ev) {
    boolean gpu = MatrixHeader.isGpu(label);
    int expected = gpu ? header.columns().size() : 0;
    if (extra.length != expected) {
      return Outcome.malformed(
          extra.length + " values after the " + cells.length + " cells, " + expected + " expected");
    }
    Map<String, Link> row = new LinkedHashMap<>();
    for (int j = 0; j < cells.length; j++) {
      Link l = Link.parse(cells[j]);
      if (l == null) {
        return Outcome.malformed("unknown cell '" + cells[j] + "'");
      }
      if ((j == self) != (l.kind() == LinkKind.SELF)) {
        return Outcome.malformed(j == self ? "diagonal cell is not X" : "X off the diagonal");
      }
      row.put(header.devices().get(j), l);
    }
    links.put(label, Collections.unmodifiableMap(row));
    rows.put(label, ev);
    if (gpu) {
      String cpu = null;
      String numa = null;
      String gpuNuma = null;
      for (int k = 0; k < extra.length; k++) {
        String v = extra[k].equals("N/A") ? null : extra[k];
        switch (header.columns().get(k)) {
          case TopoMatrix.CPU_AFFINITY -> cpu = v;
          case TopoMatrix.NUMA_AFFINITY -> numa = v;
          default -> gpuNuma = v;
        }
      }
      affinity.put(label, new GpuAffinity(label, cpu, CpuList.parse(cpu), numa, gpuNuma, ev));
    }
    return Outcome.ROW;
  }

  private Outcome p2pRow(String label, int self, String[] cells, String[] extra, Evidence ev) {
    if (extra.length != 0) {
      return Outcome.malformed(
          (cells.length + extra.length) + " cells, " + cells.length + " expected");
    }
    Map<String, P2pStatus> row = new LinkedHashMap<>();
    for (int j = 0; j < cells.length; j++) {
      P2pStatus s = P2pStatus.ofCode(cells[j]);
      if (s == null) {
        return Outcome.malformed("unknown cell '" + cells[j] + "'");
      }
      if ((j == self) != (s == P2pStatus.SELF)) {
        return Outcome.malformed(j == self ? "diagonal cell is not X" : "X off the diagonal");
      }
      row.put(header.devices().get(j), s);
    }
    statuses.put(label, Collections.unmodifiableMap(row));
    rows.put(label, ev);
    return Outcome.ROW;
  }

  private List<String> missing() {
    return header.devices().stream().filter(d -> !rows.containsKey(d)).toList();
  }

  TopoMatrix toTopo() {
    List<String> gpus = header.devices().stream().filter(MatrixHeader::isGpu).toList();
    List<String> nics = header.devices().stream().filter(d -> !MatrixHeader.isGpu(d)).toList();
    return new TopoMatrix(
        file,
        gpus,
        nics,
        Collections.unmodifiableMap(new LinkedHashMap<>(nicLegend)),
        Collections.unmodifiableMap(new LinkedHashMap<>(links)),
        header.columns(),
        Collections.unmodifiableMap(new LinkedHashMap<>(affinity)),
        missing(),
        headerEvidence,
        Collections.unmodifiableMap(new LinkedHashMap<>(rows)));
  }

  P2pMatrix toP2p() {
    return new P2pMatrix(
        file,
        mode,
        modeEvidence,
        header.devices(),
        Collections.unmodifiableMap(new LinkedHashMap<>(statuses)),
        missing(),
        headerEvidence,
        Collections.unmodifiableMap(new LinkedHashMap<>(rows)));
  }
}
