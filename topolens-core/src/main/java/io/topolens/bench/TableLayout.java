package io.topolens.bench;

import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The columns of a results table, read from its column header ({@code size count type redop root
 * time algbw busbw #wrong time algbw busbw #wrong}, and every variant: no root column before 2.13,
 * no redop in the oldest, {@code error} (NCCL 1: {@code res}) for {@code #wrong}, NCCL 1's {@code
 * bytes N type op} for {@code size count type redop}, {@code cputime} with {@code -C}, the four
 * {@code i_*} columns per half with {@code -I}, a trailing {@code timestamp} with {@code -S}), and
 * the parsing of rows against them. Rows are split on blanks, so misaligned columns do not matter;
 * a row whose tokens do not fit the columns is malformed, never guessed.
 *
 * @param keys the columns before the first time column, as named
 * @param halfWidth tokens per half (4, or 8 with per-iteration columns)
 * @param timestamp whether each row ends with a {@code YYYY-MM-DD HH:MM:SS} timestamp
 * @param errorColumn whether the fourth column of a half is the old {@code error} float
 * @param halves 2 (out-of-place and in-place, as nccl-tests prints), or 1 where another tool (a
 *     torch-based collective test) printed only the out-of-place columns under a header of its own
 */
record TableLayout(
    List<String> keys, int halfWidth, boolean timestamp, boolean errorColumn, int halves) {

  private static final Pattern NUMBER =
      Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?|[-+]?(?:inf|nan)");
  private static final Pattern INTEGER = Pattern.compile("-?\\d+");
  private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
  private static final Pattern TIME = Pattern.compile("\\d{2}:\\d{2}:\\d{2}");

  /** The layout of current nccl-tests, used until a header says otherwise. */
  static final TableLayout DEFAULT =
      new TableLayout(List.of("size", "count", "type", "redop", "root"), 4, false, false, 2);

  /**
   * The key columns of every version: {@code redop} and {@code root} came one by one (all_gather
   * printed neither, broadcast only a root, all_reduce only a redop), then all tests print both.
   */
  private static final List<List<String>> KEY_SETS =
      List.of(
          List.of("size", "count", "type", "redop", "root"),
          List.of("size", "count", "type", "redop"),
          List.of("size", "count", "type", "root"),
          List.of("size", "count", "type"));

  static boolean isColumnHeader(String body) {
    List<String> t = Arrays.asList(body.split("\\s+"));
    return t.size() >= 6
        && (t.get(0).equals("size")
            ? t.contains("count")
            : t.get(0).equals("bytes") && t.contains("N"))
        && t.contains("algbw")
        && t.contains("busbw");
  }

  /**
   * A key column as this reader names it: NCCL 1's tests ({@code test/single/all_reduce_test})
   * print {@code bytes N type op} for {@code size count type redop}.
   */
  private static String key(String printed) {
    return switch (printed) {
      case "bytes" -> "size";
      case "N" -> "count";
      case "op" -> "redop";
      default -> printed;
    };
  }

  /** The layout a column header describes; null when it is not one this reader understands. */
  static TableLayout fromHeader(String body) {
    String[] t = body.split("\\s+");
    List<String> keys = new ArrayList<>();
    int i = 0;
    while (i < t.length && !isTime(t[i])) {
      keys.add(key(t[i]));
      i++;
    }
    List<Integer> halves = new ArrayList<>();
    boolean error = false;
    boolean timestamp = false;
    while (i < t.length) {
      if (t[i].equals("timestamp")) {
        timestamp = true;
        i++;
        continue;
      }
      if (!isTime(t[i])) {
        return null;
      }
      int width = 1;
      i++;
      while (i < t.length && !isTime(t[i]) && !t[i].equals("timestamp")) {
        if (t[i].equals("error") || t[i].equals("res")) {
          error = true;
        }
        width++;
        i++;
      }
      halves.add(width);
    }
    boolean twoHalves = halves.size() == 2 && halves.get(0).equals(halves.get(1));
    if (!(twoHalves || halves.size() == 1) || halves.get(0) < 4) {
      return null;
    }
    if (!KEY_SETS.contains(keys)) {
      return null;
    }
    return new TableLayout(List.copyOf(keys), halves.get(0), timestamp, error, halves.size());
  }

  private static boolean isTime(String token) {
    return token.equals("time") || token.equals("cputime");
  }

  /**
   * A row of this table, or null when the tokens do not fit it. Without a header ({@code
   * fromHeader} never ran) the key columns are told by position from the end: a root is an integer,
   * a redop and a type are words.
   */
  BenchRow parse(String body, Evidence evidence, boolean headerSeen) {
    String[] t = body.split("\\s+");
    int data = halves * halfWidth + (timestamp ? 2 : 0);
    int nKeys = t.length - data;
    if (nKeys < 3 || nKeys > 5) {
      return null;
    }
    if (timestamp
        && (!DATE.matcher(t[t.length - 2]).matches() || !TIME.matcher(t[t.length - 1]).matches())) {
      return null;
    }
    Long size = integer(t[0]);
    Long count = integer(t[1]);
    if (size == null || count == null || size < 0 || count < 0 || isNumber(t[2])) {
      return null;
    }
    String type = t[2];
    String redop = null;
    Integer root = null;
    boolean hasRedop = keys.contains("redop");
    boolean hasRoot = keys.contains("root");
    if (headerSeen) {
      if (nKeys == keys.size()) {
        for (int k = 3; k < nKeys; k++) {
          if (keys.get(k).equals("redop")) {
            redop = t[k];
            if (isNumber(redop)) {
              return null;
            }
          } else {
            Integer r = toInt(t[k]);
            if (r == null) {
              return null;
            }
            root = r;
          }
        }
      } else if (nKeys == keys.size() - 1 && hasRedop && hasRoot) {
        // hypercube prints an empty redop
        Integer r = toInt(t[3]);
        if (r == null) {
          return null;
        }
        redop = "";
        root = r;
      } else {
        return null;
      }
    } else {
      if (nKeys == 5) {
        Integer r = toInt(t[4]);
        if (r == null || isNumber(t[3])) {
          return null;
        }
        redop = t[3];
        root = r;
      } else if (nKeys == 4) {
        Integer r = toInt(t[3]);
        if (r != null) {
          root = r;
        } else {
          redop = t[3];
        }
      }
    }
    BenchResult outOfPlace = half(t, nKeys);
    BenchResult inPlace = halves == 2 ? half(t, nKeys + halfWidth) : null;
    if (outOfPlace == null || (halves == 2 && inPlace == null)) {
      return null;
    }
    return new BenchRow(size, count, type, redop, root, outOfPlace, inPlace, evidence);
  }

  private BenchResult half(String[] t, int from) {
    for (int i = from; i < from + halfWidth; i++) {
      if (i == from + 3) {
        continue;
      }
      if (!isNumber(t[i])) {
        return null;
      }
    }
    String wrong = t[from + 3];
    if (!wrong.equals("N/A") && !isNumber(wrong)) {
      return null;
    }
    return new BenchResult(number(t[from]), number(t[from + 1]), number(t[from + 2]), wrong);
  }

  private static boolean isNumber(String s) {
    return NUMBER.matcher(s).matches();
  }

  private static double number(String s) {
    String l = s.toLowerCase(java.util.Locale.ROOT);
    if (l.endsWith("nan")) {
      return Double.NaN;
    }
    if (l.endsWith("inf")) {
      return l.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    return Double.parseDouble(s);
  }

  private static Integer toInt(String s) {
    Long l = integer(s);
    return l == null || l != (int) (long) l ? null : (int) (long) l;
  }

  private static Long integer(String s) {
    if (!INTEGER.matcher(s).matches()) {
      return null;
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
