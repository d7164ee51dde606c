package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.NcclWarning;
import io.topolens.model.NcclWarning.Detail;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the reader reads from a framework's line beyond its kind, so the rules judge it without the
 * text: the signal torchrun's agent got, the exception terminate names, the rendezvous setting
 * missing. Real lines (sources in the rules' tests: JobCancelledRuleTest, RankAbortedRuleTest,
 * RendezvousEnvMissingRuleTest).
 */
class WarningDetailTest {

  static Stream<Arguments> lines() {
    return Stream.of(
        // https://github.com/NVIDIA/nvidia-resiliency-ext/issues/18
        Arguments.of(
            "torch.distributed.elastic.multiprocessing.api.SignalException: Process 293812 got signal: 15",
            NcclWarning.Kind.CANCELLED,
            new Detail.Signal("15")),
        // https://github.com/pytorch/pytorch/issues/150916
        Arguments.of(
            "W0409 07:28:49.530000 1359 torch/distributed/elastic/agent/server/api.py:719] Received 15 death signal, shutting down workers",
            NcclWarning.Kind.CANCELLED,
            new Detail.Signal("15")),
        // https://github.com/GanjinZero/RRHF/issues/35
        Arguments.of(
            "WARNING:torch.distributed.elastic.agent.server.api:Received 1 death signal, shutting down workers",
            NcclWarning.Kind.CANCELLED,
            new Detail.Signal("1")),
        // NeMo's resiliency guide: Python before 3.11 prints the enum's name
        Arguments.of(
            "Received Signals.SIGTERM death signal, shutting down workers",
            NcclWarning.Kind.CANCELLED,
            new Detail.Signal("15")),
        // a number past what an int holds is kept as written
        Arguments.of(
            "torch.distributed.elastic.multiprocessing.api.SignalException: Process 293812 got signal: 99999999999999999999",
            NcclWarning.Kind.CANCELLED,
            new Detail.Signal("99999999999999999999")),
        // Slurm's cancel names no signal (slurmstepd/req.c)
        Arguments.of(
            "slurmstepd: error: *** JOB 31580279 ON anode150 CANCELLED AT 2020-07-29T18:45:16 DUE TO TIME LIMIT ***",
            NcclWarning.Kind.CANCELLED,
            null),
        // https://github.com/arrival-ltd/catalyst-rl-tutorial/issues/15
        Arguments.of(
            "terminate called after throwing an instance of 'c10::DistBackendError'",
            NcclWarning.Kind.ABORTED,
            new Detail.Thrown("c10::DistBackendError")),
        // https://github.com/hku-mars/GS-SDF/issues/1
        Arguments.of(
            "terminate called after throwing an instance of 'c10::Error'",
            NcclWarning.Kind.ABORTED,
            new Detail.Thrown("c10::Error")),
        // https://github.com/open-mmlab/mmpretrain/issues/1837: the launcher's line names no
        // exception
        Arguments.of(
            "  traceback : Signal 6 (SIGABRT) received by PID 104478",
            NcclWarning.Kind.ABORTED,
            null),
        // rendezvous.py's _env_rendezvous_handler
        Arguments.of(
            "ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR expected, but not set",
            NcclWarning.Kind.RENDEZVOUS_ENV,
            new Detail.EnvNotSet("MASTER_ADDR")),
        // torch.distributed.elastic's get_env_variable_or_raise
        Arguments.of(
            "ValueError: Environment variable LOCAL_RANK expected, but not set",
            NcclWarning.Kind.RENDEZVOUS_ENV,
            new Detail.EnvNotSet("LOCAL_RANK")),
        // https://github.com/CoinCheung/BiSeNet/issues/233
        Arguments.of(
            "ValueError: Error initializing torch.distributed using tcp:// rendezvous: rank parameter missing",
            NcclWarning.Kind.RENDEZVOUS_ENV,
            new Detail.ParameterMissing("tcp://", true)),
        // https://github.com/salesforce/densecap/issues/40
        Arguments.of(
            "ValueError: Error initializing torch.distributed using file:// rendezvous: rank parameter missing",
            NcclWarning.Kind.RENDEZVOUS_ENV,
            new Detail.ParameterMissing("file://", true)),
        // rendezvous.py's other parameter
        Arguments.of(
            "ValueError: Error initializing torch.distributed using tcp:// rendezvous: world size parameter missing",
            NcclWarning.Kind.RENDEZVOUS_ENV,
            new Detail.ParameterMissing("tcp://", false)),
        // https://github.com/facebookresearch/metaseq/issues/88 (Megatron-LM's mpu)
        Arguments.of(
            "AssertionError: pipeline_model parallel group is not initialized",
            NcclWarning.Kind.NO_PROCESS_GROUP,
            new Detail.ModelParallelGroup("pipeline_model parallel group")),
        // https://github.com/NVIDIA-NeMo/Speech/issues/8624 (megatron-core 0.5 under NeMo)
        Arguments.of(
            "AssertionError: tensor and expert parallel group is not initialized",
            NcclWarning.Kind.NO_PROCESS_GROUP,
            new Detail.ModelParallelGroup("tensor and expert parallel group")),
        // https://github.com/vllm-project/vllm/issues/3639, as a ranked torchrun child prints it
        Arguments.of(
            "[rank0]: AssertionError: tensor model parallel group is not initialized",
            NcclWarning.Kind.NO_PROCESS_GROUP,
            new Detail.ModelParallelGroup("tensor model parallel group")),
        // https://github.com/huggingface/accelerate/issues/2240
        Arguments.of(
            "ValueError: The port number of the rendezvous endpoint 'None:None' must be an integer between 0 and 65536.",
            NcclWarning.Kind.RENDEZVOUS_ENV,
            new Detail.EndpointNotGiven("None:None")),
        // accelerate's utils/launch.py (https://github.com/huggingface/accelerate/pull/3575)
        Arguments.of(
            "AssertionError: When using multiple machines, you need to specify the main process IP.",
            NcclWarning.Kind.RENDEZVOUS_ENV,
            new Detail.EndpointNotGiven("main process IP")),
        Arguments.of(
            "AssertionError: When using multiple machines, you need to specify the main process port.",
            NcclWarning.Kind.RENDEZVOUS_ENV,
            new Detail.EndpointNotGiven("main process port")));
  }

  /**
   * An endpoint whose port was given but is not a number, and accelerate's string literal as a
   * traceback quotes it, name no missing address.
   */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "ValueError: The port number of the rendezvous endpoint 'node1:29500x' must be an integer between 0 and 65536.",
        "            \"When using multiple machines, you need to specify the main process IP.\""
      })
  void readsNoMissingEndpoint(String line) {
    assertThat(FrameworkLine.endpointNotGiven(line)).isNull();
  }

  /** The assert statement a traceback quotes is not the assertion raised. */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "    assert _TENSOR_MODEL_PARALLEL_GROUP is not None, 'tensor model parallel group is not initialized'",
        "    123         \\\"tensor model parallel group is not initialized\\\")"
      })
  void readsNoGroupFromTheQuotedAssert(String line) {
    assertThat(FrameworkLine.modelParallelGroup(line)).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lines")
  void readsWhatTheLineNames(String line, NcclWarning.Kind kind, Detail detail) {
    NcclEvent event = FrameworkLine.parse(line);
    assertThat(event).isInstanceOf(NcclEvent.Warning.class);
    NcclEvent.Warning w = (NcclEvent.Warning) event;
    assertThat(w.kind()).isEqualTo(kind);
    assertThat(w.detail()).isEqualTo(detail);
  }
}
