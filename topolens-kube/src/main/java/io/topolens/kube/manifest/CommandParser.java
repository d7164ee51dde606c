package io.topolens.kube.manifest;

import io.topolens.kube.model.EnvVar;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.ProcessCount;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the process counts and environment that a container's command states: {@code torchrun
 * --nproc_per_node}, {@code deepspeed --num_gpus}, {@code mpirun -np / -N / --map-by ppr:N:node /
 * -x NAME=VALUE}. Values that are shell variables are left unknown, except the Trainer's own {@code
 * PET_NPROC_PER_NODE}, which repeats {@code numProcPerNode} and is skipped.
 */
final class CommandParser {
  private static final Pattern PER_NODE =
      Pattern.compile("(--nproc[_-]per[_-]node|--num[_-]gpus)(?:=|\\s+)[\"']?([^\\s\"'\\\\;]+)");
  private static final Set<String> MPIRUN = Set.of("mpirun", "mpiexec", "mpiexec.hydra", "orterun");
  private static final Set<String> TOTAL = Set.of("-np", "-n", "--np", "--n", "-c");
  private static final Set<String> PER_POD =
      Set.of("-N", "-npernode", "--npernode", "-ppn", "-perhost");
  private static final Set<String> WITH_VALUE =
      Set.of(
          "--bind-to",
          "-bind-to",
          "--map-by",
          "-map-by",
          "--rank-by",
          "--hostfile",
          "-hostfile",
          "--host",
          "-H",
          "-host",
          "-wdir",
          "--wdir",
          "--prefix",
          "-prefix",
          "--mca-param-file",
          "-env",
          "--output-filename",
          "-x");

  private final YamlDocument doc;
  private final String at;

  /** A parser for the command whose first item is at pointer {@code at} of {@code doc}. */
  CommandParser(YamlDocument doc, String at) {
    this.doc = doc;
    this.at = at;
  }

  /** What launcher flags in {@code command} say about processes per pod. */
  List<ProcessCount> launcherCounts(List<String> command) {
    List<ProcessCount> out = new ArrayList<>();
    Matcher m = PER_NODE.matcher(String.join(" ", command));
    while (m.find()) {
      String v = m.group(2);
      if (v.contains("PET_NPROC_PER_NODE")) {
        continue;
      }
      String source =
          m.group(1).startsWith("--num") ? "deepspeed " + m.group(1) : "torchrun " + m.group(1);
      out.add(
          new ProcessCount(
              source, new Located<>(v.startsWith("$") ? null : v, doc.find(at, m.group())), true));
    }
    return out;
  }

  /** The mpirun command's process counts and {@code -x} environment, if it runs mpirun. */
  Mpirun mpirun(List<String> command) {
    List<String> tokens = tokens(command);
    int start = -1;
    for (int i = 0; i < tokens.size(); i++) {
      String t = tokens.get(i);
      String base = t.substring(t.lastIndexOf('/') + 1);
      if (MPIRUN.contains(base)) {
        start = i + 1;
        break;
      }
    }
    if (start < 0) {
      return null;
    }
    List<ProcessCount> counts = new ArrayList<>();
    List<EnvVar> env = new ArrayList<>();
    for (int i = start; i < tokens.size(); i++) {
      String t = tokens.get(i);
      if (!t.startsWith("-")) {
        break; // the program
      }
      String next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
      if (TOTAL.contains(t) && next != null) {
        counts.add(count("mpirun " + t, next, false, t));
        i++;
      } else if (PER_POD.contains(t) && next != null) {
        counts.add(count("mpirun " + t, next, true, t));
        i++;
      } else if ((t.equals("--map-by") || t.equals("-map-by")) && next != null) {
        Matcher m = Pattern.compile("ppr:(\\d+):node").matcher(next);
        if (m.find()) {
          counts.add(count("mpirun " + t + " ppr:N:node", m.group(1), true, next));
        }
        i++;
      } else if (t.equals("-x") && next != null) {
        int eq = next.indexOf('=');
        String name = eq < 0 ? next : next.substring(0, eq);
        env.add(
            new EnvVar(
                name, eq < 0 ? null : next.substring(eq + 1), "mpirun -x", doc.find(at, next)));
        i++;
      } else if (t.equals("-genv") && i + 2 < tokens.size()) {
        env.add(new EnvVar(next, tokens.get(i + 2), "mpirun -genv", doc.find(at, next)));
        i += 2;
      } else if (t.equals("--mca") || t.equals("-mca")) {
        i += 2;
      } else if (WITH_VALUE.contains(t)) {
        i++;
      }
    }
    return new Mpirun(counts, env);
  }

  private ProcessCount count(String source, String value, boolean perPod, String needle) {
    String v = value.startsWith("$") ? null : value;
    return new ProcessCount(source, new Located<>(v, doc.find(at, needle)), perPod);
  }

  /** Splits a command into words: list items, and the words of shell scripts inside them. */
  static List<String> tokens(List<String> command) {
    List<String> out = new ArrayList<>();
    for (String part : command) {
      for (String w : part.replace("\\\n", " ").split("[\\s;&|]+")) {
        String t = w.replaceAll("^[\"']+|[\"']+$", "");
        if (!t.isEmpty()) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /** What an mpirun command line states. */
  record Mpirun(List<ProcessCount> counts, List<EnvVar> env) {}
}
