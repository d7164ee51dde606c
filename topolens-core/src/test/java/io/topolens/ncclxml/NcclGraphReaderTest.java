package io.topolens.ncclxml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.Fixtures;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NCCL graph files: the 4 x H200 dump (fixtures/h200x4/graph.xml, NCCL 2.28) and the public Azure
 * NCv4 file (public/nccl-xml/README.md), graph by graph.
 */
class NcclGraphReaderTest {

  @ParameterizedTest(name = "{0} graph {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
fixtures/h200x4/graph.xml | 0 | 0 | ring | RING | 12 | 30.0 | NVL | PIX | 1 | 0-1-2-3 x12
fixtures/h200x4/graph.xml | 1 | 1 | tree | BALANCED_TREE | 12 | 30.0 | NVL | PIX | 1 | 0-1-2-3 x12
fixtures/h200x4/graph.xml | 2 | 4 | collnet direct | COLLNET_DIRECT | 0 | 0.0 | LOC | LOC | 0 | -
fixtures/h200x4/graph.xml | 3 | 2 | collnet chain | TREE | 0 | 0.0 | LOC | LOC | 0 | -
fixtures/h200x4/graph.xml | 4 | 3 | nvls | NVLS | 0 | 0.0 | LOC | LOC | 0 | -
public/nccl-xml/003-azure-ncv4-4xa100-graph.xml | 0 | 0 | ring | RING | 2 | 12.0 | SYS | PIX | 0 | 0-1-2-3 0-3-2-1
public/nccl-xml/003-azure-ncv4-4xa100-graph.xml | 1 | 1 | tree | BALANCED_TREE | 4 | 12.0 | SYS | PIX | 0 | 0-1-2-3 1-0-3-2 3-2-1-0 2-3-0-1
public/nccl-xml/003-azure-ncv4-4xa100-graph.xml | 2 | 2 | collnet chain | TREE | 4 | 12.0 | SYS | PIX | 0 | 0-1-2-3 1-0-3-2 3-2-1-0 2-3-0-1
""")
  void graphs(
      String resource,
      int position,
      int id,
      String algorithm,
      GraphPattern pattern,
      int channels,
      double speed,
      NcclPathType intra,
      NcclPathType inter,
      int sameChannels,
      String orders)
      throws InputProblem {
    NcclGraphs gs = new NcclGraphReader().read(Fixtures.path(resource));
    assertThat(gs.version()).isEqualTo("1");
    assertThat(gs.unknown().count()).isZero();
    NcclGraph g = gs.graphs().get(position);
    assertThat(g.id()).isEqualTo(id);
    assertThat(gs.graph(id)).contains(g);
    assertThat(g.algorithm()).isEqualTo(algorithm);
    assertThat(g.patternKind()).isEqualTo(pattern);
    assertThat(g.pattern()).isEqualTo(pattern.value());
    assertThat(g.nChannels()).isEqualTo(channels);
    assertThat(g.channels()).hasSize(channels);
    assertThat(g.speedIntra()).isEqualTo(speed);
    assertThat(g.speedInter()).isEqualTo(speed);
    assertThat(g.latencyInter()).isZero();
    assertThat(g.crossNic()).isZero();
    assertThat(g.typeIntraKind()).isEqualTo(intra);
    assertThat(g.typeInterKind()).isEqualTo(inter);
    assertThat(g.sameChannels()).isEqualTo(sameChannels);
    assertThat(orders(g)).isEqualTo(orders);
    assertThat(g.channels()).allSatisfy(c -> assertThat(c.nets()).isEmpty());
  }

  /** "0-1-2-3 x12" when every channel is the same, else every channel's GPU order. */
  private static String orders(NcclGraph g) {
    if (g.channels().isEmpty()) {
      return "-";
    }
    List<String> each =
        g.channels().stream()
            .map(c -> String.join("-", c.gpus().stream().map(String::valueOf).toList()))
            .toList();
    boolean same = each.stream().distinct().count() == 1 && each.size() > 2;
    return same ? each.getFirst() + " x" + each.size() : String.join(" ", each);
  }

  @Test
  void hexDeviceIdsAsNewerNcclWritesThem() throws InputProblem {
    NcclGraph ring =
        new NcclGraphReader()
            .read(Fixtures.path("fixtures/h200x4/graph.xml"))
            .graph(0)
            .orElseThrow();
    List<ChannelDevice> devices = ring.channels().getFirst().devices();
    assertThat(devices).extracting(ChannelDevice::text).containsExactly("0", "0x1", "0x2", "0x3");
    assertThat(devices).extracting(ChannelDevice::dev).containsExactly(0L, 1L, 2L, 3L);
    assertThat(devices).allSatisfy(d -> assertThat(d.kind()).isEqualTo(ChannelDevice.Kind.GPU));
    assertThat(devices.get(1).evidence().line()).isEqualTo(5);
  }

  @Test
  void patternsByName() throws InputProblem {
    NcclGraphs gs = new NcclGraphReader().read(Fixtures.path("fixtures/h200x4/graph.xml"));
    assertThat(gs.byPattern(GraphPattern.RING)).extracting(NcclGraph::id).containsExactly(0);
    assertThat(gs.byPattern(GraphPattern.NVLS)).extracting(NcclGraph::id).containsExactly(3);
    assertThat(Arrays.stream(GraphPattern.values()).map(GraphPattern::value))
        .containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(GraphPattern.of(7)).isNull();
  }

  @Test
  void topologyFileIsNotAGraph() {
    assertThatThrownBy(() -> new NcclGraphReader().read(Fixtures.path("fixtures/h200x4/topo.xml")))
        .isInstanceOf(InputProblem.class)
        .hasMessageEndingWith("not an NCCL graph file (root element <system>, not <graphs>)");
  }

  @Test
  void mismatchedTagIsAnInputProblemWithLine() throws IOException {
    String text = Files.readString(Fixtures.path("fixtures/h200x4/graph.xml"));
    String bad = text.replaceFirst("</channel>", "</chanel>");
    assertThatThrownBy(() -> new NcclGraphReader().read("graph-bad.xml", bad))
        .isInstanceOf(InputProblem.class)
        .hasMessageStartingWith("graph-bad.xml:8: malformed XML: ");
  }
}
