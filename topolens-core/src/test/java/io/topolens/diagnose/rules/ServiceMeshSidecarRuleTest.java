package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;
import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.diagnose.rules.Logs.Case;
import io.topolens.model.Cluster;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A service mesh's sidecar proxy between the job's processes: Envoy's refusals and its lines that
 * show it on a port of the pod, and (with {@code diagnose --job}) the pods' proxy containers.
 */
class ServiceMeshSidecarRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "Open Service Mesh's Envoy refusing a connection, the issue's title"
                    + " (https://github.com/openservicemesh/osm/issues/5042)",
                """
                rbac_access_denied_matched_policy[none] by using AuthenticatedPrincipal
                """)
            .expect(
                error(
                        "A service mesh sidecar refused the job's traffic",
                        "no AuthorizationPolicy",
                        "sidecar.istio.io/inject: \"false\"")
                    .at("a.log:1")),
        given(
                "Istio's Envoy refusing a Kubeflow pipeline pod's request to another pod, the issue's"
                    + " title (https://github.com/tensorflow/tfx/issues/3893)",
                """
                InfraValidator got "RBAC: access denied" on Kubeflow
                """)
            .expect(error("A service mesh sidecar refused the job's traffic").at("a.log:1")),
        given(
                "the sidecar's debug lines on a PyTorchJob's rendezvous port 23456 while"
                    + " init_process_group hung (https://github.com/kubeflow/trainer/issues/1636)",
                """
                2022-07-19T18:01:59.173796Z\tdebug\tenvoy connection\t[C72] remote early close
                2022-07-19T18:01:59.211667Z\tdebug\tenvoy upstream\tmembership update for TLS cluster inbound|23456|| added 0 removed 1
                2022-07-19T18:01:59.211713Z\tdebug\tenvoy upstream\tremoving hosts for TLS cluster inbound|23456|| removed 1
                """)
            .expect(
                warn("A service mesh sidecar proxies the job's traffic", "init_process_group")
                    .lacks("refused the job's traffic", "RBAC filter")
                    .at("a.log:2", "a.log:3")),
        given(
            "Envoy allowing a request is no refusal (https://github.com/envoyproxy/envoy/issues/36346)",
            """
            [2024-09-26 11:40:13.329][3492045][debug][rbac] [source/extensions/filters/http/rbac/rbac_filter.cc:182] enforced allowed, matched policy whitelist
            """),
        given(
            "an init container's refused API call before the proxy started holds no line of the"
                + " mesh: there only --job's containers show it"
                + " (https://github.com/kubeflow/mpi-operator/issues/407)",
            """
            Failed to list *v1.Pod: Get https://10.43.0.1:443/api/v1/namespaces/adrian/pods?limit=500&resourceVersion=0: dial tcp 10.43.0.1:443: connect: connection refused
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new ServiceMeshSidecar(), "service-mesh-sidecar", c);
  }

  /** diagnose --job: the pods' containers, as the collector names them. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "'pytorch istio-proxy', 1",
    "'pytorch linkerd-proxy', 1",
    "'pytorch', 0",
    "'launcher', 0",
  })
  void namesAProxyContainerOfAPod(String containers, int findings) {
    Cluster cluster =
        new Cluster(
            List.of(),
            List.of(
                new Cluster.PodRequest(
                    "pytorch-simple-master-0", "n1", 0, List.of(containers.split(" ")))));
    List<Finding> out =
        new ServiceMeshSidecar()
            .check(
                new Observed(Logs.job(""), List.of(), List.of(), null, List.of(), cluster, null));
    assertThat(out).hasSize(findings);
    if (findings > 0) {
      assertThat(out.getFirst().severity()).isEqualTo(Severity.WARN);
      assertThat(out.getFirst().evidence().getFirst().file())
          .isEqualTo("pod pytorch-simple-master-0");
      assertThat(out.getFirst().evidence().getFirst().text())
          .isEqualTo("runs container " + containers.split(" ")[1]);
    }
  }
}
