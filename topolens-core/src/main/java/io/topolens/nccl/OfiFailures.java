package io.topolens.nccl;

import io.topolens.model.NcclWarning.Detail.OfiFailure;
import io.topolens.model.NcclWarning.OfiStep;
import java.util.List;
import java.util.Locale;

/**
 * Reads what an aws-ofi-nccl failure line (NCCL_OFI_WARN, {@code NET/OFI ...}) or libfabric's own
 * line under it failed at, in the words of every release: 1.0-1.6's single {@code nccl_ofi_net.c}
 * ({@code Couldn't open a fabric provider}, {@code OFI call failed with RC}), 1.7-1.13's C
 * protocols and {@code nccl_ofi_ofiutils.c}, 1.14-1.17's C++ ({@code Couldn't create fabric},
 * {@code Creating new endpoint for domain ... failed}). Called only for lines already read as a
 * network plugin's, so it may search freely.
 */
final class OfiFailures {
  private OfiFailures() {}

  private record Words(OfiStep step, List<String> words) {}

  /** The first step whose words the lower-cased line holds; the more specific steps come first. */
  private static final List<Words> STEPS =
      List.of(
          new Words(
              OfiStep.INIT_FAILED, List.of("initialization failed", "initializing plugin failed")),
          // 1.7+: the protocol the plugin chose could not start, before its "initialization failed"
          new Words(
              OfiStep.PROTOCOL_FAILED,
              List.of(
                  "failed to initialize rdma protocol", "failed to initialize sendrecv protocol")),
          new Words(
              OfiStep.NO_PROVIDER,
              List.of(
                  // 1.7+ (FI_ENODATA from fi_getinfo), before 1.7, 1.14+ after its protocols
                  "fi_getinfo() call failed: no data available",
                  "find any optimal provider",
                  "unable to find a protocol that worked",
                  // 1.x built for EFA only, given another provider
                  "only efa provider is supported",
                  // libfabric's core and fi_info utility
                  "provider efa returned -61",
                  "fi_getinfo: -61")),
          new Words(OfiStep.EFA_NO_MATCH, List.of("provider efa output empty list")),
          new Words(
              OfiStep.TCP_PROVIDER,
              List.of(
                  "selected provider is tcp",
                  "selected provider is sockets",
                  "selected provider is udp",
                  "viable endpoint found for tcp provider",
                  "provider tcp does not provide",
                  "provider sockets does not provide")),
          new Words(
              OfiStep.PEER_UNREACHABLE,
              List.of("insert remote address into address vector", "failed call to fi_av_insert")),
          new Words(OfiStep.COMPLETION_ERROR, List.of("completed with error")),
          new Words(
              OfiStep.POST_FAILED,
              List.of(
                  "unable to read from fi_cq_readerr",
                  "retrieve completion queue entries",
                  "unable to send connect message",
                  "unable to post a buffer for rec",
                  "could not send request for device",
                  "unable to post receive buffer",
                  "unable to issue read operation")),
          new Words(
              OfiStep.REGISTER_MEMORY,
              List.of("unable to register memory", "could not register dummy buffer")),
          new Words(OfiStep.GDR_REQUIRED, List.of("gdr disabled on gdr-supported")));

  /**
   * Words of a setup failure, on a {@code NET/OFI} line only (libfabric's own lines are others').
   */
  private static final List<String> SETUP =
      List.of(
          "couldn't ",
          "cannot continue",
          "failed to set fi_opt",
          "emulated_write is true",
          "ofi call failed with rc",
          "disabling shared memory failed",
          "supports mr key size of",
          "fi_opt_cuda_api_permitted is not declared",
          "file: /sys/devices/virtual/dmi/",
          "call to fi_getname() failed",
          "does not provide enough tag bits",
          // 1.7+: the topology of the instance's NICs and GPUs, OFI_NCCL_PROTOCOL naming no
          // protocol
          "failed to create nccl ofi topology",
          "unable to find plugin protocol");

  /** The failure the line names, or null where it names none (teardown, an INFO line). */
  static OfiFailure read(String message) {
    String m = message.toLowerCase(Locale.ROOT);
    OfiStep step = null;
    for (Words w : STEPS) {
      if (w.words().stream().anyMatch(m::contains)) {
        step = w.step();
        break;
      }
    }
    if (step == null && m.startsWith("net/ofi ")) {
      if (m.contains("endpoint") && (m.contains("couldn't ") || m.contains(" failed"))) {
        step = OfiStep.ENDPOINT;
      } else if (SETUP.stream().anyMatch(m::contains)) {
        step = OfiStep.SETUP;
      }
    }
    if (step == null && m.contains("fi_info -") && m.contains("-61")) {
      // fi_info -p efa's result as users quote it
      step = OfiStep.NO_PROVIDER;
    }
    return step == null ? null : new OfiFailure(step, errno(m));
  }

  /** Error texts libfabric's fi_strerror gives, and their numbers, for lines without an RC. */
  private static final List<String> ERRORS =
      List.of(
          "input/output error:5",
          "cannot allocate memory:12",
          "no such device:19",
          "invalid argument:22",
          "no data available:61",
          "operation not supported:95");

  /** libfabric's {@code RC: -22} (or {@code RC -22}) as a positive errno, else its error text's. */
  private static int errno(String m) {
    int at = m.indexOf(" rc: ");
    int from = at >= 0 ? at + 5 : -1;
    if (at < 0) {
      at = m.indexOf(" rc ");
      from = at >= 0 ? at + 4 : -1;
    }
    if (from >= 0) {
      long n = new Cursor(m, from).integer();
      if (n != Long.MIN_VALUE && Math.abs(n) < 100_000) {
        return (int) Math.abs(n);
      }
    }
    for (String e : ERRORS) {
      int colon = e.lastIndexOf(':');
      if (m.contains(e.substring(0, colon))) {
        return Integer.parseInt(e.substring(colon + 1));
      }
    }
    return 0;
  }
}
