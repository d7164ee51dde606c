package io.topolens.smi;

import io.topolens.model.Evidence;
import io.topolens.model.SampleCounter;
import io.topolens.nccl.InputProblem;
import io.topolens.nccl.LogInput;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a text file of nvidia-smi output: any mix of {@code topo -m} (and {@code -mp}) matrices,
 * {@code topo -p2p r|w|n|a|p} matrices, plain {@code nvidia-smi} tables, {@code nvidia-smi -L},
 * {@code nvlink -s} and {@code nvlink -c}, with shell prompts, markdown fences and indentation,
 * CRLF, tabs, ANSI escapes or {@code cat -A} notation around them. It records what was printed and
 * never judges; malformed matrix rows and unknown lines are counted with samples, never guessed.
 *
 * <p>Thread-safety: stateless; every call reads on its own.
 */
public final class NvidiaSmiReader {
  private static final Pattern P2P_MODE =
      Pattern.compile("(?:^|[\\s=])(?:-p2p|--p2pstatus|p2p)[\\s=]+([rwnapRWNAP])(?:\\s|$)");
  private static final Pattern TOPO_COMMAND = Pattern.compile("nvidia-smi\\s+topo\\s+-m");
  private static final Pattern BANNER =
      Pattern.compile(
          "NVIDIA-SMI\\s+(\\S+)\\s+(?:Driver|KMD) Version:\\s+(\\S+)"
              + "(?:\\s+CUDA(?: UMD)? Version:\\s+(\\S+))?");
  private static final Pattern TABLE_BORDER = Pattern.compile("\\+[-=+]+\\+");
  private static final Pattern TABLE_GPU =
      Pattern.compile(
          "\\|\\s+(\\d{1,4})\\s+(\\S.*?)\\s{2,}\\S+\\s+\\|\\s+"
              + "([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.[0-9A-Fa-f])\\s+\\S+\\s+\\|.*");
  private static final Pattern TIMESTAMP =
      Pattern.compile(
          "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
              + " +\\d{1,2} \\d{2}:\\d{2}:\\d{2} \\d{4}");

  /**
   * {@code GPU 0: NAME (UUID: GPU-...)}; pasted outputs often hide the UUID ({@code (UUID: ...)}).
   */
  private static final Pattern GPU_LINE =
      Pattern.compile("GPU (\\d{1,4}): (.+?) \\(UUID: ([^()]*)\\)(?:\\s+NVML: .*)?");

  private static final Pattern UUID = Pattern.compile("GPU-[0-9A-Fa-f-]+");
  private static final Pattern NVML_MESSAGE = Pattern.compile("NVML: .+");
  private static final Pattern MIG_LINE =
      Pattern.compile("MIG \\S+\\s+Device\\s+\\d+: \\(UUID: MIG-[^)]+\\)");
  private static final Pattern LINK_SPEED = Pattern.compile("Link (\\d{1,3}): (.+)");
  private static final Pattern SPEED = Pattern.compile("(\\d+(?:\\.\\d+)?) GB/s");
  private static final Pattern LINK_CAPABILITY =
      Pattern.compile("Link \\d{1,3}, [A-Za-z0-9 ]+: (?:true|false)");
  private static final Pattern LINK_REMOTE =
      Pattern.compile("Remote Device [0-9A-Fa-f:.]+: Link \\d+");
  private static final Pattern LEGEND_ENTRY = Pattern.compile("(\\S+)\\s*=\\s*(\\S.*)");
  private static final Pattern NIC_LEGEND_ENTRY = Pattern.compile("(NIC\\d{1,4})\\s*:\\s*(\\S.*)");

  /** Reads a file (plain or gzip). */
  public SmiReport read(Path file) throws InputProblem {
    return read(new LogInput(file.toString(), file));
  }

  /** Reads one input (a file, plain or gzip, or standard input). */
  public SmiReport read(LogInput input) throws InputProblem {
    try (InputStream in = input.open();
        BufferedReader r =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
      return read(input.name(), r);
    } catch (IOException e) {
      throw new InputProblem(input.name() + ": cannot read: " + e.getMessage());
    }
  }

  /** Reads text already in memory; {@code name} is the file name evidence carries. */
  public SmiReport read(String name, String text) {
    try {
      return read(name, new BufferedReader(new StringReader(text)));
    } catch (IOException e) {
      throw new IllegalStateException("reading a string failed", e);
    }
  }

  private SmiReport read(String name, BufferedReader r) throws IOException {
    Parser p = new Parser(name);
    String raw;
    while ((raw = r.readLine()) != null) {
      p.accept(raw);
    }
    return p.finish();
  }

  /**
   * True when the start of a file looks like nvidia-smi output: a {@code topo -m} or {@code -p2p}
   * header or legend, the {@code nvidia-smi} banner, or {@code -L}/{@code nvlink} GPU lines.
   */
  public static boolean looksLike(String firstKilobytes) {
    int signals = 0;
    for (String raw : firstKilobytes.split("\n")) {
      String line = SmiLine.clean(raw).trim();
      MatrixHeader h = MatrixHeader.parse(line);
      if (h != null && h.columns().contains(TopoMatrix.CPU_AFFINITY)) {
        return true;
      }
      // each expression is tried only on lines holding its literal: the same answers, without a
      // search at every place of the 64 KiB head of every log (start-up, docs/performance.md)
      if ((line.contains("NVIDIA-SMI") && BANNER.matcher(line).find())
          || line.startsWith("NV#  = Connection traversing")
          || line.startsWith("CNS  = Chipset not supported")
          || line.startsWith("SOC  = Connection traversing")) {
        return true;
      }
      if ((line.startsWith("GPU ") && GPU_LINE.matcher(line).matches())
          || (h != null && h.devices().size() > 1)
          || (line.startsWith("Link ") && nvlinkSpeedLine(line))) {
        signals++;
      }
    }
    return signals >= 2;
  }

  /** {@code Link N: 26.562 GB/s} or {@code Link N: <inactive>}, as {@code nvlink -s} prints. */
  private static boolean nvlinkSpeedLine(String line) {
    Matcher m = LINK_SPEED.matcher(line);
    if (!m.matches()) {
      return false;
    }
    String text = m.group(2).trim();
    return SPEED.matcher(text).matches() || text.equalsIgnoreCase("<inactive>");
  }

  /** The state of one pass over one file. */
  private static final class Parser {
    private enum Section {
      NONE,
      LEGEND,
      NIC_LEGEND,
      TABLE
    }

    private final String file;
    private long lineNo;
    private final List<MatrixBuilder> matrices = new ArrayList<>();
    private MatrixBuilder open;
    private MatrixBuilder lastTopo;
    private Section section = Section.NONE;
    private P2pMode pendingMode;
    private Evidence pendingModeEvidence;
    private final Map<Integer, SmiGpu> gpus = new TreeMap<>();
    private final List<NvlinkStatus> nvlinks = new ArrayList<>();
    private SmiGpu nvlinkGpu;
    private Evidence nvlinkGpuEvidence;
    private List<NvlinkSpeed> nvlinkLinks;
    private String driver;
    private String cuda;
    private Evidence banner;
    private final SampleCounter malformed = new SampleCounter();
    private final SampleCounter unrecognized = new SampleCounter();

    Parser(String file) {
      this.file = file;
    }

    void accept(String raw) {
      lineNo++;
      String line = SmiLine.clean(raw);
      String t = line.trim();
      Evidence ev = new Evidence(file, lineNo, line);
      if (open != null) {
        MatrixBuilder.Outcome o =
            MatrixHeader.parse(t) != null ? MatrixBuilder.Outcome.NOT_A_ROW : open.accept(t, ev);
        if (o.row()) {
          if (o.malformed() != null) {
            malformed.add(new Evidence(file, lineNo, line + "  [" + o.malformed() + "]"));
          }
          return;
        }
        closeMatrix();
      }
      if (!t.startsWith("Link ")) {
        endNvlinkBlock();
      }
      if (t.isEmpty()) {
        if (section == Section.TABLE) {
          section = Section.NONE;
        }
        return;
      }
      if (section == Section.TABLE) {
        if (t.startsWith("|") || t.startsWith("+")) {
          table(t, ev);
          return;
        }
        section = Section.NONE;
      }
      if (t.equals("Legend:")) {
        section = Section.LEGEND;
        return;
      }
      if (t.equals("NIC Legend:")) {
        section = Section.NIC_LEGEND;
        return;
      }
      if (section == Section.LEGEND && legendEntry(t)) {
        return;
      }
      if (section == Section.NIC_LEGEND && nicLegendEntry(t)) {
        return;
      }
      section = Section.NONE;
      MatrixHeader header = MatrixHeader.parse(t);
      if (header != null) {
        openMatrix(header, ev);
        return;
      }
      if (TABLE_BORDER.matcher(t).matches()) {
        section = Section.TABLE;
        return;
      }
      if (other(t, ev)) {
        return;
      }
      unrecognized.add(ev);
    }

    private void openMatrix(MatrixHeader header, Evidence ev) {
      open = new MatrixBuilder(file, header, ev);
      if (header.isTopology()) {
        lastTopo = open;
      } else if (pendingMode != null) {
        open.mode(pendingMode, pendingModeEvidence);
        pendingMode = null;
        pendingModeEvidence = null;
      }
    }

    private void closeMatrix() {
      switch (open.kind()) {
        case TOPO -> {
          lastTopo = open;
          matrices.add(open);
        }
        case P2P -> matrices.add(open);
        case UNDECIDED -> unrecognized.add(open.headerEvidence());
      }
      open = null;
    }

    private boolean legendEntry(String t) {
      Matcher m = LEGEND_ENTRY.matcher(t);
      if (!m.matches()) {
        return false;
      }
      String code = m.group(1);
      return code.equals("NV#")
          || LinkKind.ofLegendCode(code) != null
          || P2pStatus.ofCode(code) != null;
    }

    private boolean nicLegendEntry(String t) {
      Matcher m = NIC_LEGEND_ENTRY.matcher(t);
      if (!m.matches() || lastTopo == null) {
        return false;
      }
      lastTopo.nicLegend(m.group(1), m.group(2).trim());
      return true;
    }

    private void table(String t, Evidence ev) {
      Matcher b = BANNER.matcher(t);
      if (b.find() && banner == null) {
        driver = b.group(2);
        cuda = b.group(3);
        banner = ev;
      }
      Matcher g = TABLE_GPU.matcher(t);
      if (g.matches()) {
        int index = Integer.parseInt(g.group(1));
        SmiGpu known = gpus.get(index);
        String busId = g.group(3);
        if (known == null) {
          gpus.put(index, new SmiGpu(index, g.group(2).trim(), null, busId, ev));
        } else if (known.busId() == null) {
          gpus.put(index, new SmiGpu(index, known.name(), known.uuid(), busId, known.evidence()));
        }
      }
    }

    /** Lines outside matrices, legends and tables; true when recognised. */
    private boolean other(String t, Evidence ev) {
      Matcher mode = P2P_MODE.matcher(t);
      if (mode.find()) {
        pendingMode = P2pMode.ofLetter(mode.group(1).charAt(0));
        pendingModeEvidence = ev;
        return true;
      }
      if (t.contains("nvidia-smi")) {
        if (TOPO_COMMAND.matcher(t).find()) {
          pendingMode = null;
          pendingModeEvidence = null;
        }
        return true;
      }
      if (t.startsWith("```") || TIMESTAMP.matcher(t).matches()) {
        return true;
      }
      Matcher b = BANNER.matcher(t);
      if (b.find()) {
        if (banner == null) {
          driver = b.group(2);
          cuda = b.group(3);
          banner = ev;
        }
        return true;
      }
      Matcher g = GPU_LINE.matcher(t);
      if (g.matches()) {
        int index = Integer.parseInt(g.group(1));
        SmiGpu known = gpus.get(index);
        String busId = known == null ? null : known.busId();
        String uuid = UUID.matcher(g.group(3).trim()).matches() ? g.group(3).trim() : null;
        SmiGpu gpu = new SmiGpu(index, g.group(2).trim(), uuid, busId, ev);
        gpus.put(index, gpu);
        nvlinkGpu = gpu;
        nvlinkGpuEvidence = ev;
        return true;
      }
      if (MIG_LINE.matcher(t).matches() || NVML_MESSAGE.matcher(t).matches()) {
        return true;
      }
      if (nvlinkGpu != null && t.startsWith("Link ")) {
        return nvlinkLine(t, ev);
      }
      return false;
    }

    private boolean nvlinkLine(String t, Evidence ev) {
      if (LINK_CAPABILITY.matcher(t).matches()) {
        return true;
      }
      Matcher m = LINK_SPEED.matcher(t);
      if (!m.matches()) {
        return false;
      }
      String text = m.group(2).trim();
      if (LINK_REMOTE.matcher(text).matches()) {
        return true;
      }
      Matcher s = SPEED.matcher(text);
      Double gbps;
      if (s.matches()) {
        gbps = Double.parseDouble(s.group(1));
      } else if (text.equalsIgnoreCase("<inactive>")) {
        gbps = null;
      } else {
        return false;
      }
      if (nvlinkLinks == null) {
        nvlinkLinks = new ArrayList<>();
      }
      nvlinkLinks.add(new NvlinkSpeed(Integer.parseInt(m.group(1)), gbps, text, ev));
      return true;
    }

    private void endNvlinkBlock() {
      if (nvlinkGpu != null && nvlinkLinks != null) {
        nvlinks.add(
            new NvlinkStatus(
                nvlinkGpu.index(),
                nvlinkGpu.name(),
                nvlinkGpu.uuid(),
                List.copyOf(nvlinkLinks),
                nvlinkGpuEvidence));
      }
      nvlinkGpu = null;
      nvlinkLinks = null;
    }

    SmiReport finish() {
      if (open != null) {
        closeMatrix();
      }
      endNvlinkBlock();
      List<TopoMatrix> topo = new ArrayList<>();
      List<P2pMatrix> p2p = new ArrayList<>();
      for (MatrixBuilder b : matrices) {
        if (b.kind() == MatrixBuilder.Kind.TOPO) {
          topo.add(b.toTopo());
        } else {
          p2p.add(b.toP2p());
        }
      }
      return new SmiReport(
          file,
          lineNo,
          List.copyOf(topo),
          List.copyOf(p2p),
          List.copyOf(gpus.values()),
          List.copyOf(nvlinks),
          driver,
          cuda,
          banner,
          malformed.toSample(),
          unrecognized.toSample());
    }
  }
}
