package io.topolens.smi;

/**
 * The capability a {@code nvidia-smi topo -p2p <letter>} matrix reports. nvidia-smi does not print
 * it in the output; the reader takes it from the command line or marker before the matrix.
 */
public enum P2pMode {
  /** {@code r}: peer-to-peer read. */
  READ('r', "read"),
  /** {@code w}: peer-to-peer write. */
  WRITE('w', "write"),
  /** {@code n}: peer-to-peer over NVLink. */
  NVLINK('n', "nvlink"),
  /** {@code a}: peer-to-peer atomics. */
  ATOMICS('a', "atomics"),
  /** {@code p}: the "prop" capability (later help texts call it the PCIe capability). */
  PROP('p', "prop"),
  /** No command line or marker said which capability the matrix shows. */
  UNKNOWN('?', "unknown");

  private final char letter;
  private final String word;

  P2pMode(char letter, String word) {
    this.letter = letter;
    this.word = word;
  }

  /** The letter given to {@code -p2p}, or {@code ?}. */
  public char letter() {
    return letter;
  }

  /** The capability in one word. */
  public String word() {
    return word;
  }

  /** The mode of a {@code -p2p} letter, or {@link #UNKNOWN}. */
  public static P2pMode ofLetter(char c) {
    for (P2pMode m : values()) {
      if (m != UNKNOWN && m.letter == Character.toLowerCase(c)) {
        return m;
      }
    }
    return UNKNOWN;
  }
}
