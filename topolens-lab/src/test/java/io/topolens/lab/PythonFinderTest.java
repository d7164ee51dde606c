package io.topolens.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PythonFinderTest {

  @Test
  void namedInterpreterThatDoesNotExistIsOneClearLine() {
    assertThatThrownBy(() -> new PythonFinder("/nonexistent/python9").find())
        .isInstanceOf(PythonFinder.NotFound.class)
        .hasMessageStartingWith("no Python that imports torch (/nonexistent/python9: cannot run it")
        .hasMessageEndingWith("or give --python PATH")
        .hasMessageNotContaining("\n");
  }

  @Test
  void interpreterWithoutTorchSaysWhy() {
    // a program that runs, prints nothing and fails, as an interpreter without torch would fail
    assertThatThrownBy(() -> new PythonFinder("/bin/false").find())
        .isInstanceOf(PythonFinder.NotFound.class)
        .hasMessageContaining("/bin/false: no output");
  }

  @Test
  void findsDebianTorchWhenInstalled() throws Exception {
    PythonFinder.Python p;
    try {
      p = new PythonFinder(null).find();
    } catch (PythonFinder.NotFound e) {
      org.junit.jupiter.api.Assumptions.abort("SKIPPED LOUDLY: " + e.getMessage());
      return;
    }
    assertThat(p.torchVersion()).matches("\\d+\\.\\d+.*");
    assertThat(PythonFinder.DEFAULT_CANDIDATES).contains(p.command());
  }
}
