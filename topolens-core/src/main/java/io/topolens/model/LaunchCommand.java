package io.topolens.model;

import java.util.List;

/**
 * A launch command the input holds, as the user ran it (pasted beside the log, a script echoing
 * it): {@code docker run ...} and how it gave the container /dev/shm, {@code mpirun -H a:1,b:1 ...}
 * and the hosts it places ranks on. Facts of the command line only; what they mean is the rules'.
 *
 * @param launcher {@code docker} or {@code mpirun}
 * @param slots mpirun's hosts ({@code -H}, {@code -host}, {@code --host}), one entry per slot in
 *     the order given ({@code a:2,b} is a, a, b); empty when the command names none (a hostfile, or
 *     docker)
 * @param byNode whether mpirun places ranks round-robin over the hosts ({@code --map-by node},
 *     {@code -bynode}) rather than filling each host's slots first (its default)
 * @param shm docker's option that gives the container its /dev/shm ({@code --shm-size=64g}, {@code
 *     --ipc=host}, a {@code /dev/shm} mount), empty when the command has none (Docker's default 64
 *     MiB); empty for mpirun
 * @param processes the processes mpirun starts ({@code -np 2}, {@code -n 2}); 0 when the command
 *     does not say (one per slot then), and for docker
 * @param hostfile the file mpirun reads its hosts from ({@code --hostfile F}, {@code -machinefile
 *     F}); empty when the command names none, and for docker
 * @param evidence the command's first line
 */
public record LaunchCommand(
    String launcher,
    List<String> slots,
    boolean byNode,
    String shm,
    int processes,
    String hostfile,
    Evidence evidence) {

  public LaunchCommand {
    slots = List.copyOf(slots);
  }

  /** A docker run that gave the container neither a size for /dev/shm nor the host's. */
  public boolean dockerWithDefaultShm() {
    return launcher.equals("docker") && shm.isEmpty();
  }

  /**
   * How many processes mpirun starts: {@code -np}, else one per slot of its host list; 0 when
   * neither says (a hostfile without {@code -np}), and for docker.
   */
  public int processCount() {
    if (!launcher.equals("mpirun")) {
      return 0;
    }
    return processes > 0 ? processes : slots.size();
  }

  /**
   * How many hosts mpirun places its processes on, as far as the command says: the distinct hosts
   * of the slots its processes fill (its {@code -H}/{@code --host} list, with or without a
   * hostfile); -1 where it names no hosts: a hostfile alone (the command does not say how many), or
   * neither (the host it runs on, or a scheduler's allocation); 0 for docker.
   */
  public int hostCount() {
    if (!launcher.equals("mpirun")) {
      return 0;
    }
    if (slots.isEmpty()) {
      return -1;
    }
    int n = processCount();
    return (int)
        java.util.stream.IntStream.range(0, Math.min(n, slots.size()))
            .mapToObj(this::hostOf)
            .distinct()
            .count();
  }

  /** The host mpirun places a rank on, or null when the command does not say. */
  public String hostOf(int rank) {
    if (slots.isEmpty() || rank < 0 || rank >= slots.size()) {
      return null;
    }
    if (!byNode) {
      return slots.get(rank);
    }
    List<String> hosts = slots.stream().distinct().toList();
    return hosts.get(rank % hosts.size());
  }
}
