package io.topolens.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder. */
@Command(name = "run")
final class RunCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    return 2;
  }
}
