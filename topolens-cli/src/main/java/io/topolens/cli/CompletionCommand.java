package io.topolens.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code topolens completion bash|zsh}: the shell completion script, generated from the commands
 * and options themselves (picocli's AutoComplete); zsh runs the same script through bashcompinit.
 */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    description = {
      "Prints a completion script for bash or zsh. bash: source <(topolens completion bash), or save it"
          + " in ~/.local/share/bash-completion/completions/topolens. zsh: source <(topolens completion"
          + " zsh) in ~/.zshrc."
    })
final class CompletionCommand implements Callable<Integer> {
  enum Shell {
    bash,
    zsh
  }

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "SHELL", description = "bash or zsh.")
  Shell shell;

  @Override
  public Integer call() {
    String bash = AutoComplete.bash("topolens", spec.root().commandLine());
    PrintWriter out = spec.commandLine().getOut();
    if (shell == Shell.zsh) {
      out.println("#compdef topolens");
      out.println("# zsh runs topolens's bash completion through bashcompinit");
      out.println("autoload -U +X compinit && compinit");
      out.println("autoload -U +X bashcompinit && bashcompinit");
    }
    out.print(bash);
    out.flush();
    return 0;
  }
}
