package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code tuner-plugin-failed}: a tuner plugin NCCL loaded failed its init ({@code No
 * NCCL_TUNER_CONFIG_PATH provided. Please populate NCCL_TUNER_CONFIG_PATH to use config-based tuner
 * plugin.}), and NCCL failed the communicator with it (ncclInternalError).
 */
public final class TunerPluginFailed extends WarningRule {

  public TunerPluginFailed() {
    super(Severity.ERROR, NcclWarning.Kind.TUNER_PLUGIN);
  }

  @Override
  public String id() {
    return "tuner-plugin-failed";
  }

  @Override
  String title() {
    return "The NCCL tuner plugin failed to start: no tuner config given";
  }

  @Override
  String explanation() {
    return "NCCL loads a tuner plugin (libnccl-tuner.so, or the one NCCL_TUNER_PLUGIN names) at"
        + " communicator init when it finds one on the library path; Google Cloud's images and"
        + " GKE nodes with gIB installed ship a config-based tuner there, which refuses to start"
        + " without NCCL_TUNER_CONFIG_PATH. NCCL then fails the communicator's init, and the"
        + " framework reports only ncclInternalError (\"internal error - please report this"
        + " issue to the NCCL developers\"): the cause is the plugin's missing config, not NCCL"
        + " or the network. Jobs that never asked for a tuner (inference servers, single-node"
        + " training in a container that mounts the node's libraries) meet it too.";
  }

  @Override
  String fix() {
    return "Where the job needs no tuner, keep NCCL from loading it: NCCL_TUNER_PLUGIN=none (a"
        + " name no library has; an empty value still loads the default libnccl-tuner.so), or"
        + " drop the node's library directory from LD_LIBRARY_PATH; otherwise give the plugin"
        + " its config: NCCL_TUNER_CONFIG_PATH pointing at the tuner's config file that ships"
        + " with gIB (on Google Cloud, source /usr/local/gib/scripts/set_nccl_env.sh).";
  }
}
