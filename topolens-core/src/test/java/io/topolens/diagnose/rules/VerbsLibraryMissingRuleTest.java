package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.info;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NCCL's {@code Failed to open libibverbs.so[.1]}: a WARN in 2.1-2.10 (misc/ibvwrap.cu,
 * ibvwrap.cc), an INFO line after (ibvwrap.cc, ibvsymbols.cc), said as what it is and judged by the
 * job's nodes.
 */
class VerbsLibraryMissingRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "2.3.7 under Horovod, four ranks of one host and no communicator line: the nodes are"
                    + " not known (horovod issue 969, held-out set 27 l01)",
                """
                [1,0]<stdout>:ptv-gpu01:11007:11098 [0] misc/ibvwrap.cu:63 NCCL WARN Failed to open libibverbs.so[.1]
                [1,0]<stdout>:ptv-gpu01:11007:11098 [0] NCCL INFO Using internal Network Socket
                [1,0]<stdout>:ptv-gpu01:11007:11098 [0] NCCL INFO NET : Using interface enp14s0:10.128.5.150<0>
                [1,2]<stdout>:ptv-gpu01:11009:11097 [2] misc/ibvwrap.cu:63 NCCL WARN Failed to open libibverbs.so[.1]
                """)
            .expect(
                info(
                        "no IB/RoCE transport in this process",
                        "Harmless where the job runs on one node or the hosts have no RDMA NICs",
                        "install rdma-core's libibverbs1 and ibverbs-providers")
                    .lacks("This job spans nodes", "This job runs on one node")
                    .at("a.log:1")),
        given(
                "2.9.6 nccl-tests under mpirun on two hosts: the job spans nodes, its traffic"
                    + " between them over sockets (nccl-tests issue 82, held-out set 27 l16)",
                """
                (base) gandiva@v100-gpu-1:~/nccl-tests$ mpirun --bind-to none --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include 10.0.0.0/24 -x NCCL_DEBUG=WARN -x NCCL_ALGO=Ring -x NCCL_PROTO=Simple -x NCCL_IB_DISABLE=1 -x NCCL_NSOCKS_PERTHREAD=8 -x NCCL_SOCKET_NTHREADS=4 -x NCCL_MAX_NCHANNELS=2 -x NCCL_MIN_NCHANNELS=2 -x NCCL_SOCKET_IFNAME=eth0 -np 2 --host 10.0.0.48:1,10.0.0.52:1 ./build/broadcast_perf -b 8 -e 2G -w 10 -f 2 -g 1 -n 100 -c 0

                v100-gpu-1:14926:14926 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]
                NCCL version 2.9.6+cuda11.2

                v100-gpu-5:9210:9210 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]
                """)
            .expect(
                info(
                        "This job spans nodes (mpirun places its ranks on 2 hosts)",
                        "traffic between nodes runs over TCP sockets")
                    .lacks("Harmless where")
                    .at("a.log:3")),
        given(
            "2.19.3 prints the same words as an INFO line: NCCL no longer warns, neither does this"
                + " rule (nccl issue 1812)",
            """
            paraai-n32-h-01-agent-18:749452:749484 [3] NCCL INFO Failed to open libibverbs.so[.1]
            paraai-n32-h-01-agent-18:749452:749484 [3] NCCL INFO NET/Socket : Using [0]eth0:172.16.4.235<0> [1]enp194s0f0:29.27.161.247<0>
            """),
        given(
            "another WARN of no known kind is not this (2.28.3 misc/ibvwrap.cc:120, messages.tsv: the catch-all's)",
            """
            node-a:4021:4090 [0] misc/ibvwrap.cc:120 NCCL WARN lib wrapper not initialized.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new VerbsLibraryMissing(), "verbs-library-missing", c);
  }
}
