package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.CollectiveTimeout;
import io.topolens.model.Job;
import io.topolens.model.NcclFailure;
import io.topolens.model.NcclWarning;
import io.topolens.model.PrintedVersion;
import io.topolens.model.Rank;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lines frameworks print about NCCL without NCCL's header, and NCCL lines that lost their header,
 * from the real excerpts in nccl/failures (sources in its README): each is read, counted as an NCCL
 * line, and kept with what it says.
 */
class FrameworkLinesTest {

  /** file, NCCL lines, failures as "rank result version", timeouts as "rank seq op in out ms". */
  static Stream<Arguments> excerpts() {
    return Stream.of(
        Arguments.of(
            "nvls-bind-distbackenderror-pytorch-177472.log",
            4,
            List.of("-1 ncclUnhandledCudaError 2.29.3", "-1 ncclUnhandledCudaError null"),
            List.of()),
        Arguments.of(
            "internal-error-no-last-error-aws-ofi-nccl-316.log",
            2,
            List.of("-1 ncclInternalError 2.18.5", "-1 ncclInternalError null"),
            List.of()),
        Arguments.of(
            "socket-ifname-missing-af-inet-nccl-1837.log",
            5,
            List.of("-1 ncclInternalError null"),
            List.of()),
        Arguments.of(
            "p2p-ipc-217-ray-lightning-24.log",
            8,
            List.of("-1 ncclUnhandledCudaError 2.7.8"),
            List.of()),
        Arguments.of(
            "watchdog-same-call-llamafactory-7396.log",
            4,
            List.of(),
            List.of(
                "0 1580 ALLREDUCE 466119168 466119168 600000 600060",
                "4 1580 ALLREDUCE 466119168 466119168 600000 600067")),
        Arguments.of(
            "watchdog-old-format-ofa-271.log",
            5,
            List.of(),
            List.of(
                "1 469508 ALLREDUCE -1 -1 1800000 1802212",
                "3 469508 ALLREDUCE -1 -1 1800000 1802211",
                "2 469508 ALLREDUCE -1 -1 1800000 1802212",
                "6 469508 ALLREDUCE -1 -1 1800000 1802210",
                "7 469508 ALLREDUCE -1 -1 1800000 1802220")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("excerpts")
  void readsFrameworkLines(
      String file, int ncclLines, List<String> failures, List<String> timeouts) {
    Job job = read(file);
    assertThat(job.inputs().get(0).ncclLines()).isEqualTo(ncclLines);
    assertThat(job.failures())
        .extracting(f -> f.rank() + " " + f.result() + " " + f.ncclVersion())
        .containsExactlyElementsOf(failures);
    assertThat(job.timeouts())
        .extracting(
            t ->
                t.rank()
                    + " "
                    + t.seq()
                    + " "
                    + t.op()
                    + " "
                    + t.numelIn()
                    + " "
                    + t.numelOut()
                    + " "
                    + t.timeoutMs()
                    + " "
                    + t.ranForMs())
        .containsExactlyElementsOf(timeouts);
  }

  @Test
  void lastErrorTextIsNcclsWarningOnTheNextLine() {
    Job job = read("nvls-bind-distbackenderror-pytorch-177472.log");
    assertThat(job.warnings()).hasSize(1);
    NcclWarning w = job.warnings().get(0);
    assertThat(w.kind()).isEqualTo(NcclWarning.Kind.NVLS);
    assertThat(w.process()).isEmpty();
    assertThat(w.evidence().line()).isEqualTo(4);
    assertThat(w.message())
        .startsWith("Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152");
    // the launcher's prefix before "Last error:" is dropped from the text after it
    NcclWarning socket = read("socket-ifname-missing-af-inet-nccl-1837.log").warnings().get(0);
    assertThat(socket.kind()).isEqualTo(NcclWarning.Kind.SOCKET);
    assertThat(socket.message())
        .isEqualTo(
            "ncclSocketInit: connecting to address  with family 59936 is neither AF_INET(2) nor"
                + " AF_INET6(10)");
  }

  @Test
  void headerlessLinesAreTheirDevicesLines() {
    Job job = read("headerless-redacted-nccl-1466.log");
    assertThat(job.inputs().get(0).ncclLines()).isEqualTo(16);
    assertThat(job.unrecognized().count()).isZero();
    assertThat(job.ranks()).extracting(r -> r.id().cudaDev()).containsExactly(0, 1, 2, 3);
    assertThat(job.ranks()).extracting(Rank::id).allMatch(id -> id.host().equals("?"));
    assertThat(job.communicators().get(0).nRanks()).isEqualTo(4);
    assertThat(job.communicators().get(0).members()).hasSize(4);
  }

  /** {@code [3] NCCL INFO} with nothing before it, and a WARN with its source location. */
  @Test
  void bareDeviceBracket() {
    Job job =
        readText(
            """
            [3] NCCL INFO comm 0x56300ffd3cf0 rank 3 nRanks 4 nNodes 1 localRanks 4 localRank 3 MNNVL 0
            [3] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device
            register_mr_buffers:544 NCCL WARN NET/OFI Unable to register memory (type = 2) for device 0. RC: -22, Error: Invalid argument
            """);
    assertThat(job.inputs().get(0).ncclLines()).isEqualTo(3);
    assertThat(job.unrecognized().count()).isZero();
    assertThat(job.ranks()).extracting(r -> r.id().cudaDev()).containsExactly(3);
    assertThat(job.warnings())
        .extracting(NcclWarning::kind)
        .containsExactly(NcclWarning.Kind.SHM, NcclWarning.Kind.NET_PLUGIN);
  }

  /**
   * NCCL lines whose header a logger rewrote or that were quoted in prose, and NCCL's NVLS text
   * alone (nccl/heldout h07, h08, h11): read with host {@code ?} and an unknown device.
   */
  @Test
  void rewrittenQuotedAndBareLines() {
    Job job =
        readText(
            """
            [03/16][2025-02-25 15:46:48,389] [misc/socket.cc:602] [s11gn1268:pid=3987720] NCCL WARN socketPollConnect poll() failed, ret 1, error Connection timed out, revents 8, connect to 172.16.30.229:39953
            "NCCL INFO Call to connect returned Connection refused, retrying "
              Failed to bind NVLink SHARP (NVLS) Multicast memory: CUDA error 401
            """);
    assertThat(job.inputs().get(0).ncclLines()).isEqualTo(3);
    assertThat(job.unrecognized().count()).isZero();
    assertThat(job.warnings())
        .extracting(w -> w.kind() + " " + w.message())
        .containsExactly(
            "SOCKET socketPollConnect poll() failed, ret 1, error Connection timed out, revents 8,"
                + " connect to 172.16.30.229:39953",
            "SOCKET Call to connect returned Connection refused, retrying",
            "NVLS Failed to bind NVLink SHARP (NVLS) Multicast memory: CUDA error 401");
  }

  /**
   * NCCL's result as callers' checks print it: nccl-tests' NCCLCHECK with and without the host and
   * the last error, older tests' {@code NCCL failure}, PyTorch 1.x's {@code NCCL Error N: REASON}
   * (nccl/heldout set10 z04, z08). Prose with the same words, a non-location or a result NCCL has
   * no words for are not failures.
   */
  @Test
  void callersChecksOfNcclResults() {
    Job job =
        readText(
            """
            fastmoe: Test NCCL failure common.cu:777 'unhandled system error'
            Test NCCL failure common.cu:777 'unhandled cuda error'
            node1: Test NCCL failure common.cu:1005 'remote process exited or there was a network error / NET/IB : Got async event : port error'
            NCCL failure common.cu:456 'invalid argument'
            RuntimeError: NCCL Error 2: unhandled system error
            NCCL error 5: invalid usage (run with NCCL_DEBUG=WARN for details)
            """);
    assertThat(job.inputs().get(0).ncclLines()).isEqualTo(6);
    assertThat(job.failures())
        .extracting(NcclFailure::result)
        .containsExactly(
            "ncclSystemError",
            "ncclUnhandledCudaError",
            "ncclRemoteError",
            "ncclInvalidArgument",
            "ncclInvalidUsage");
    // the same result in the same words on two lines is one failure, counted twice
    assertThat(job.failures().get(0).count()).isEqualTo(2);
    assertThat(job.failures().get(2).detail())
        .isEqualTo(
            "remote process exited or there was a network error / NET/IB : Got async event : port"
                + " error");
    assertThat(
            readText(
                    "HCA-128: Test NCCL failure common.cu:1204 'unhandled cuda error (run with"
                        + " NCCL_DEBUG=INFO for details) / '\n")
                .failures())
        .extracting(NcclFailure::detail)
        .containsExactly("unhandled cuda error");
    // after the reporter's prose and a full-width colon on the same line (nccl/heldout set12 p14)
    assertThat(
            readText(
                    "how can I solve the problem\uFF1ATest NCCL failure common.cu:1012 'internal"
                        + " error - please report this issue to the NCCL developers / ' .. dell03"
                        + " pid 543317: Test failure common.cu:891\n")
                .failures())
        .extracting(NcclFailure::result)
        .containsExactly("ncclInternalError");
    Job none =
        readText(
            """
            we saw an NCCL failure common.cu was not the cause 'unhandled system error'
            Test NCCL failure here 'unhandled system error'
            NCCL Error 2 unhandled system error
            NCCL Error two: unhandled system error
            NCCL Error 9: something NCCL never says
            """);
    assertThat(none.failures()).isEmpty();
  }

  /**
   * NCCL's result as wrappers of the C library raise it (nccl/heldout set11 q07, q08, q12; sources
   * in nccl/failures/README.md): vLLM's and SGLang's pynccl {@code NCCL error: WORDS} with
   * torchrun's and Ray's additions, the NCCLCHECK macro of TensorRT-LLM and Paddle {@code Failed,
   * NCCL error FILE:LINE 'WORDS'}, XLA's {@code NCCL operation ... failed: WORDS. Last NCCL
   * warning(error) ...} with NCCL's last warning read as one, and XLA's text wrapped after {@code
   * failed:}. Row: line, then "rank result detail" or "" where the line is no failure, then NCCL's
   * quoted warning or "".
   */
  static Stream<Arguments> wrappers() {
    return Stream.of(
        Arguments.of(
            "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)"
                + " [repeated 6x across cluster]",
            "-1 ncclUnhandledCudaError unhandled cuda error",
            ""),
        Arguments.of(
            "[rank0]: RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for"
                + " details)",
            "0 ncclUnhandledCudaError unhandled cuda error",
            ""),
        Arguments.of(
            "RuntimeError: NCCL error: internal error - please report this issue to the NCCL"
                + " developers",
            "-1 ncclInternalError internal error - please report this issue to the NCCL developers",
            ""),
        Arguments.of(
            "RuntimeError: NCCL error: unhandled system error",
            "-1 ncclSystemError unhandled system error",
            ""),
        Arguments.of(
            "> Failed, NCCL error"
                + " /src/tensorrt_llm/cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp:295"
                + " 'internal error - please report this issue to the NCCL developers'",
            "-1 ncclInternalError internal error - please report this issue to the NCCL developers",
            ""),
        Arguments.of(
            "[11/18/2025-09:33:30] [TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0:"
                + " [TensorRT-LLM][ERROR] Assertion failed: Failed, NCCL error"
                + " ../tensorrt_llm/runtime/ncclCommunicator.cpp:90 'invalid usage (run with"
                + " NCCL_DEBUG=WARN for details)'",
            "-1 ncclInvalidUsage invalid usage",
            ""),
        Arguments.of(
            "Failed, NCCL error /paddle/paddle/fluid/distributed/collective/NCCLTools.h:227"
                + " 'unhandled cuda error'",
            "-1 ncclUnhandledCudaError unhandled cuda error",
            ""),
        // PaddlePaddle's enforce.h across versions (sources in nccl/failures/README.md): 2.0 beta,
        // 2.1, 1.8 (a title), 2.4 with its hint line after it, 2.4's system error, 1.5's what()
        Arguments.of(
            "ExternalError:  Nccl error, unhandled cuda error  (at"
                + " /paddle/paddle/fluid/platform/collective_helper.cc:83)",
            "-1 ncclUnhandledCudaError unhandled cuda error",
            ""),
        Arguments.of(
            "OSError: (External)  Nccl error, unhandled cuda error  (at"
                + " /paddle/paddle/fluid/platform/collective_helper.cc:100)",
            "-1 ncclUnhandledCudaError unhandled cuda error",
            ""),
        Arguments.of(
            "论文复现：Nccl error, unhandled system error",
            "-1 ncclSystemError unhandled system error",
            ""),
        Arguments.of(
            "OSError: (External) NCCL error(1), unhandled cuda error. ",
            "-1 ncclUnhandledCudaError unhandled cuda error",
            ""),
        Arguments.of(
            "OSError: (External) NCCL error(2), unhandled system error.",
            "-1 ncclSystemError unhandled system error",
            ""),
        Arguments.of(
            "  what():  unhandled cuda error at"
                + " [/ssd1/xiege/paddle_wheel/Paddle_2.7/Paddle/paddle/fluid/platform/nccl_helper.h:70]",
            "-1 ncclUnhandledCudaError unhandled cuda error",
            ""),
        Arguments.of("Nccl error handling in Paddle is described below", "", ""),
        Arguments.of(
            "  [Hint: 'ncclUnhandledCudaError'. A call to a CUDA function failed.] (at"
                + " /paddle/paddle/fluid/platform/collective_helper.cc:100)",
            "",
            ""),
        Arguments.of(
            "INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:305: NCCL operation"
                + " ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system error (run with"
                + " NCCL_DEBUG=INFO for details). Last NCCL warning(error) log entry (may be"
                + " unrelated) 'socketTryAccept: Accept failed: Bad file descriptor'.",
            "-1 ncclSystemError unhandled system error",
            "SOCKET socketTryAccept: Accept failed: Bad file descriptor"),
        Arguments.of(
            "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to execute XLA Runtime"
                + " executable: run time error: custom call 'xla.gpu.reduce_scatter' failed:"
                + " external/xla/xla/service/gpu/nccl_utils.cc:305: NCCL operation"
                + " ncclCommInitRank(&comm, nranks, id, rank) failed: internal error - please report"
                + " this issue to the NCCL developers. Last NCCL warning(error) log entry (may be"
                + " unrelated) 'Attribute busid of node nic not found'.; current",
            "-1 ncclInternalError internal error - please report this issue to the NCCL developers",
            "TOPOLOGY_DETECTION Attribute busid of node nic not found"),
        Arguments.of(
            "invalid usage ... Last NCCL warning(error): 'Bootstrap : no socket interface found'",
            "-1 ncclInvalidUsage invalid usage ...",
            "SOCKET Bootstrap : no socket interface found"),
        Arguments.of(
            "[1]<stderr>:RuntimeError: ncclCommInitRank failed: unhandled cuda error (run with"
                + " NCCL_DEBUG=INFO for details)",
            "-1 ncclUnhandledCudaError unhandled cuda error",
            ""),
        Arguments.of(
            "cupy_backends.cuda.libs.nccl.NcclError: NCCL_ERROR_INTERNAL_ERROR: internal error",
            "-1 ncclInternalError internal error",
            ""),
        Arguments.of(
            "\"cupy_backends.cuda.libs.nccl.NcclError: NCCL_ERROR_INVALID_USAGE: invalid usage\"",
            "-1 ncclInvalidUsage invalid usage",
            ""),
        Arguments.of(
            "[rank0]: RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details)",
            "0 ncclInvalidUsage invalid usage",
            ""),
        Arguments.of(
            "Check failed: result == ncclSuccess (1 vs. 0) unhandled cuda error",
            "-1 ncclUnhandledCudaError unhandled cuda error",
            ""),
        // negative: words NCCL has no result for, prose, an empty quote
        Arguments.of(
            "Failed, NCCL error"
                + " /home/qiaoxj/TensorRT-LLM/cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp:183"
                + " 'unknown result code'",
            "",
            ""),
        Arguments.of("if you see NCCL error: something else entirely, report it", "", ""),
        Arguments.of("NCCL_ERROR_CODES: a table of results follows", "", ""),
        Arguments.of(
            "NCCL error handling was improved in this release 'unhandled cuda error'", "", ""),
        Arguments.of(
            "Failed to create NCCL communicator: INTERNAL: ncclCommInitRankConfig(...) failed:",
            "",
            ""),
        Arguments.of(
            "failed to allocate 1.0KiB (1024 bytes) from device collective memory: unhandled cuda"
                + " error, Last NCCL warning(error) log entry (may be unrelated): ",
            "",
            ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("wrappers")
  void wrappersOfTheLibrary(String line, String failure, String warning) {
    Job job = readText(line + "\n");
    assertThat(job.failures())
        .extracting(f -> f.rank() + " " + f.result() + " " + f.detail())
        .containsExactlyElementsOf(failure.isEmpty() ? List.of() : List.of(failure));
    assertThat(job.warnings())
        .extracting(w -> w.kind() + " " + w.message())
        .containsExactlyElementsOf(warning.isEmpty() ? List.of() : List.of(warning));
    assertThat(job.inputs().get(0).ncclLines())
        .isEqualTo(failure.isEmpty() && warning.isEmpty() ? 0 : 1);
  }

  /** Lines that hold the needles but say nothing about NCCL are not NCCL lines. */
  @Test
  void otherLinesWithTheNeedlesAreNotNcclLines() {
    Job job =
        readText(
            """
            Successfully installed nvidia-nccl-cu12-2.20.5
            export NCCL_DEBUG=INFO
            [rank0]:[W ProcessGroupNCCL.cpp:4561] Warning: using GPU 0 to perform barrier as devices used by this process are currently unknown.
            cudaMemcpy reported a CUDA failure 'invalid argument' in user code
            Last error:
            """);
    assertThat(job.inputs().get(0).ncclLines()).isZero();
    assertThat(job.failures()).isEmpty();
    assertThat(job.warnings()).isEmpty();
  }

  /**
   * The stack trace of the exception WorkNCCL::checkTimeout builds (only on a timeout) is read as
   * the watchdog's timeout, its frame and its header alike (jpata/particleflow issue 390,
   * huggingface/open-r1 issue 620); the watchdog's other frames come with any exception it caught
   * (pytorch issue 126544's CUDA error) and are not.
   */
  @Test
  void checkTimeoutFramesAreTheWatchdogsTimeout() {
    Job job =
        readText(
            """
            frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x1d2 (0x1554e9e0f8f2 in /mnt/home/ewulff/miniforge3/envs/mlpf/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so)
            frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0x233 (0x1554e9e16333 in /mnt/home/ewulff/miniforge3/envs/mlpf/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so)
            Exception raised from checkTimeout at /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:632 (most recent call first):
            frame #4: c10d::ProcessGroupNCCL::WorkNCCL::isCompleted() + 0x58 (0x7fc91a84ef38 in /tmp/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)
            frame #6: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x10c (0x7fc91a85531c in /tmp/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)
            Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1521 (most recent call first):
            """);
    assertThat(job.watchdog())
        .extracting(r -> r.kind() + " " + r.evidence().line())
        .containsExactly("TIMEOUT_FRAME 1");
    assertThat(job.timeouts()).isEmpty();
  }

  @Test
  void failuresKeepTheirLineAndCount() {
    Job job = read("internal-error-no-last-error-aws-ofi-nccl-316.log");
    NcclFailure first = job.failures().get(0);
    assertThat(first.evidence().line()).isEqualTo(1);
    assertThat(first.detail())
        .isEqualTo("internal error - please report this issue to the NCCL developers");
    assertThat(first.count()).isEqualTo(1);
    CollectiveTimeout t = read("watchdog-different-ops-nccl-1409.log").timeouts().get(1);
    assertThat(t.op()).isEqualTo("ALLREDUCE");
    assertThat(t.evidence().line()).isEqualTo(3);
  }

  /** Every form of a printed version: NCCL's with and without a header, PyTorch's, the driver's. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // nccl issue 1068: rank 0's line without NCCL's header
        "NCCL version 2.10.3+cuda11.1 | NCCL | 2.10.3 | 11010",
        // TensorRT-LLM issue 1498's line as the reporter quoted it (a markdown quote)
        "> NCCL version 2.19.3+cuda12.3 | NCCL | 2.19.3 | 12030",
        // nccl issue 621: NCCL's INFO line with its header
        "dlv01:25797:25797 [0] NCCL INFO NCCL version 2.11.4+cuda11.1 | NCCL | 2.11.4 | 11010",
        // held-out set 12 p01's PyTorch error: the release alone
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333,"
            + " remote process exited or there was a network error, NCCL version 2.18.6 | NCCL | 2.18.6 | -1",
        // nccl issue 904: the driver's CUDA
        "iZuf6fh4ob0l9mrv0kwbarZ:3447253:3447253 [0] NCCL INFO cudaDriverVersion 11040 | CUDA_DRIVER | 11.4 | 11040",
      })
  void printedVersions(String line, PrintedVersion.Of of, String version, int cuda) {
    List<PrintedVersion> v = readText(line + "\n").versions();
    assertThat(v).hasSize(1);
    assertThat(v.get(0).of()).isEqualTo(of);
    assertThat(v.get(0).version()).isEqualTo(version);
    assertThat(v.get(0).cuda()).isEqualTo(cuda);
    assertThat(v.get(0).evidence().line()).isEqualTo(1);
  }

  /** Prose that names NCCL's version with words after it is no version line. */
  @Test
  void proseIsNoVersionLine() {
    // nccl issue 1142's title
    assertThat(
            readText(
                    "is it accurate to assume that NCCL 2.18.5 (and 2.19.3 and onward) does NOT support"
                        + " CUDA 12.1?\nthe NCCL version 2.18.5 we use does not work\n")
                .versions())
        .isEmpty();
  }

  static Job read(String excerpt) {
    try (InputStream in =
        FrameworkLinesTest.class.getResourceAsStream("/nccl/failures/" + excerpt)) {
      return readText(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The job read from {@code text} written to a file, as diagnose reads a pasted excerpt. */
  static Job readText(String text) {
    try {
      Path f = Files.createTempFile("topolens-framework", ".log");
      Files.writeString(f, text);
      try {
        return new NcclLogReader(1).read(LogInput.expand(List.of(f.toString())));
      } finally {
        Files.delete(f);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
