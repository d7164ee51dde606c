package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** MPI's UCX transport could not connect the ranks, before or beside NCCL. */
class MpiTransportErrorRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "Open MPI's btl tcp reaching another node's process over a shared bridge address"
                    + " (btl_tcp_endpoint.c's format, values filled in)",
                """
                [node1][[41234,1],0][btl_tcp_endpoint.c:626:mca_btl_tcp_endpoint_recv_connect_ack] received unexpected process identifier [[41234,1],3]
                """)
            .expect(
                error(
                        "Open MPI's TCP transport (btl tcp) reached the wrong process or none",
                        "btl_tcp_if_include")
                    .lacks("UCX_TLS")
                    .at("a.log:1")),
        given(
                "nccl-tests between two SR-IOV pods: UCX's address handle on a VF the peer lacks"
                    + " (https://github.com/NVIDIA/nccl-tests/issues/327, sweep 19 v05)",
                """
                mpirun --allow-run-as-root -np 2 -host localhost,192.168.160.14 /opt/nccl_tests/build/all_reduce_perf -b 8 -e 2048M -f 2 -g 1

                ib_device.c:1380 UCX  ERROR   ibv_create_ah(dlid=49152 sl=0 port=1 src_path_bits=0 dgid=fe80::f4f9:72ff:fe1d:ea79 flow_label=0xffffffff sgid_index=0 traffic_class=0) for RC DEVX QP connect on mlx5_15 failed: No such device
                """)
            .expect(
                error(
                        "MPI's UCX transport could not connect the ranks",
                        "SR-IOV",
                        "-mca pml ob1 -mca btl tcp,self")
                    .lacks("orted")
                    .at("a.log:3")),
        given(
                "nccl-tests between nodes: UCX's TCP to docker0's address refused, Open MPI could"
                    + " not resolve the peers (https://github.com/NVIDIA/nccl-tests/issues/180)",
                """
                 mpirun --allow-run-as-root  -np 4 -hostfile hostfile ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 4
                [1700554343.440877] [10-192-80-132:7356 :0]            sock.c:323  UCX  ERROR   connect(fd=48, dest_addr=172.17.0.1:42887) failed: Connection refused
                [1700554343.440876] [10-192-80-132:7355 :0]            sock.c:323  UCX  ERROR   connect(fd=48, dest_addr=172.17.0.1:40235) failed: Connection refused
                [10-192-80-132.cls-gebgk6vq.ecp.shopeemobile.com:07356] pml_ucx.c:424  Error: ucp_ep_create(proc=3) failed: Destination is unreachable
                [10-192-80-132.cls-gebgk6vq.ecp.shopeemobile.com:07356] pml_ucx.c:477  Error: Failed to resolve UCX endpoint for rank 3
                [10-192-80-132:07356] *** An error occurred in MPI_Allgather
                [10-192-80-132:07356] *** MPI_ERR_OTHER: known error not in list
                """)
            .expect(
                error("MPI's UCX transport could not connect the ranks", "UCX_NET_DEVICES")
                    .at("a.log:2", "a.log:5")),
        given(
                "Open MPI's pml ucx alone, UCX's socket timed out"
                    + " (https://github.com/open-mpi/ompi/issues/8003)",
                """
                [node6116:69399] pml_ucx.c:383  Error: ucp_ep_create(proc=95) failed: Destination is unreachable
                [node6116:69399] pml_ucx.c:453  Error: Failed to resolve UCX endpoint for rank 95
                [node6116:69399] *** An error occurred in MPI_Allgather
                """)
            .expect(error("MPI's UCX transport could not connect the ranks").at("a.log:2")),
        given(
                "MPICH over UCX asked for transports the node lacks: its warning, then its error"
                    + " (https://github.com/openucx/ucx/issues/9610)",
                """
                [1705555968.594314] [c204-009:189455:0]     ucp_context.c:1081 UCX  WARN  transports 'knem','dc_x','rc' are not available, please use one or more of: mm, posix, self, shm, sm, sysv, tcp
                [1705555968.594329] [c204-009:189455:0]     ucp_context.c:1345 UCX  ERROR no usable transports/devices (asked knem,dc_x,rc on all devices)
                """)
            .expect(error("MPI's UCX transport could not connect the ranks").at("a.log:2")),
        given(
            "UCX's warning of a transport not available, alone: the job ran on the others"
                + " (https://github.com/openucx/ucx/issues/9610's first line)",
            """
            [1705555968.594314] [c204-009:189455:0]     ucp_context.c:1081 UCX  WARN  transports 'knem','dc_x','rc' are not available, please use one or more of: mm, posix, self, shm, sm, sysv, tcp
            """),
        given(
            "UCX's INFO and DEBUG lines of a healthy start (https://github.com/openucx/ucx/issues/9908)",
            """
            [1716918990.407988] [gpu1:2588768:0]     ucp_context.c:2137 UCX  INFO  Version 1.16.0 (loaded from /opt/ml4sw/MPI/ucx-1.16.0/lib/libucp.so.0)
            [1716918990.407994] [gpu1:2588768:0]     ucp_context.c:1904 UCX  DEBUG estimated number of endpoints is 1
            [1716918989.031305] [gpu1:2588768:0]             cpu.c:339  UCX  DEBUG measured tsc frequency 1993.110 MHz after 0.30 ms
            """),
        given(
            "NCCL's own UCX plugin failing to register memory is NCCL's, not MPI's"
                + " (https://github.com/NVIDIA/nccl/issues/1175)",
            """
            [1707768585.533429] [compute-8:1458299:0]          uct_md.c:560  UCX  ERROR uct_md_mem_reg(address=(nil) length=140222665224192): invalid parameters
            [1707768585.533445] [compute-8:1458299:0]          ucp_mm.c:63   UCX  ERROR failed to register address (nil) (cuda) length 140222665224192 on md[1]=cuda_ipc: Invalid parameter (md supports: cuda)

            compute-8:1458299:1458532 [3] ucx_plugin.c:539 NCCL WARN Failed: UCX error ucx_plugin.c:539 '-5' Invalid parameter
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new MpiTransportError(), "mpi-transport-error", c);
  }
}
