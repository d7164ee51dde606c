package io.topolens.nccl;

import java.util.ArrayList;
import java.util.List;

/**
 * A launch command pasted beside a log: {@code docker run [OPTIONS] IMAGE [COMMAND]} (Docker's CLI;
 * {@code nvidia-docker run} too) and Open MPI's {@code mpirun [OPTIONS] PROGRAM} (also as {@code
 * mpiexec}); a command continued over lines with a trailing {@code \} is read as one line. Reads
 * what the command says and nothing more: the option that gives docker's container /dev/shm, the
 * hosts mpirun places ranks on, or the hostfile it reads them from.
 */
final class LaunchLine {
  private LaunchLine() {}

  /** The launch a line holds, or null when it holds none (prose, mpirun's own messages). */
  static NcclEvent parse(String text) {
    List<String> docker = after(text, Needles.DOCKER_RUN);
    if (docker != null) {
      return new NcclEvent.Launch("docker", List.of(), false, shm(docker), 0, "");
    }
    List<String> mpirun = after(text, "mpirun ");
    if (mpirun == null) {
      mpirun = after(text, "mpiexec ");
    }
    if (mpirun != null) {
      return new NcclEvent.Launch(
          "mpirun", slots(mpirun), byNode(mpirun), "", processes(mpirun), hostfile(mpirun));
    }
    return null;
  }

  /**
   * The words after the command, or null when the command is not one: it must start the line or
   * follow a space, a shell prompt, a quote or {@code nvidia-}, and an option ({@code -...}) must
   * follow it, so that prose ({@code mpirun noticed that process rank 1 ...}) is not taken.
   */
  private static List<String> after(String text, String command) {
    int at = text.indexOf(command);
    if (at < 0) {
      return null;
    }
    if (at > 0) {
      char c = text.charAt(at - 1);
      if (!(c == ' ' || c == '\t' || c == '$' || c == '#' || c == '`' || c == '\'' || c == '"'
          || c == '-')) {
        return null;
      }
    }
    List<String> words = new ArrayList<>();
    for (String w : text.substring(at + command.length()).strip().split("\\s+")) {
      String word = w.replaceAll("^[`'\"]+|[`'\"]+$", "");
      if (!word.isEmpty() && !word.equals("\\")) {
        words.add(word);
      }
    }
    return !words.isEmpty() && words.get(0).startsWith("-") ? words : null;
  }

  /**
   * Docker's option that gives the container /dev/shm: {@code --shm-size=64g} (or {@code --shm-size
   * 64g}), {@code --ipc=host} ({@code --ipc host}), a mount of the host's /dev/shm ({@code -v
   * /dev/shm:/dev/shm}, {@code --mount type=bind,source=/dev/shm,target=/dev/shm}); empty when
   * none. Options end at the image, the first word that is not an option or its value.
   */
  private static String shm(List<String> words) {
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      String next = i + 1 < words.size() ? words.get(i + 1) : "";
      if (w.startsWith("--shm-size=") || w.startsWith("--ipc=host")) {
        return w;
      }
      if (w.equals("--shm-size") || (w.equals("--ipc") && next.equals("host"))) {
        return w + " " + next;
      }
      if ((w.equals("-v") || w.equals("--volume") || w.equals("--mount"))
          && next.contains("/dev/shm")) {
        return w + " " + next;
      }
      if ((w.startsWith("-v/dev/shm") || w.startsWith("--volume=") || w.startsWith("--mount="))
          && w.contains("/dev/shm")) {
        return w;
      }
    }
    return "";
  }

  /**
   * mpirun's hosts, one entry per slot: {@code -H a:1,b:1}, {@code -host a,b}, {@code --host
   * a:2,b:2} (a host without {@code :N} is one slot); empty where none is named (a hostfile).
   */
  private static List<String> slots(List<String> words) {
    List<String> slots = new ArrayList<>();
    for (int i = 0; i + 1 < words.size(); i++) {
      String w = words.get(i);
      if (!(w.equals("-H") || w.equals("-host") || w.equals("--host") || w.equals("-hosts"))) {
        continue;
      }
      for (String host : words.get(i + 1).split(",")) {
        int colon = host.lastIndexOf(':');
        String name = colon > 0 ? host.substring(0, colon) : host;
        int n = 1;
        if (colon > 0) {
          try {
            n = Integer.parseInt(host.substring(colon + 1));
          } catch (NumberFormatException e) {
            return List.of();
          }
        }
        if (name.isEmpty() || n < 1 || n > 1024) {
          return List.of();
        }
        for (int k = 0; k < n; k++) {
          slots.add(name);
        }
      }
    }
    return slots;
  }

  /**
   * The processes mpirun starts: {@code -np 2}, {@code -n 2}, {@code --np 2}, {@code -c 2} (Open
   * MPI's and MPICH's spellings, also {@code -np=2}); 0 when the command does not say (mpirun then
   * starts one per slot) or the count is not a number.
   */
  private static int processes(List<String> words) {
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      String value = null;
      if (w.equals("-np") || w.equals("--np") || w.equals("-n") || w.equals("-c")) {
        value = i + 1 < words.size() ? words.get(i + 1) : null;
      } else if (w.startsWith("-np=") || w.startsWith("--np=")) {
        value = w.substring(w.indexOf('=') + 1);
      }
      if (value != null) {
        try {
          int n = Integer.parseInt(value);
          return n > 0 ? n : 0;
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 0;
  }

  /**
   * The hostfile mpirun places ranks by: {@code --hostfile F}, {@code -hostfile F}, {@code
   * --machinefile F}, {@code -machinefile F}, or the {@code =F} forms (MPICH's {@code -f F} is not
   * read: nccl-tests' own {@code -f} is its step factor); empty when the command names none.
   */
  private static String hostfile(List<String> words) {
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      int eq = w.indexOf('=');
      String option = eq > 0 ? w.substring(0, eq) : w;
      if (!HOSTFILE.contains(option)) {
        continue;
      }
      if (eq > 0) {
        return w.substring(eq + 1);
      }
      return i + 1 < words.size() ? words.get(i + 1) : "";
    }
    return "";
  }

  private static final List<String> HOSTFILE =
      List.of("--hostfile", "-hostfile", "--machinefile", "-machinefile");

  /** Whether mpirun maps ranks round-robin over hosts: {@code --map-by node}, {@code -bynode}. */
  private static boolean byNode(List<String> words) {
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      String next = i + 1 < words.size() ? words.get(i + 1) : "";
      if (w.equals("-bynode")
          || w.equals("--bynode")
          || ((w.equals("-map-by") || w.equals("--map-by")) && next.startsWith("node"))
          || w.startsWith("--map-by=node")) {
        return true;
      }
    }
    return false;
  }
}
