package io.topolens.bench;

import io.topolens.model.Evidence;
import io.topolens.model.SampleCounter;
import io.topolens.nccl.NcclLines;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads nccl-tests text output line by line into runs. Each launcher stream (srun rank label, Open
 * MPI tag) has its own current run; a run opens at its first preamble line, header or row, takes
 * the lines that belong to it, and closes at {@code Collective test concluded}, an error line, the
 * next run's first line, or the end of the input. Only the current runs are held, never the lines.
 */
final class TextReader {

  private static final Pattern NCCL_VERSION =
      Pattern.compile("NCCL version (\\d+)\\.(\\d+)\\.(\\d+)");
  private static final Pattern NCCL_TUNING_TABLE =
      Pattern.compile(
          "^(?:Function|Broadcast|Reduce|AllGather|ReduceScatter|AllReduce|SendRecv|AllToAll"
              + "|AlltoAll|Gather|Scatter)\\s*\\|.*");

  private final String file;
  private final Map<String, RunBuilder> current = new HashMap<>();
  private final List<RunBuilder> done = new ArrayList<>();
  private RunBuilder lastActive;
  private Integer lastNcclVersion;
  private Collective pendingCommand;
  private Evidence pendingCommandFrom;

  long ncclLines;

  /** nccl-tests' failure lines before any run started ({@code Test NCCL failure ...} alone). */
  long failuresBeforeRuns;

  final SampleCounter unrecognized = new SampleCounter();
  final SampleCounter malformed = new SampleCounter();

  TextReader(String file) {
    this.file = file;
  }

  void line(String raw, long number) {
    String text = raw;
    if (text.indexOf('\u001b') >= 0 || text.indexOf('\r') >= 0) {
      text = NcclLines.stripEscapes(text);
    }
    String level = NcclLines.level(text);
    if (level != null) {
      nccl(text, level, number);
      return;
    }
    LinePrefix p = LinePrefix.strip(text);
    String content = p.content();
    if (content.startsWith("NCCL version ") || NCCL_TUNING_TABLE.matcher(content).matches()) {
      nccl(content, "INFO", number);
      return;
    }
    RunBuilder run = current.get(p.stream());
    if (run != null && !run.envelope.isEmpty() && content.startsWith(run.envelope)) {
      content = content.substring(run.envelope.length()).strip();
    }
    TextLine t = TextLine.classify(content);
    Evidence ev = new Evidence(file, number, text.strip());
    switch (t.kind()) {
      case BLANK, SPACER, KNOWN -> {}
      case VERSION -> {
        if (run == null
            || run.phase != RunBuilder.Phase.PREAMBLE
            || run.versionSeen
            || run.named != null
            || run.paramsSeen
            || !run.devices.isEmpty()) {
          run = open(p.stream(), ev);
        }
        Matcher m = t.match();
        run.versionSeen = true;
        run.testsVersion = m.group(1);
        run.ncclHeaders = integer(m.group(2));
        run.ncclLibrary = integer(m.group(3));
      }
      case STARTING -> {
        if (run == null
            || run.phase != RunBuilder.Phase.PREAMBLE
            || run.named != null
            || run.paramsSeen
            || !run.devices.isEmpty()) {
          run = open(p.stream(), ev);
        }
        name(run, t.match().group(1), ev);
      }
      case PARAMS -> {
        if (run == null || run.phase != RunBuilder.Phase.PREAMBLE || run.paramsSeen) {
          run = open(p.stream(), ev);
        }
        run.paramsSeen = true;
        run.params.putAll(ParamLine.parse(t.body()));
      }
      case USING_DEVICES -> {
        if (run == null || run.phase != RunBuilder.Phase.PREAMBLE || !run.devices.isEmpty()) {
          open(p.stream(), ev);
        }
      }
      case RANK, OLD_RANK -> {
        BenchDevice device =
            t.kind() == TextLine.Kind.RANK ? device(t.match(), ev) : oldDevice(t.match(), ev);
        if (device == null) {
          malformed.add(ev);
        } else {
          if (run == null || run.phase != RunBuilder.Phase.PREAMBLE || run.devicesElided) {
            run = open(p.stream(), ev);
          }
          run.devices.add(device);
        }
      }
      case REDUCING -> {
        if (run == null || run.phase == RunBuilder.Phase.SUMMARY) {
          run = open(p.stream(), ev);
        }
        run.params.put("reducedMaxBytes", t.match().group(1));
      }
      case HEADER_GROUPS, HEADER_COLUMNS, HEADER_UNITS -> header(run, p.stream(), t, ev);
      case ROW -> row(run, p.stream(), t, ev);
      case ELISION -> {
        if (run != null && run.phase == RunBuilder.Phase.TABLE && !run.rows.isEmpty()) {
          run.rowsElided = true;
        } else if (run != null
            && run.phase == RunBuilder.Phase.PREAMBLE
            && !run.devices.isEmpty()) {
          run.devicesElided = true;
        }
      }
      case OUT_OF_BOUNDS, AVG_BUS_BW -> summary(run, p.stream(), t, ev);
      case CONCLUDED -> {
        if (run == null) {
          other(ev);
          return;
        }
        if (run.named == null) {
          name(run, t.match().group(1), ev);
        }
        run.concluded = ev;
        close(p.stream());
      }
      case ERROR -> {
        RunBuilder target = open(run) ? run : open(lastActive) ? lastActive : null;
        if (target == null) {
          // another rank's report of the failure that already ended a run, or one before any run
          if (done.isEmpty()) {
            failuresBeforeRuns++;
          }
          return;
        }
        target.error = ev;
        target.phase = RunBuilder.Phase.CLOSED;
        current.values().remove(target);
        done.add(target);
      }
      case COMMAND -> command(run, t, ev);
      case OTHER -> other(ev);
    }
  }

  private static boolean open(RunBuilder r) {
    return r != null && (r.phase == RunBuilder.Phase.PREAMBLE || r.phase == RunBuilder.Phase.TABLE);
  }

  private void nccl(String text, String level, long number) {
    ncclLines++;
    Matcher m = text.contains("NCCL version ") ? NCCL_VERSION.matcher(text) : null;
    Integer major = null;
    Integer minor = null;
    Integer patch = null;
    if (m != null && m.find()) {
      major = integer(m.group(1));
      minor = integer(m.group(2));
      patch = integer(m.group(3));
      if (major == null || minor == null || patch == null) {
        malformed.add(new Evidence(file, number, text.strip())); // fuzz seed 7 #5274
        major = null;
      }
    }
    if (major != null) {
      lastNcclVersion =
          major <= 2 && minor <= 8
              ? major * 1000 + minor * 100 + patch
              : major * 10000 + minor * 100 + patch;
      if (lastActive != null
          && lastActive.phase != RunBuilder.Phase.CLOSED
          && lastActive.ncclFromLog == null) {
        lastActive.ncclFromLog = lastNcclVersion;
      }
    }
    if (!level.equals("INFO")
        && !level.equals("TRACE")
        && lastActive != null
        && lastActive.phase == RunBuilder.Phase.TABLE
        && lastActive.warnAfterLastRow == null) {
      lastActive.warnAfterLastRow = new Evidence(file, number, text.strip());
    }
  }

  private void name(RunBuilder run, String test, Evidence ev) {
    Collective c = Collective.fromTestName(test);
    if (c != null) {
      run.named = c;
      run.namedFrom = ev;
    } else if (run.named == null) {
      other(ev);
    }
  }

  private void command(RunBuilder run, TextLine t, Evidence ev) {
    Collective found = null;
    Matcher m = t.match();
    m.reset();
    while (m.find()) {
      Collective c = Collective.fromTestName(m.group(1));
      if (c == null || (found != null && found != c)) {
        return;
      }
      found = c;
    }
    if (found == null) {
      return;
    }
    if (run != null && run.phase == RunBuilder.Phase.PREAMBLE && run.commanded == null) {
      run.commanded = found;
      run.commandedFrom = ev;
    } else {
      pendingCommand = found;
      pendingCommandFrom = ev;
    }
  }

  private void header(RunBuilder run, String stream, TextLine t, Evidence ev) {
    if (run == null
        || run.phase == RunBuilder.Phase.SUMMARY
        || (run.phase == RunBuilder.Phase.TABLE
            && (!run.rows.isEmpty() || (t.kind() == TextLine.Kind.HEADER_GROUPS)))) {
      run = open(stream, ev);
    }
    run.phase = RunBuilder.Phase.TABLE;
    run.envelope = t.envelope();
    if (t.kind() == TextLine.Kind.HEADER_COLUMNS) {
      TableLayout layout = TableLayout.fromHeader(t.body());
      if (layout == null) {
        other(ev);
      } else {
        run.layout = layout;
        run.headerSeen = true;
      }
    }
  }

  private void row(RunBuilder run, String stream, TextLine t, Evidence ev) {
    boolean inTable = run != null && run.phase == RunBuilder.Phase.TABLE;
    TableLayout layout = inTable ? run.layout : TableLayout.DEFAULT;
    BenchRow row = layout.parse(t.body(), ev, inTable && run.headerSeen);
    if (row == null) {
      if (inTable) {
        malformed.add(ev);
        run.partialRow = ev;
      } else {
        other(ev);
      }
      return;
    }
    if (run == null || run.phase == RunBuilder.Phase.SUMMARY) {
      run = open(stream, ev);
    }
    run.phase = RunBuilder.Phase.TABLE;
    run.addRow(row);
  }

  /**
   * A summary line. One that no run is open for, or a second of its kind after a summary
   * (nccl-tests prints each once per process: nccl-tests issue 27's {@code mpirun -np 2} of a build
   * without MPI printed two, one per host, with the tables cut from the excerpt), is a run known by
   * its summary alone.
   */
  private void summary(RunBuilder run, String stream, TextLine t, Evidence ev) {
    boolean oob = t.kind() == TextLine.Kind.OUT_OF_BOUNDS;
    if (run == null
        || (run.phase == RunBuilder.Phase.SUMMARY
            && (oob ? run.outOfBounds != null : run.avgBusBw != null))) {
      run = open(stream, ev);
    } else if (run.phase == RunBuilder.Phase.PREAMBLE) {
      other(ev);
      return;
    }
    run.phase = RunBuilder.Phase.SUMMARY;
    run.summary = ev;
    run.partialRow = null;
    Matcher m = t.match();
    if (oob) {
      run.outOfBounds = m.group(1).strip();
      run.outOfBoundsAt = ev;
    } else {
      try {
        run.avgBusBw = Double.parseDouble(m.group(1));
      } catch (NumberFormatException e) {
        other(ev);
      }
    }
  }

  private RunBuilder open(String stream, Evidence start) {
    close(stream);
    RunBuilder run = new RunBuilder(file, start);
    run.ncclFromLog = lastNcclVersion;
    if (pendingCommand != null) {
      run.commanded = pendingCommand;
      run.commandedFrom = pendingCommandFrom;
      pendingCommand = null;
      pendingCommandFrom = null;
    }
    current.put(stream, run);
    lastActive = run;
    return run;
  }

  private void close(String stream) {
    RunBuilder run = current.remove(stream);
    if (run != null) {
      run.phase = RunBuilder.Phase.CLOSED;
      done.add(run);
    }
  }

  /** A line too long to be output of nccl-tests: counted as unrecognized. */
  void overlong(Evidence ev) {
    other(ev);
  }

  private void other(Evidence ev) {
    unrecognized.add(ev);
  }

  /** The runs, in the order they started, each finished. */
  List<BenchRun> finish() {
    for (String stream : List.copyOf(current.keySet())) {
      close(stream);
    }
    return done.stream()
        .filter(RunBuilder::hasContent)
        .sorted(Comparator.comparingLong(r -> r.start.line()))
        .map(r -> r.finish(file))
        .toList();
  }

  /** The device line's rank and device, or null where a number does not fit an int (malformed). */
  private static BenchDevice device(Matcher m, Evidence ev) {
    Integer rank = integer(m.group(1));
    Integer device = integer(m.group(5));
    if (rank == null || device == null) {
      return null;
    }
    return new BenchDevice(
        rank,
        integer(m.group(2)),
        integer(m.group(3)),
        m.group(4),
        device,
        m.group(6),
        m.group(7).strip(),
        ev);
  }

  /** NCCL 1's {@code Rank 0 uses device 0 [0x05] Tesla M40}: no host, no pid (one process). */
  private static BenchDevice oldDevice(Matcher m, Evidence ev) {
    Integer rank = integer(m.group(1));
    Integer device = integer(m.group(2));
    if (rank == null || device == null) {
      return null;
    }
    return new BenchDevice(rank, null, null, null, device, m.group(3), m.group(4).strip(), ev);
  }

  private static Integer integer(String s) {
    if (s == null) {
      return null;
    }
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
