package io.topolens.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.topolens.catalog.BundledParser;
import io.topolens.model.Evidence;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

/**
 * Reads the JSON nccl-tests writes with {@code -J FILE} (src/util.cu) onto the same records as the
 * text: {@code args} names the test, {@code nccl_version}, {@code config} (the parameter line and
 * one device per process), {@code results} (one object per row), {@code out_of_bounds}, {@code
 * average_bus_bandwidth}, {@code errors}. It streams: only the rows are kept. A file cut short (the
 * process died before closing it) keeps the rows read and is ABORTED. Evidence points at the line
 * of the JSON value and names its place.
 */
final class JsonReader {
  private JsonReader() {}

  private static final JsonFactory FACTORY = BundledParser.FACTORY;

  /** JSON config keys, renamed to the text parameter line's names. */
  private static final Map<String, String> PARAMS =
      Map.of(
          "nthreads", "nThread",
          "ngpus", "nGpus",
          "minimum_bytes", "minBytes",
          "maximum_bytes", "maxBytes",
          "warmup_iters", "warmup iters",
          "iterations", "iters",
          "aggregated_iterations", "agg iters");

  static BenchFile read(InputStream in, String file) throws InputProblem {
    RunBuilder run = new RunBuilder(file, new Evidence(file, 1, "nccl-tests JSON output"));
    run.devicesPerProcess = true;
    boolean ours = false;
    long lines = 1;
    try (JsonParser p = FACTORY.createParser(in)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new InputProblem(file + ": not nccl-tests JSON output (no top-level object)");
      }
      try {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          JsonToken value = p.nextToken();
          switch (key) {
            case "version" -> ours = true;
            case "args" -> {
              ours = true;
              args(p, run, file);
            }
            case "nccl_version" -> {
              ours = true;
              if (value == JsonToken.VALUE_NUMBER_INT) {
                run.ncclLibrary = p.getIntValue();
              }
            }
            case "config" -> {
              ours = true;
              config(p, run, file);
            }
            case "results" -> {
              ours = true;
              results(p, run, file);
            }
            case "out_of_bounds" -> outOfBounds(p, run, file);
            case "average_bus_bandwidth" -> average(p, run, file);
            case "errors" -> errors(p, run, file);
            default -> p.skipChildren();
          }
          lines = p.currentLocation().getLineNr();
        }
        lines = p.currentLocation().getLineNr();
      } catch (JsonProcessingException e) {
        if (!ours) {
          throw new InputProblem(file + ": not nccl-tests JSON output: " + firstLine(e));
        }
        JsonLocation at = e.getLocation();
        long line = at == null ? lines : Math.max(1, at.getLineNr());
        lines = line;
        run.stoppedInside =
            new Evidence(
                file,
                line,
                "JSON output ends early after "
                    + run.rows.size()
                    + " results ("
                    + firstLine(e)
                    + ")");
      }
    } catch (JsonProcessingException e) {
      throw new InputProblem(file + ": not nccl-tests JSON output: " + firstLine(e));
    } catch (IOException e) {
      throw new InputProblem(file + ": read failed: " + e.getMessage());
    }
    if (!ours) {
      throw new InputProblem(file + ": not nccl-tests JSON output (no config, results or args)");
    }
    return new BenchFile(file, List.of(run.finish(file)), lines, 0, 0, List.of(), 0, List.of());
  }

  private static String firstLine(JsonProcessingException e) {
    String m = e.getOriginalMessage();
    if (m == null) {
      m = e.getClass().getSimpleName();
    }
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  private static Evidence at(JsonParser p, String file, String what) {
    JsonLocation l = p.currentTokenLocation();
    return new Evidence(file, l.getLineNr(), what + " (column " + l.getColumnNr() + ")");
  }

  private static void args(JsonParser p, RunBuilder run, String file) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      p.skipChildren();
      return;
    }
    boolean first = true;
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (first && p.currentToken() == JsonToken.VALUE_STRING) {
        String program = p.getText();
        Collective c = Collective.fromTestName(program);
        if (c != null) {
          run.named = c;
          run.namedFrom = at(p, file, "args[0] = " + program);
        }
      }
      first = false;
      p.skipChildren();
    }
  }

  private static void config(JsonParser p, RunBuilder run, String file) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return;
    }
    run.paramsSeen = true;
    String stepFactor = null;
    String stepBytes = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      JsonToken v = p.nextToken();
      if (key.equals("devices") && v == JsonToken.START_ARRAY) {
        devices(p, run, file);
      } else if (v.isScalarValue()) {
        String text = p.getText();
        switch (key) {
          case "step_factor" -> stepFactor = text;
          case "step_bytes" -> stepBytes = text;
          default -> run.params.put(PARAMS.getOrDefault(key, key), text);
        }
      } else {
        p.skipChildren();
      }
    }
    if (stepFactor != null) {
      run.params.put("step", stepFactor + "(factor)");
    } else if (stepBytes != null) {
      run.params.put("step", stepBytes + "(bytes)");
    }
  }

  private static void devices(JsonParser p, RunBuilder run, String file) throws IOException {
    int index = 0;
    while (p.nextToken() == JsonToken.START_OBJECT) {
      Evidence ev = at(p, file, "config.devices[" + index + "]");
      Integer rank = null;
      Integer group = null;
      Integer pid = null;
      String host = null;
      Integer device = null;
      String busId = null;
      String name = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        JsonToken v = p.nextToken();
        if (!v.isScalarValue()) {
          p.skipChildren();
          continue;
        }
        switch (key) {
          case "rank" -> rank = intValue(p);
          case "group" -> group = intValue(p);
          case "pid" -> pid = intValue(p);
          case "hostname" -> host = p.getText();
          case "device" -> device = intValue(p);
          case "device_hex" -> busId = p.getText();
          case "device_info" -> name = p.getText();
          default -> {}
        }
      }
      if (rank != null && device != null) {
        run.devices.add(new BenchDevice(rank, group, pid, host, device, busId, name, ev));
      }
      index++;
    }
  }

  private static void results(JsonParser p, RunBuilder run, String file) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      p.skipChildren();
      return;
    }
    run.phase = RunBuilder.Phase.TABLE;
    run.headerSeen = true;
    int index = 0;
    while (p.nextToken() == JsonToken.START_OBJECT) {
      Evidence ev = at(p, file, "results[" + index + "]");
      Long size = null;
      Long count = null;
      String type = null;
      String redop = null;
      Integer root = null;
      BenchResult outOfPlace = null;
      BenchResult inPlace = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        JsonToken v = p.nextToken();
        switch (key) {
          case "size" -> size = longValue(p);
          case "count" -> count = longValue(p);
          case "type" -> type = v.isScalarValue() ? p.getText() : null;
          case "redop" -> redop = v.isScalarValue() ? p.getText() : null;
          case "root" -> root = rootValue(p);
          case "out_of_place" -> outOfPlace = half(p);
          case "in_place" -> inPlace = half(p);
          default -> p.skipChildren();
        }
      }
      if (size != null && count != null && type != null && inPlace != null) {
        run.addRow(new BenchRow(size, count, type, redop, root, outOfPlace, inPlace, ev));
      } else {
        run.partialRow = ev;
      }
      index++;
    }
  }

  private static BenchResult half(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return null;
    }
    double time = Double.NaN;
    double alg = Double.NaN;
    double bus = Double.NaN;
    String wrong = "N/A";
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      p.nextToken();
      switch (key) {
        case "time", "cpu_time" -> time = doubleValue(p);
        case "alg_bw" -> alg = doubleValue(p);
        case "bus_bw" -> bus = doubleValue(p);
        case "nwrong" -> {
          if (p.currentToken().isNumeric()) {
            double w = p.getDoubleValue();
            wrong = w == Math.rint(w) && Math.abs(w) < 1e18 ? Long.toString((long) w) : "" + w;
          }
        }
        default -> p.skipChildren();
      }
    }
    return new BenchResult(time, alg, bus, wrong);
  }

  private static void outOfBounds(JsonParser p, RunBuilder run, String file) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return;
    }
    Evidence ev = at(p, file, "out_of_bounds");
    Integer count = null;
    String okay = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      p.nextToken();
      switch (key) {
        case "count" -> count = intValue(p);
        case "okay" -> okay = p.currentToken().isScalarValue() ? p.getText() : null;
        default -> p.skipChildren();
      }
    }
    if (count != null) {
      run.outOfBounds = count + ("true".equals(okay) ? " OK" : " FAILED");
      run.summary = ev;
      run.phase = RunBuilder.Phase.SUMMARY;
    }
  }

  private static void average(JsonParser p, RunBuilder run, String file) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return;
    }
    Evidence ev = at(p, file, "average_bus_bandwidth");
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      p.nextToken();
      if (key.equals("bandwidth")) {
        double bw = doubleValue(p);
        if (!Double.isNaN(bw)) {
          run.avgBusBw = bw;
          run.summary = ev;
          run.phase = RunBuilder.Phase.SUMMARY;
        }
      } else {
        p.skipChildren();
      }
    }
  }

  private static void errors(JsonParser p, RunBuilder run, String file) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      p.skipChildren();
      return;
    }
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() == JsonToken.VALUE_STRING && !p.getText().isBlank()) {
        if (run.error == null) {
          run.error = at(p, file, "errors: " + p.getText().strip());
        }
      } else {
        p.skipChildren();
      }
    }
  }

  private static Integer intValue(JsonParser p) throws IOException {
    Long l = longValue(p);
    return l == null || l != (int) (long) l ? null : (int) (long) l;
  }

  private static Long longValue(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NUMBER_INT) {
      return p.getLongValue();
    }
    if (t == JsonToken.VALUE_STRING) {
      try {
        return Long.parseLong(p.getText().strip());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    p.skipChildren();
    return null;
  }

  /** The root is written as the row's {@code %6i} text: {@code " -1"}. */
  private static Integer rootValue(JsonParser p) throws IOException {
    return intValue(p);
  }

  private static double doubleValue(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t.isNumeric()) {
      return p.getDoubleValue();
    }
    if (t == JsonToken.VALUE_STRING) {
      String s = p.getText().strip();
      if (s.endsWith("nan")) {
        return Double.NaN;
      }
      if (s.endsWith("inf")) {
        return s.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
      }
      try {
        return Double.parseDouble(s);
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
    p.skipChildren();
    return Double.NaN;
  }
}
