package io.topolens.report;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's headless Chromium driven by its chromedriver (no download: both paths are given), with
 * the console and network logs kept so a test can say what the page logged and requested.
 */
final class Browser implements AutoCloseable {
  static final Path SHOTS = Path.of("target", "screenshots");

  private final ChromeDriver driver;

  Browser() {
    String chromium = System.getProperty("chromium", "/usr/bin/chromium");
    String chromedriver = System.getProperty("chromedriver", "/usr/bin/chromedriver");
    if (!new File(chromium).canExecute() || !new File(chromedriver).canExecute()) {
      throw new IllegalStateException(
          "the browser tests need Debian's chromium and chromium-driver (.ci/run installs them):"
              + " missing "
              + chromium
              + " or "
              + chromedriver);
    }
    ChromeOptions o = new ChromeOptions();
    o.setBinary(chromium);
    o.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--window-size=1280,1000");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    logs.enable(LogType.PERFORMANCE, Level.ALL);
    o.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(chromedriver))
            .usingAnyFreePort()
            .withTimeout(Duration.ofSeconds(120))
            .build();
    driver = new ChromeDriver(service, o);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(120));
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
  }

  /** What a page load left: console lines at warning or worse, and requests other than the page. */
  record Visit(List<String> console, List<String> requests, List<String> failures) {}

  /** Opens a file, waits for it to load and returns what it logged and asked for. */
  Visit open(Path file) {
    drain();
    String url = file.toAbsolutePath().toUri().toString();
    driver.get(url);
    List<String> console = new ArrayList<>();
    for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
      if (e.getLevel().intValue() >= Level.WARNING.intValue()) {
        console.add(e.getLevel() + " " + e.getMessage());
      }
    }
    List<String> requests = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (LogEntry e : driver.manage().logs().get(LogType.PERFORMANCE)) {
      String m = e.getMessage();
      if (m.contains("\"Network.requestWillBeSent\"")) {
        int at = m.indexOf("\"url\":\"");
        String u = at < 0 ? m : m.substring(at + 7, m.indexOf('"', at + 7));
        if (!u.equals(url)) {
          requests.add(u);
        }
      } else if (m.contains("\"Network.loadingFailed\"")) {
        failures.add(m);
      }
    }
    return new Visit(console, requests, failures);
  }

  private void drain() {
    driver.manage().logs().get(LogType.BROWSER);
    driver.manage().logs().get(LogType.PERFORMANCE);
  }

  Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  long count(String css) {
    return ((Number) js("return document.querySelectorAll(arguments[0]).length", css)).longValue();
  }

  @SuppressWarnings("unchecked")
  List<String> texts(String css) {
    return (List<String>)
        js(
            "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.textContent)",
            css);
  }

  @SuppressWarnings("unchecked")
  List<String> attrs(String css, String attr) {
    return (List<String>)
        js(
            "return Array.from(document.querySelectorAll(arguments[0])).map(e =>"
                + " e.getAttribute(arguments[1]))",
            css,
            attr);
  }

  /** The rendered box of the first element matching css: width and height in CSS pixels. */
  @SuppressWarnings("unchecked")
  Map<String, Number> box(String css) {
    return (Map<String, Number>)
        js(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                + " return {w: r.width, h: r.height};",
            css);
  }

  /** Milliseconds from navigation start to the end of the load event, as the page measured it. */
  double loadMillis() {
    return ((Number)
            js(
                "const n = performance.getEntriesByType('navigation')[0];"
                    + " return n.loadEventEnd - n.startTime;"))
        .doubleValue();
  }

  /** A screenshot of the whole page (the window grown to its height), kept under target/. */
  Path screenshot(String name) throws IOException {
    long h = ((Number) js("return document.documentElement.scrollHeight")).longValue();
    driver.manage().window().setSize(new Dimension(1280, (int) Math.min(Math.max(h, 600), 7000)));
    Files.createDirectories(SHOTS);
    Path f = SHOTS.resolve(name + ".png");
    Files.write(f, driver.getScreenshotAs(OutputType.BYTES));
    // each section alone too, to look at one chart at a time
    for (WebElement section : driver.findElements(By.cssSelector("main > section[id]"))) {
      Files.write(
          SHOTS.resolve(name + "-" + section.getAttribute("id") + ".png"),
          section.getScreenshotAs(OutputType.BYTES));
    }
    driver.manage().window().setSize(new Dimension(1280, 1000));
    return f;
  }

  @Override
  public void close() {
    driver.quit();
  }
}
