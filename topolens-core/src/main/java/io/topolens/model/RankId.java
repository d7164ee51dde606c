package io.topolens.model;

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

  @Override
  public String toString() {
    return host + ":" + pid + " [" + cudaDev + "]";
  }
}
