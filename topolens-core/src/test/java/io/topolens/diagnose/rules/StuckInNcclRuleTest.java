package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * stuck-in-nccl on stack dumps from public threads (verbatim frames; nccl/failures/README.md lists
 * the sources): where NCCL waited, by its frames.
 */
class StuckInNcclRuleTest {

  /** gdb's backtrace of a rank hung under CUDA_LAUNCH_BLOCKING=1 (nccl issue 750, frames 10-15). */
  static final String LAUNCH_BLOCKING =
      """
      #10 0x00007fec9ae67f06 in cudaLaunchKernel () from /lib/libcudart.so.11.4.108
      #11 0x00007fecdf7d6cf9 in ncclStrongStreamLaunchKernel(ncclCudaGraph, ncclStrongStream*, void*, dim3, dim3, void**, unsigned long) ()
      #12 0x00007fecdf7a56c8 in ncclLaunchKernel(ncclComm*, ncclKernelPlan*) ()\s
      #13 0x00007fecdf7c494d in ncclGroupEndInternal() ()\s
      #14 0x00007fecdf7c5301 in ncclGroupEnd () from\s
      #15 0x00007fecdf794f4c in torch::cuda::nccl::AutoNcclGroup::~AutoNcclGroup() ()\s
      """;

  /** gdb's backtrace of the master's init thread, DDP's constructor hung (pytorch issue 52916). */
  static final String INIT =
      """
      Thread 15 (Thread 0x7f003cffd700 (LWP 20292)):
      #0  0x00007f012d6496a7 in __libc_accept (fd=30, addr=addr@entry=..., len=len@entry=0x7f003cfe435c) at ../sysdeps/unix/sysv/linux/accept.c:26
      #1  0x00007f00ad990a6e in bootstrapNetAccept (listenComm=0x7f0018006620, recvComm=recvComm@entry=0x7f003cfe43c0) at bootstrap.cc:106
      #2  0x00007f00ad992565 in bootstrapInit (id=id@entry=0x7f003cffce70, rank=rank@entry=0, nranks=nranks@entry=2, commState=commState@entry=0x7f0018005070) at bootstrap.cc:315
      #3  0x00007f00ad9599a8 in initTransportsRank (comm=comm@entry=0x7f0018001060, commId=commId@entry=0x7f003cffce70) at init.cc:555
      #4  0x00007f00ad95cd2a in ncclCommInitRankSync (newcomm=0x5294aa0, nranks=2, commId=..., myrank=0, cudaDev=<optimized out>) at init.cc:840
      #5  0x00007f00ad956c10 in ncclAsyncThreadMain (args_=0x6c840f50) at group.cc:73
      """;

  /** gdb's thread of NCCL's IB async events alone (nccl issue 719). */
  static final String IB_ASYNC =
      """
      Thread 10 (Thread 0x7fd0a1ffd700 (LWP 103)):
      #0  0x00007fd31dfd7474 in __libc_read (fd=36, buf=0x7fd0a1ffce70, nbytes=16) at ../sysdeps/unix/sysv/linux/read.c:27
      #1  0x00007fd24ceb415f in ibv_get_async_event () from /usr/lib/x86_64-linux-gnu/libibverbs.so.1
      #2  0x00007fd2e7175da2 in wrap_ibv_get_async_event (context=context@entry=0x559abaf04850, event=event@entry=0x7fd0a1ffced0) at misc/ibvwrap.cc:220
      #3  0x00007fd2e7127003 in ncclIbAsyncThreadMain (args=0x559abaf04850) at transport/net_ib.cc:70
      """;

  static Stream<Logs.Case> cases() {
    return Stream.of(
        given(
                "py-spy in the launch path's FIFO wait (nccl issue 1251)",
                KnownNcclBugRuleTest.FIFO_STACK)
            .expect(
                warn(
                        "A stack dump shows NCCL launching an NCCL kernel",
                        "8 frame(s) of NCCL's code (waitWorkFifoAvailable, uploadWork,"
                            + " ncclLaunchKernelBefore_NoUncapturedCuda, doLaunches, groupLaunch,"
                            + " ncclGroupEndInternal)",
                        "the known-bug catalog's entry cuda-graph-work-fifo-leak-2.20",
                        "NCCL of 2.22.3 or later")
                    .lacks("text-generation-inference PR 2099")
                    .at(
                        "a.log:2", "a.log:3", "a.log:4", "a.log:5", "a.log:6", "a.log:7",
                        "a.log:9")),
        given("gdb in cudaLaunchKernel under NCCL's launch (nccl issue 750)", LAUNCH_BLOCKING)
            .expect(
                warn("launching an NCCL kernel", "CUDA_LAUNCH_BLOCKING=1", "nccl issue 750")
                    .lacks("cuda-graph-work-fifo-leak-2.20")
                    .at("a.log:2", "a.log:3", "a.log:4", "a.log:5")),
        given("gdb in communicator init (pytorch issue 52916)", INIT)
            .expect(
                warn(
                        "creating a communicator",
                        "(bootstrapNetAccept, bootstrapInit, initTransportsRank,"
                            + " ncclCommInitRankSync, ncclAsyncThreadMain)",
                        "NCCL_SOCKET_IFNAME")
                    .at("a.log:3", "a.log:4", "a.log:5", "a.log:6", "a.log:7")),
        given("gdb of NCCL's IB async thread only (nccl issue 719)", IB_ASYNC)
            .expect(
                warn(
                        "background threads only",
                        "(wrap_ibv_get_async_event, ncclIbAsyncThreadMain)",
                        "says nothing of the hang by itself")
                    .at("a.log:4", "a.log:5")),
        given(
                "gdb of group.cc's async thread alone (pytorch issue 52916's frame 5): the group's"
                    + " init, not a background thread",
                "#5  0x00007f00ad956c10 in ncclAsyncThreadMain (args_=0x6c840f50) at group.cc:73\n")
            .expect(
                warn("creating a communicator", "(ncclAsyncThreadMain)")
                    .lacks("background")
                    .at("a.log:1")),
        given(
            "NCCL's INFO lines, no stack",
            "node1:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Logs.Case c) {
    Logs.check(new StuckInNccl(), "stuck-in-nccl", c);
  }

  /** The catalog entry the FIFO wait points at exists (its text is the entry's, not restated). */
  @org.junit.jupiter.api.Test
  void fifoLeakEntryIsInTheCatalog() {
    org.assertj.core.api.Assertions.assertThat(
            io.topolens.catalog.KnownNcclBug.bundled().stream()
                .map(io.topolens.catalog.KnownNcclBug::id))
        .contains(StuckInNccl.FIFO_LEAK);
  }
}
