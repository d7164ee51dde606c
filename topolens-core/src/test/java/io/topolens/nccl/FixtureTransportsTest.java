package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.model.Communicator;
import io.topolens.model.Edge;
import io.topolens.model.InputFile;
import io.topolens.model.Job;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The transports, communicators and members read from every measured H200 log and the seeds' own
 * logs, asserted exactly.
 */
class FixtureTransportsTest {

  static Stream<Arguments> fixtures() {
    return Stream.of(
        // file, distinct via texts, nRanks, members seen, nNodes (NCCL), channel-edges, version
        Arguments.of(
            "fixtures/h200x4/ar-p2p.log",
            Set.of("P2P/direct pointer"),
            4,
            4,
            1,
            96,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/ar-p2p-g2.log",
            Set.of("P2P/direct pointer"),
            2,
            2,
            1,
            48,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/ag-p2p.log",
            Set.of("P2P/direct pointer"),
            4,
            4,
            1,
            96,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/rs-p2p.log",
            Set.of("P2P/direct pointer"),
            4,
            4,
            1,
            96,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/ar-ring.log",
            Set.of("P2P/direct pointer"),
            4,
            4,
            1,
            96,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/ar-shm.log",
            Set.of("SHM/direct/direct"),
            4,
            4,
            1,
            16,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/ag-shm.log",
            Set.of("SHM/direct/direct"),
            4,
            4,
            1,
            16,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/ar-sock.log", Set.of("NET/Socket/0"), 4, 4, 4, 32, "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/fsdp/p2p.log", Set.of("P2P/CUMEM"), 4, 4, 1, 96, "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/fsdp/p2p-off.log",
            Set.of("P2P/CUMEM"),
            4,
            4,
            1,
            96,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/fsdp/shm.log",
            Set.of("SHM/direct/direct"),
            4,
            4,
            1,
            16,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/fsdp/sock.log",
            Set.of("NET/Socket/0"),
            4,
            4,
            4,
            16,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/fsdp/sock-off.log",
            Set.of("NET/Socket/0"),
            4,
            4,
            4,
            16,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/verbose/fsdp-info-timestamps.log",
            Set.of("P2P/CUMEM"),
            4,
            4,
            1,
            96,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "fixtures/h200x4/verbose/fsdp-coll-subsys.log",
            Set.of("P2P/CUMEM"),
            4,
            4,
            1,
            96,
            "2.28.9+cuda13.0"),
        Arguments.of(
            "seeds/004-eks-g6e-efa-fallback.log",
            Set.of("NET/Socket/0"),
            4,
            1,
            4,
            7,
            "2.27.3+cuda12.9"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void readsExactTransports(
      String file,
      Set<String> vias,
      int nRanks,
      int members,
      int nNodes,
      int channelEdges,
      String version) {
    Job job = Fixtures.read(file);

    Set<String> seen = new TreeSet<>();
    int edges = 0;
    for (Communicator c : job.communicators()) {
      for (Edge e : c.edges()) {
        seen.add(e.path().raw());
        edges += e.channels().size();
      }
    }
    Communicator main = job.communicators().get(0);
    assertThat(seen).isEqualTo(new TreeSet<>(vias));
    assertThat(edges).isEqualTo(channelEdges);
    assertThat(main.nRanks()).isEqualTo(nRanks);
    assertThat(main.members()).hasSize(members);
    assertThat(main.nNodes()).isEqualTo(nNodes);
    assertThat(job.ncclVersions()).containsExactly(version);
    assertThat(job.unrecognized().count())
        .as("unrecognized lines: %s", job.unrecognized().samples())
        .isZero();
    assertThat(job.inputs()).extracting(InputFile::problem).containsOnlyNulls();
  }

  @org.junit.jupiter.api.Test
  void seed001MixesShmSocketAndLibfabricWithoutGdr() {
    Job job = Fixtures.read("seeds/001-g6e-shm-socket-libfabric.log");
    List<String> vias =
        job.communicators().stream()
            .flatMap(c -> c.edges().stream())
            .map(e -> e.path().raw())
            .distinct()
            .sorted()
            .toList();
    assertThat(vias).containsExactly("NET/Libfabric/0", "NET/Socket/0", "SHM/direct/direct");
  }

  @org.junit.jupiter.api.Test
  void singleProcessRingOrderAndTreesAreRead() {
    Communicator c = Fixtures.read("fixtures/h200x4/ar-p2p.log").communicators().get(0);
    assertThat(c.commId()).isEqualTo("0xcac89040c63ed5df");
    assertThat(c.rings()).hasSize(24);
    assertThat(c.rings().get(0)).containsExactly(0, 1, 2, 3);
    // rank 1 on channel 0: parent 0, child 2 ("Trees [0] 2/-1/-1->1->0")
    assertThat(c.trees())
        .filteredOn(t -> t.rank() == 1 && t.channel() == 0)
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.parent()).isZero();
              assertThat(t.children()).containsExactly(2);
            });
    assertThat(c.members().get(3).id().cudaDev()).isEqualTo(3);
    assertThat(c.members().get(3).initCompleted()).isTrue();
  }

  @org.junit.jupiter.api.Test
  void seed004SplitCommunicatorKeepsItsParentAndTheBootstrapWait() {
    Job job = Fixtures.read("seeds/004-eks-g6e-efa-fallback.log");
    assertThat(job.communicators()).hasSize(2);
    Communicator parent =
        job.communicators().stream()
            .filter(c -> "0xbc42413ad5ab3a45".equals(c.commId()))
            .findFirst()
            .orElseThrow();
    Communicator split =
        job.communicators().stream().filter(c -> c.parentKey() != null).findFirst().orElseThrow();
    assertThat(split.parentKey()).isEqualTo(parent.key());
    assertThat(parent.members().get(0).bootstrapSeconds()).isEqualTo(59.827020);
    assertThat(parent.members().get(0).bootstrapRecvSeconds()).isEqualTo(59.819732);
    assertThat(parent.members().get(0).timingLine().line()).isEqualTo(39);
  }
}
