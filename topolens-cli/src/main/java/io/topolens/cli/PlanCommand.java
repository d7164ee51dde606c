package io.topolens.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder. */
@Command(name = "plan")
final class PlanCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    return 2;
  }
}
