package io.topolens.model;

import java.util.Objects;

/**
 * One GPU context of one process, as NCCL's line prefix names it: {@code host:pid:tid [cudaDev]}. A
 * process driving four GPUs ({@code -g 4}) has four of these.
 */
public record RankId(String host, long pid, int cudaDev) implements Comparable<RankId> {

  @Override
  public int compareTo(RankId o) {
    int c = host.compareTo(o.host);
    if (c != 0) {
      return c;
    }
    c = Long.compare(pid, o.pid);
    return c != 0 ? c : Integer.compare(cudaDev, o.cudaDev);
  }

  /**
   * What the record's own {@code equals} does, written out: the generated one is linked at its
   * first call by {@code ObjectMethods} (method handles spun at run time, which the AOT cache does
   * not hold), a few milliseconds of every diagnose's start.
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof RankId r
        && pid == r.pid
        && cudaDev == r.cudaDev
        && Objects.equals(host, r.host);
  }

  /**
   * The record's own hash, written out (see {@link #equals}): {@code RankIdTest} holds them equal.
   */
  @Override
  public int hashCode() {
    return (Objects.hashCode(host) * 31 + Long.hashCode(pid)) * 31 + cudaDev;
  }

  @Override
  public String toString() {
    return host + ":" + pid + " [" + cudaDev + "]";
  }
}
