package io.qubiq.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.regex.Pattern;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium driven by its chromedriver (both from the {@code chromium} and {@code
 * chromium-driver} packages), headless, with a fresh profile and a 1280×800 viewport: the panel
 * PC the console is designed for. Collects the browser's console log so a test can fail on any
 * error, and saves page screenshots.
 *
 * <p>Screenshots go to {@code target/console-screenshots/}; with {@code -Dqubiq.screenshots=true}
 * they go to {@code docs/images/console/} instead, where the console guide embeds them.
 *
 * <p>Threading: one test thread at a time, like the WebDriver it wraps.
 */
final class ConsoleBrowser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final int WIDTH = 1280;
    static final int HEIGHT = 800;
    private static final Duration WAIT = Duration.ofSeconds(30);

    /**
     * Console errors that are the console working as designed: the page asks "am I signed in?" with
     * {@code GET /api/v1/session}, which answers 401 before sign-in, and Chromium logs every 4xx
     * response as an error.
     */
    private static final List<Pattern> EXPECTED = List.of(
            Pattern.compile("/api/v1/session - Failed to load resource: the server responded with a status of 401"),
            // the header shows /health's report whatever its status: 503 while the gateway is still starting
            // (a device not subscribed yet on a loaded machine) is an answer the page reads, not a fault
            Pattern.compile("/health - Failed to load resource: the server responded with a status of 503"));

    private final ChromeDriverService service;
    private final ChromeDriver driver;
    private final String base;
    private final List<String> errors = new ArrayList<>();
    private final List<Pattern> provoked = new ArrayList<>();

    private ConsoleBrowser(ChromeDriverService service, ChromeDriver driver, String base) {
        this.service = service;
        this.driver = driver;
        this.base = base;
    }

    /** Fails (does not skip) with the install command when Chromium or its driver is missing. */
    static void requireChromium() {
        assertThat(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER))
                .as("the browser tests need Debian's Chromium and its driver at %s and %s:"
                        + " apt-get install chromium chromium-driver", CHROMIUM, CHROMEDRIVER)
                .isTrue();
    }

    /** Starts the browser; fails when Chromium is missing (see {@link #requireChromium()}). */
    static ConsoleBrowser start(String base, Path profile) {
        requireChromium();
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(profile.resolveSibling("chromedriver.log").toFile())
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile.toAbsolutePath(),
                "--window-size=" + WIDTH + "," + HEIGHT, "--lang=en-GB");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriver driver = new ChromeDriver(service, options);
        // the window's size includes what a headed browser would spend on its frame: pin the page's own
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", WIDTH, "height", HEIGHT, "deviceScaleFactor", 1, "mobile", false));
        return new ConsoleBrowser(service, driver, base);
    }

    ChromeDriver driver() {
        return driver;
    }

    /** Opens a console route, e.g. {@code "#/audit"}, or {@code ""} for the entry page. */
    void open(String route) {
        driver.get(base + "/" + route);
    }

    WebElement waitFor(String css) {
        return until(d -> {
            List<WebElement> found = d.findElements(By.cssSelector(css));
            return found.isEmpty() || !found.get(0).isDisplayed() ? null : found.get(0);
        }, "an element " + css);
    }

    void waitForAbsent(String css) {
        until(d -> d.findElements(By.cssSelector(css)).isEmpty(), "no element " + css);
    }

    /** Waits until the element's attribute (re-read each time, the page re-renders) matches. */
    String waitForAttribute(String css, String attribute, java.util.function.Predicate<String> test, String what) {
        return until(d -> {
            List<WebElement> found = d.findElements(By.cssSelector(css));
            String value = found.isEmpty() ? null : found.get(0).getDomAttribute(attribute);
            return value != null && test.test(value) ? value : null;
        }, what);
    }

    String waitForText(String css, String expected) {
        return until(d -> {
            List<WebElement> found = d.findElements(By.cssSelector(css));
            String text = found.isEmpty() ? "" : found.get(0).getText();
            return text.contains(expected) ? text : null;
        }, "'" + expected + "' in " + css);
    }

    <T> T until(ExpectedCondition<T> condition, String what) {
        return new WebDriverWait(driver, WAIT, Duration.ofMillis(100))
                .ignoring(StaleElementReferenceException.class)
                .withMessage(() -> "waited for " + what + " on " + driver.getCurrentUrl())
                .until(condition);
    }

    void click(String css) {
        until(d -> {
            WebElement element = d.findElement(By.cssSelector(css));
            if (!element.isDisplayed() || !element.isEnabled()) {
                return null;
            }
            element.click();
            return true;
        }, "a clickable " + css);
    }

    void type(String css, String text) {
        WebElement element = waitFor(css);
        element.clear();
        element.sendKeys(text);
    }

    int count(String css) {
        return driver.findElements(By.cssSelector(css)).size();
    }

    void signIn(String user, String password) {
        open("");
        waitFor("#signin-user");
        type("#signin-user", user);
        type("#signin-password", password);
        click("#signin-submit");
        waitFor("#sign-out");
    }

    void signOut() {
        click("#sign-out");
        waitFor("#signin-user");
    }

    /** Saves the viewport as {@code <page>.png} (1280×800); returns the file. */
    Path screenshot(String page) {
        boolean docs = Boolean.getBoolean("qubiq.screenshots");
        Path dir = docs ? Path.of("..", "docs", "images", "console") : Path.of("target", "console-screenshots");
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(page + ".png");
            File shot = driver.getScreenshotAs(OutputType.FILE);
            Files.copy(shot.toPath(), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("saving the screenshot of " + page, e);
        }
    }

    /**
     * Lets {@link #assertNoConsoleErrors()} pass over errors a test provokes on purpose, such as Chromium's
     * line for a refusal (409, 422) whose display on the page the test checks.
     */
    void expectConsoleErrors(Pattern pattern) {
        provoked.add(pattern);
    }

    /** Fails with every error the browser's console logged since the last check. */
    void assertNoConsoleErrors() {
        for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() >= Level.SEVERE.intValue()
                    && EXPECTED.stream().noneMatch(p -> p.matcher(entry.getMessage()).find())
                    && provoked.stream().noneMatch(p -> p.matcher(entry.getMessage()).find())) {
                errors.add(entry.getMessage());
            }
        }
        List<String> found = List.copyOf(errors);
        errors.clear();
        assertThat(found).as("errors in the browser console").isEmpty();
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
    }
}
