package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Stack frames of NCCL's code in the forms users paste, each line verbatim from a public thread
 * (nccl/failures/README.md lists them): py-spy (nccl issue 1251), gdb without and with arguments
 * (nccl issue 750, pytorch issue 52916, nccl issue 719). Frames of the framework or CUDA that
 * merely sit beside NCCL's are no NCCL frame.
 */
class StackFrameLineTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // line | function, or - for no NCCL frame | source, or - | depth
        "ncclLaunchKernelBefore_NoUncapturedCuda (enqueue.cc:1008)"
            + " | ncclLaunchKernelBefore_NoUncapturedCuda | enqueue.cc:1008 | -1",
        "ncclGroupEndInternal (group.cc:423) | ncclGroupEndInternal | group.cc:423 | -1",
        "sched_yield (libc.so.6) | - | - | 0",
        // NCCL's own file or internal function, no "nccl" on the line (close22): set 21's d03
        // (text-generation-inference PR 2099), nccl issue 719's proxy and IB threads
        "waitWorkFifoAvailable (enqueue.cc:745) | waitWorkFifoAvailable | enqueue.cc:745 | -1",
        "doLaunches (group.cc:161) | doLaunches | group.cc:161 | -1",
        "groupLaunch (group.cc:339) | groupLaunch | group.cc:339 | -1",
        "'#1  0x00007fd2e7134db5 in persistentThread (comm_=0x7fd088002f70) at proxy.cc:456'"
            + " | persistentThread | proxy.cc:456 | 1",
        "'#2  0x00007fd2e7175da2 in wrap_ibv_get_async_event (context=context@entry=0x559abaf04850,"
            + " event=event@entry=0x7fd0a1ffced0) at misc/ibvwrap.cc:220'"
            + " | wrap_ibv_get_async_event | misc/ibvwrap.cc:220 | 2",
        // nccl issue 901: the proxy service thread's poll, a libc frame beside NCCL's
        "'#1  0x00007f539f454da7 in poll (__timeout=500, __nfds=65, __fds=0x7f53817f09e0) at"
            + " /usr/include/x86_64-linux-gnu/bits/poll2.h:46' | - | - | 0",
        "'#2  ncclProxyService (_args=0x55d847bc00c0) at proxy.cc:1437'"
            + " | ncclProxyService | proxy.cc:1437 | 2",
        // built: a framework's own init.cc is not NCCL's only by its file when it names a class
        "'#4  0x00007f00ad95cd2a in c10d::Foo::init (this=0x1) at init.cc:40' | - | - | 0",
        // built: another project's file of the same base name, in a folder NCCL does not have
        // (gRPC's src/core/lib/surface/init.cc, gloo's transport/tcp/socket.cc) is not NCCL's
        "'#3  0x00007f00ad95cd2a in grpc_init () at src/core/lib/surface/init.cc:146' | - | - | 0",
        "'#5  0x00007f00ad95cd2a in do_connect (fd=3) at gloo/transport/tcp/socket.cc:88'"
            + " | - | - | 0",
        // built: NCCL's file under a build path that names nccl, or in NCCL's src/
        "'#3  0x00007f00ad95cd2a in waitWorkFifoAvailable (comm=0x1) at"
            + " /dvs/p4/build/sw/gpgpu/nccl/gitfusion/stable/src/enqueue.cc:745'"
            + " | waitWorkFifoAvailable | /dvs/p4/build/sw/gpgpu/nccl/gitfusion/stable/src/enqueue.cc:745"
            + " | 3",
        "'#3  0x00007f00ad95cd2a in waitWorkFifoAvailable (comm=0x1) at /build/src/enqueue.cc:745'"
            + " | waitWorkFifoAvailable | /build/src/enqueue.cc:745 | 3",
        // built: the bootstrap's functions without any file or library
        "'#3  0x00007f00ad95cd2a in bootstrapNetAccept () ' | bootstrapNetAccept | - | 3",
        "'#3  0x00007f00ad95cd2a in bootstrapped () ' | - | - | 0",
        "'#12 0x00007fecdf7a56c8 in ncclLaunchKernel(ncclComm*, ncclKernelPlan*) () '"
            + " | ncclLaunchKernel | - | 12",
        "'#11 0x00007fecdf7d6cf9 in ncclStrongStreamLaunchKernel(ncclCudaGraph, ncclStrongStream*,"
            + " void*, dim3, dim3, void**, unsigned long) ()' | ncclStrongStreamLaunchKernel | - | 11",
        "'#14 0x00007fecdf7c5301 in ncclGroupEnd () from ' | ncclGroupEnd | - | 14",
        "'#15 0x00007fecdf794f4c in torch::cuda::nccl::AutoNcclGroup::~AutoNcclGroup() () '"
            + " | - | - | 0",
        "'#10 0x00007fec9ae67f06 in cudaLaunchKernel () from /lib/libcudart.so.11.4.108'"
            + " | - | - | 0",
        "'#4  0x00007f00ad95cd2a in ncclCommInitRankSync (newcomm=0x5294aa0, nranks=2,"
            + " commId=..., myrank=0, cudaDev=<optimized out>) at init.cc:840'"
            + " | ncclCommInitRankSync | init.cc:840 | 4",
        "'#3  0x00007fd2e7127003 in ncclIbAsyncThreadMain (args=0x559abaf04850) at"
            + " transport/net_ib.cc:70' | ncclIbAsyncThreadMain | transport/net_ib.cc:70 | 3",
        // an NCCL INFO line holds parentheses too
        "'node1:1:1 [0] NCCL INFO comm 0x55d0 rank 0 nranks 2 cudaDev 0 busId 1000 (nccl)'"
            + " | - | - | 0",
      })
  void readsFrame(String line, String function, String source, int depth) {
    NcclEvent.Frame f = StackFrameLine.parse(line);
    if (function.equals("-")) {
      assertThat(f).isNull();
      return;
    }
    assertThat(f)
        .isEqualTo(new NcclEvent.Frame(function, source.equals("-") ? null : source, depth));
  }
}
