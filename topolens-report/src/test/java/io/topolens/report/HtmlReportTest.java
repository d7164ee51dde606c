package io.topolens.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.experiment.Experiment;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTML as written: self-contained, and every input text escaped by the templates. */
class HtmlReportTest {

  @Test
  void hostileLogLinesAreEscapedWhereverTheyLand() throws Exception {
    String html =
        new HtmlReport()
            .render(Examples.report(List.of("src/test/resources/hostile/hostile.log"), null));
    assertThat(html)
        .doesNotContain("<script")
        .doesNotContain("<img")
        .doesNotContain("<svg onload")
        .contains("&lt;img src=x onerror=alert(2)&gt;")
        .contains("&lt;/svg&gt;&lt;svg onload=alert(3)&gt;&lt;script&gt;alert(4)&lt;/script&gt;")
        .contains("eth0\"&gt;&lt;script&gt;alert(5)&lt;/script&gt;");
    // one chart, so one SVG opened and one closed
    assertThat(count(html, "<svg ") - count(html, "<svg width=\"18\"")).isEqualTo(1);
    assertThat(count(html, "</svg>") - count(html, "<svg width=\"18\"")).isEqualTo(1);
  }

  @Test
  void asksForNothingOverTheNetwork() throws Exception {
    String html =
        new HtmlReport().render(Examples.report(List.of(Examples.example("h200-mixed")), null));
    assertThat(html)
        .contains(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
                + " style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">")
        .doesNotContain(" src=\"")
        .doesNotContain("<link")
        .doesNotContain("@import")
        .doesNotContain("url(");
    Matcher m = Pattern.compile("href=\"([^\"]*)\"").matcher(html);
    while (m.find()) {
      assertThat(m.group(1)).as("links stay in the page").startsWith("#");
    }
  }

  @Test
  void experimentNamesWithMarkupStayText() throws Exception {
    String html =
        new HtmlReport()
            .render(Examples.report(List.of("src/test/resources/experiment-h200"), null));
    assertThat(html).doesNotContain("<script").contains("ib &lt;script&gt;alert(1)&lt;/script&gt;");
  }

  /** predictedFrom and predictedWithStepFrom are free text in results.json: they stay text too. */
  @Test
  void predictionBasesWithMarkupStayText(@TempDir Path dir) throws Exception {
    Experiment e =
        EditedResults.read(
            PredictedStepTest.H200X4,
            "2x2:predictedFrom=<img%20src=x%20onerror=alert(6)>"
                + " *:predictedWithStepFrom=1x4's%20measured%20step</p><script>alert(7)</script>",
            dir);
    String html = new HtmlReport().render(Report.builder("t").experiment(e).build());
    assertThat(html)
        .doesNotContain("<script")
        .doesNotContain("<img")
        .contains("&lt;img src=x onerror=alert(6)&gt;")
        .contains(
            "With one step: 1x4's measured step&lt;/p&gt;&lt;script&gt;alert(7)&lt;/script&gt;;");
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
