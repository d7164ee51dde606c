package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which NCCL INFO messages are known and not kept: the messages of the repository's fixture {@code
 * fixtures/h200x4/verbose/fsdp-coll-subsys.log} (a real NCCL 2.2x run) and the forms beside them;
 * anything else stays unrecognized (counted and sampled).
 */
class KnownLinesTest {

  @ParameterizedTest(name = "{index}: {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "`CC Off, workFifoBytes 1048576` | true",
        "`Could not get speed from /sys/class/net/eth0/speed. Defaulting to 10 Gbps.` | true",
        "`NCCL_NVLS_ENABLE set by environment to 0.` | true",
        "`NET/Socket : Using [0]eth0:192.0.2.2<0>` | true",
        "`Topology detection : could not read /sys/devices/pci0000:00/0000:00:06.0/../max_link_speed,"
            + " ignoring` | true",
        "`+ PCI[48.0] - GPU/0-60 (0)` | true",
        "`0 : GPU/0-60 GPU/0-70 GPU/0-80 GPU/0-90` | true",
        "`init.cc:1798 Cuda Host Alloc Size 4 pointer 0x7f5dafe80400` | true",
        "`    AllReduce |     0.0/   0.0 |     8.4/ 188.0` | true",
        "`12 coll channels, 12 collnet channels, 0 nvls channels, 16 p2p channels` | true",
        "`` | true",
        // not known: left to be counted and sampled as unrecognized
        "`Cuda Host Alloc Size 4 pointer 0x7f5dafe80400` | false",
        "`nccl_debug set` | false",
        "`élan 0 : GPU/0-60` | false",
        "`0 : CPU/0` | false",
        "`Treetop 3` | false",
      })
  void tellsKnownMessages(String message, boolean known) {
    assertThat(KnownLines.isKnown(message)).isEqualTo(known);
  }

  /**
   * Every prefix, alone and followed by text, is known (none lost to the first-character index).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("prefixes")
  void knowsEveryPrefix(String prefix) {
    assertThat(KnownLines.isKnown(prefix)).isTrue();
    assertThat(KnownLines.isKnown(prefix + "x 0 1")).isTrue();
    assertThat(KnownLines.isKnown("\u00e9" + prefix)).isFalse();
  }

  static List<String> prefixes() {
    return KnownLines.PREFIXES;
  }
}
