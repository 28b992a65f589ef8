#!/usr/bin/python3
"""The report page in a real browser (headless Chromium through Selenium):

1. A builder trace with one Late Sender (rank 1 waits in MPI_Recv from 20 ns
   until rank 0 sends at 50 ns: 30 ns), analyzed by hindsight-analyze on 2
   ranks, which writes the page beside the report. The page must show the
   30 ns at main/MPI_Recv on rank 1 and nothing on rank 0, as a percentage
   of the metric (100 %) and of the root metric (30 of 2 x 100 ns of time),
   follow clicks and keys through the three panes, and find a call path;
   its findings name the wait, and the delay that caused it, as links.
   The run line under the title; the same trace as a run of a named
   program with its arguments and start: the page is titled after them.
2. The same trace analyzed without the delay analysis, as a --diff page of
   the two reports: the 30 ns delay cost becomes -30 ns.
3. Scalasca's own report of the `chain` trace, paged by hindsight-report (and
   that of `halo2d-row`, whose Cartesian topology the page draws):
   its Late Sender at main/MPI_Recv on rank 2 is 1.1 s (read by hand from
   the report: metric 6, row 5, column 2 of 6.data).
4. A report whose names are markup (write_hostile_report): each shows as
   text, no element is created from it, no dialog opens. A report whose
   inclusive metric has a callee larger than its caller: the warning in the
   page's band, main's own time -4 s as the file implies; names with control
   characters each one row.
5. A report shaped like Score-P's profiles (write_scorep_report, values in
   scorep_shaped_report.hpp): its minimum time aggregates by the minimum
   (main with its callees 0.25 s, main alone 6 s; per rank 0.25 s and
   0.5 s), and its derived metric shows as not computed.
6. The communication view. Of the analyzer's page in 1: MPI_COMM_WORLD
   with one MPI_Send and one MPI_Recv operation, and rank 0 sending rank 1
   its 1024 bytes. Of hindsight-report's page of 4 with a communication
   structure written here beside the report: a ring of 4 ranks on 2 nodes
   (each rank sends 3 messages of 100 bytes to the next), on a
   communicator with a markup name; the heat map's cells by hovering them,
   per node pair too, the table's sorting, the placement numbers; and a
   ring of 1030 ranks, whose heat map sums blocks of 3 ranks per pixel.
   A screenshot of the view goes beside --screenshot (-communication.png).
7. The timeline view. hindsight-report's page of the Late Sender trace's report with timeline
   windows written here beside it (timeline_windows(): two Late Senders and a wait in
   MPI_Finalize, a message and a collective): the list of waits by pattern, the findings'
   links to them, the canvas's colours and tooltips at positions computed from the window,
   zooming with the wheel around the pointer, dragging, reset, a click selecting the call
   path, the list following the metric selected; the same report without windows and with
   damaged ones: no view, one warning line. A screenshot goes beside --screenshot
   (-timeline.png).
8. A hybrid run (MPI + OpenMP): the trace of seed 001's Figure 13
   (tests/data/scalasca/hybrid_fig13, 2 ranks of 2 threads; its values are
   derived in tests/analyzer/test_openmp_mpi.cpp) analyzed by
   hindsight-analyze: the system tree is rank -> thread, and the idle
   threads at main alone lie on the workers, 1.1 s on rank 0's and 1.11 s
   on rank 1's (the trace's ticks are milliseconds), none on the masters;
   the rank chart sums them.

Every page: no SEVERE message on the console. A screenshot of the first
page goes to --screenshot. Without Chromium the test fails.

Usage: check_page.py --analyzer A --report-tool R --mpiexec M --writer W
                     --hostile-writer H --scorep-writer S --scalasca DIR --screenshot PNG
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from xml.etree import ElementTree

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

TIMEOUT = 120
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1400,900"]
# As the browser must show them (tests/report/report_fixture.hpp).
HOSTILE_NAMES = [
    "<img src=x onerror=alert(1)>",
    "</script><script>alert(2)</script>",
    "\"quoted\" & 'apostrophes' &amp; &lt;",
    "\ufffdber",
]


class Failure(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Failure(what)


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-18)


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, **kwargs)
    if result.returncode != 0:
        raise Failure(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result


def start_browser(profile):
    for program in ("chromium", "chromedriver"):
        if shutil.which(program) is None:
            raise Failure(f"{program} not found: install the Debian packages chromium and chromium-driver "
                          "(scripts/install-deps)")
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver"))
    return webdriver.Chrome(options=options, service=service)


class Page:
    """One report page opened in the browser."""

    def __init__(self, driver, path):
        self.driver = driver
        driver.get("file://" + os.path.abspath(path))
        WebDriverWait(driver, 60).until(
            lambda d: d.execute_script("return document.body.dataset.findings !== undefined"
                                       " || document.getElementById('status').textContent.startsWith('This page')"))
        status = driver.find_element(By.ID, "status").text
        check(driver.execute_script("return document.body.dataset.findings !== undefined"), f"{path}: {status}")

    def rows(self, pane):
        return self.driver.find_elements(By.CSS_SELECTOR, f"#{pane} .row")

    def row(self, pane, label):
        for row in self.rows(pane):
            if row.find_element(By.CLASS_NAME, "label").get_attribute("textContent") == label:
                return row
        raise Failure(f"no row '{label}' in {pane}")

    def open_path(self, pane, labels):
        """Expands the rows along `labels` and selects the last one."""
        for label in labels[:-1]:
            row = self.row(pane, label)
            if row.get_attribute("aria-expanded") == "false":
                row.find_element(By.CLASS_NAME, "toggle").click()
        self.row(pane, labels[-1]).find_element(By.CLASS_NAME, "label").click()
        check(self.row(pane, labels[-1]).get_attribute("aria-selected") == "true", f"{labels} not selected")

    def metric_path(self, unique_name):
        """The display names from the metric tree's root to the metric."""
        return self.driver.execute_script("""
            const metrics = window.hindsightReport.model.data.metrics;
            let m = metrics.findIndex((x) => x.id === arguments[0]);
            const path = [];
            for (; m >= 0; m = metrics[m].parent) path.unshift(metrics[m].name);
            return path;""", unique_name)

    def value(self, pane, label):
        return float(self.row(pane, label).get_attribute("data-value"))

    def rank_value(self, rank):
        bar = self.driver.find_element(By.CSS_SELECTOR, f"#rank-chart .rank[data-rank='{rank}']")
        return float(bar.get_attribute("data-value"))

    def shown(self, pane, label):
        return self.row(pane, label).find_element(By.CLASS_NAME, "value").text

    def show_communication(self):
        """Waits for the communication view and switches to it."""
        WebDriverWait(self.driver, 30).until(
            lambda d: d.execute_script("return document.body.dataset.communication !== undefined"))
        check(self.driver.execute_script("return document.body.dataset.communication") != "failed",
              f"the communication view failed: {self.driver.find_element(By.ID, 'status').text}")
        self.driver.find_element(By.ID, "communication-button").click()
        check(self.driver.find_element(By.ID, "heatmap").is_displayed(), "the heat map is not shown")

    def operation_cell(self, communicator, operation, column):
        """The text of a column (0: the label) of a communicator's row, or of its operation's."""
        selector = f"#communicator-table tr[data-communicator='{communicator}']"
        selector += f"[data-operation='{operation}']" if operation else ".communicator"
        return self.driver.find_element(By.CSS_SELECTOR, selector).find_elements(By.TAG_NAME, "td")[column].text

    def hover_cell(self, sender, receiver):
        """Moves the mouse over the heat map's cell of `sender` to `receiver` (rows, columns
        of its grid) and returns what the page says about it."""
        return self.driver.execute_script("""
            const canvas = document.getElementById("heatmap"), map = window.hindsightCommunication.map;
            const box = canvas.getBoundingClientRect();
            const at = (cell) => (cell + 0.5) * map.scale * canvas.clientWidth / canvas.width;
            // Whole pixels, as a mouse gives them (Chrome truncates a fraction):
            // rounding the middle of a cell of one pixel keeps it inside the
            // cell wherever a fractional layout puts the canvas.
            canvas.dispatchEvent(new MouseEvent("mousemove", {bubbles: true,
              clientX: Math.round(box.left + canvas.clientLeft + at(arguments[1])),
              clientY: Math.round(box.top + canvas.clientTop + at(arguments[0]))}));
            return document.getElementById("heatmap-tip").textContent;""", sender, receiver)

    def cell_colour(self, sender, receiver):
        """The heat map's colour (r, g, b) at the middle of the cell of `sender` to `receiver`."""
        return tuple(self.driver.execute_script("""
            const canvas = document.getElementById("heatmap"), map = window.hindsightCommunication.map;
            const at = (cell) => Math.floor((cell + 0.5) * map.scale);
            return Array.from(canvas.getContext("2d").getImageData(at(arguments[1]), at(arguments[0]), 1, 1).data)
              .slice(0, 3);""", sender, receiver))

    def axis_labels(self, which):
        """The rank (or node) labels along the heat map's columns or rows."""
        return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, f".heatmap-{which} span")]

    def console_errors(self):
        return [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]


def check_late_sender(driver, args, work):
    trace = os.path.join(work, "trace")
    run([args.writer, "good", trace])
    summary = run([args.mpiexec, "-n", "2", args.analyzer, os.path.join(trace, "traces.otf2")]).stdout
    page_path = os.path.join(trace, "analysis.html")
    check(os.path.isfile(page_path), "hindsight-analyze wrote no analysis.html beside analysis.cubex")
    check(f"  page: {page_path}\n" in summary, f"the summary does not name the page:\n{summary}")
    run([args.mpiexec, "-n", "2", args.analyzer, "-q", "--no-page", "--no-rootcause", "-o",
         os.path.join(trace, "no-rootcause.cubex"), trace])
    check(not os.path.exists(os.path.join(trace, "no-rootcause.html")), "--no-page wrote a page")
    page = Page(driver, page_path)
    check_first_view(driver, page, summary)
    check_late_sender_communication(driver, page)
    # What ran, under the title: the trace names no program, so the title
    # stays the report's name.
    run_line = driver.find_element(By.ID, "run").text
    check(run_line.startswith("2 ranks on Linux, 1 node") and "traced by Hindsight trace builder" in run_line
          and "analyzed by Hindsight " in run_line, f"the run line: {run_line!r}")
    check(driver.title == "analysis.cubex", f"the title of a run without a program: {driver.title!r}")

    # The findings: the Late Sender, where it is, and what caused it (rank 0
    # worked in main from 5 to 50 ns while rank 1 worked from 5 to 20: a
    # delay of 30 ns at main on rank 0).
    waits = driver.find_elements(By.XPATH, "//div[@class='finding'][h2='Largest wait states']/ol/li")
    check(waits and waits[0].text.startswith("Late Sender 30 ns"), f"first wait state: {[w.text for w in waits]}")
    links = waits[0].find_elements(By.XPATH, ".//a[not(ancestor::*[contains(@class, 'timeline-links')])]")
    check(len(links) == 2 and links[0].text == "main > MPI_Recv on rank 1" and links[1].text == "main on rank 0",
          f"Late Sender links: {[a.text for a in links]}")
    # The analyzer's own timeline window of that wait (rank 1 waited from
    # 20 to 50 ns): linked from the finding, with half the wait's length
    # before and after it.
    window_links = waits[0].find_elements(By.CSS_SELECTOR, ".timeline-links a")
    check([a.text for a in window_links] == ["rank 1 at 0.00000002 s (30 ns)"],
          f"the Late Sender's link to its window: {[a.text for a in window_links]}")
    check("(30 ns)" in waits[0].text.split("caused by")[1], f"the delay is not 30 ns: {waits[0].text}")
    links[1].click()
    check(driver.find_element(By.ID, "system-heading").text == "System — main", "the cause link did not select main")
    check("selected" in driver.find_element(By.CSS_SELECTOR, "#rank-chart .rank[data-rank='0']").get_attribute("class"),
          "the cause link did not select rank 0")
    links[0].click()
    check(driver.find_element(By.ID, "call-heading").text == "Call tree — Late Sender", "the link did not select Late Sender")
    check(page.row("call-tree", "MPI_Recv").get_attribute("aria-selected") == "true", "the link did not select MPI_Recv")
    causes = driver.find_element(By.CSS_SELECTOR, "#metric-info .metric-causes").text
    check(causes.startswith("caused by delays at main on rank 0"), f"causes beside the wait state: {causes}")

    page.open_path("metric-tree", page.metric_path("mpi_latesender"))
    page.open_path("call-tree", ["main", "MPI_Recv"])
    check(close(page.value("call-tree", "MPI_Recv"), 30e-9),
          f"Late Sender at main/MPI_Recv is {page.value('call-tree', 'MPI_Recv')}, expected 30 ns")
    check(close(page.rank_value(1), 30e-9), f"Late Sender on rank 1 is {page.rank_value(1)}, expected 30 ns")
    check(page.rank_value(0) == 0, f"Late Sender on rank 0 is {page.rank_value(0)}, expected 0")
    # The statistics over the ranks of 0 and 30 ns: quartiles interpolated
    # between them, the mean 15 ns, the maximum 15 ns (50 %) above it; sorted
    # by value, rank 1's bar comes first.
    numbers = driver.find_element(By.ID, "rank-numbers").text
    expected = ("min 0 (rank 0) · quartiles 7.5 ns, 15 ns, 22.5 ns · max 30 ns (rank 1) · mean 15 ns · "
                "imbalance (max − mean) 15 ns, 50.00 % of the maximum")
    check(numbers == expected, f"the statistics over the ranks: {numbers!r}")
    bars = lambda: [b.get_attribute("data-rank") for b in driver.find_elements(By.CSS_SELECTOR, "#rank-chart .rank")]
    check(bars() == ["0", "1"], f"bars in rank order: {bars()}")
    driver.find_element(By.ID, "sort-ranks").click()
    check(bars() == ["1", "0"], f"bars sorted by value: {bars()}")
    check(driver.find_element(By.CSS_SELECTOR, "#rank-chart .rank[data-rank='1'] .rank-label").text == "1",
          "rank 1's bar has no label")
    driver.find_element(By.ID, "sort-ranks").click()
    box = driver.find_element(By.CSS_SELECTOR, "#rank-box .box")
    check(box.get_attribute("style") == "left: 25%; width: 50%;", f"the box spans {box.get_attribute('style')!r}")
    check(page.shown("call-tree", "MPI_Recv") == "30 ns", f"shown as '{page.shown('call-tree', 'MPI_Recv')}'")
    system = [row.get_attribute("data-value") for row in page.rows("system-tree")]
    check(any(close(float(v), 30e-9) for v in system), f"no 30 ns in the system tree: {system}")

    # How values read: 4 significant digits, SI prefixes, rounding up to the next prefix.
    for value, unit, integer, text in ((0.000999999, "sec", False, "1 ms"), (30e-9, "sec", False, "30 ns"),
                                       (1.5, "sec", False, "1.5 s"), (1000, "sec", False, "1 ks"),
                                       (1234, "occ", True, "1,234"), (2.5e9, "bytes", True, "2.5 GB"),
                                       (-0.25, "sec", False, "-250 ms")):
        shown = driver.execute_script("return formatValue(...arguments)", value, unit, integer)
        check(shown == text, f"{value} {unit} shown as '{shown}', expected '{text}'")

    # Percentages: all of the metric is here; the root (time) is 2 x 100 ns.
    mode = Select(driver.find_element(By.ID, "calls-mode"))
    mode.select_by_value("metric")
    check(page.shown("call-tree", "MPI_Recv") == "100.00 %", f"% of metric: {page.shown('call-tree', 'MPI_Recv')}")
    mode.select_by_value("root")
    check(page.shown("call-tree", "MPI_Recv") == "15.00 %", f"% of root: {page.shown('call-tree', 'MPI_Recv')}")
    mode.select_by_value("selection")  # MPI_Recv is selected
    check(page.shown("call-tree", "MPI_Recv") == "100.00 %", f"% of selection: {page.shown('call-tree', 'MPI_Recv')}")
    mode.select_by_value("absolute")
    metric_mode = Select(driver.find_element(By.ID, "metrics-mode"))
    metric_mode.select_by_value("root")
    check(page.shown("metric-tree", "Late Sender") == "15.00 %", f"metric % of root: {page.shown('metric-tree', 'Late Sender')}")
    metric_mode.select_by_value("absolute")
    # Each row's full name on hover.
    title = page.row("call-tree", "MPI_Recv").find_element(By.CLASS_NAME, "label").get_attribute("title")
    check(title == "main > MPI_Recv", f"MPI_Recv's full name: {title!r}")
    # Rows without zeros: of main's callees only MPI_Recv has a Late Sender.
    rows = Select(driver.find_element(By.ID, "rows"))
    rows.select_by_value("nonzero")
    labels = [r.find_element(By.CLASS_NAME, "label").text for r in page.rows("call-tree")]
    check(labels == ["main", "MPI_Recv"], f"call paths without zeros: {labels}")
    rows.select_by_value("all")
    # The flat profile: one row per region, MPI_Recv's 30 ns over its call
    # paths; the system pane follows it.
    driver.find_element(By.ID, "flat-profile").click()
    labels = sorted(r.find_element(By.CLASS_NAME, "label").text for r in page.rows("call-tree"))
    check(labels == ["MPI_Finalize", "MPI_Init", "MPI_Recv", "MPI_Send", "main"], f"flat profile rows: {labels}")
    page.row("call-tree", "MPI_Recv").find_element(By.CLASS_NAME, "label").click()
    check(close(page.value("call-tree", "MPI_Recv"), 30e-9), "flat profile: MPI_Recv is not 30 ns")
    heading = driver.find_element(By.ID, "system-heading").text
    check(heading == "System — MPI_Recv (all call paths)", f"flat profile's system heading: {heading}")
    driver.find_element(By.ID, "flat-profile").click()
    check(driver.find_element(By.ID, "call-heading").text == "Call tree — Late Sender", "the call tree is not back")

    # Collapsed main includes its callees; expanded, it is its own share (0).
    check(close(page.value("call-tree", "main"), 0), "expanded main has Late Sender of its own")
    page.row("call-tree", "main").find_element(By.CLASS_NAME, "toggle").click()
    check(close(page.value("call-tree", "main"), 30e-9), "collapsed main does not include MPI_Recv's 30 ns")

    # Keys: select main, open it, go down to its callees.
    tree = driver.find_element(By.ID, "call-tree")
    page.row("call-tree", "main").find_element(By.CLASS_NAME, "label").click()
    tree.send_keys(Keys.ARROW_RIGHT)
    check(page.row("call-tree", "main").get_attribute("aria-expanded") == "true", "ArrowRight did not expand main")
    tree.send_keys(Keys.ARROW_RIGHT)
    heading = driver.find_element(By.ID, "system-heading").text
    check(heading.startswith("System — ") and heading != "System — main", f"ArrowRight did not go down: {heading}")

    # ArrowLeft goes back up to main, Home to the first row.
    tree.send_keys(Keys.ARROW_LEFT)
    check(driver.find_element(By.ID, "system-heading").text == "System — main", "ArrowLeft did not go up to main")
    tree.send_keys(Keys.ARROW_DOWN, Keys.HOME)
    check(driver.find_element(By.ID, "system-heading").text == "System — main", "Home did not go to main")

    # Sorted by value, the callee with the Late Sender comes first.
    labels = [r.find_element(By.CLASS_NAME, "label").text for r in page.rows("call-tree")]
    check(labels[1] != "MPI_Recv", f"callees already in value order: {labels}")
    driver.find_element(By.ID, "sort-by-value").click()
    labels = [r.find_element(By.CLASS_NAME, "label").text for r in page.rows("call-tree")]
    check(labels[:2] == ["main", "MPI_Recv"], f"sorted by value: {labels}")
    driver.find_element(By.ID, "sort-by-value").click()

    # Search.
    search = driver.find_element(By.ID, "search")
    search.send_keys("mpi_recv")
    search.send_keys(Keys.ENTER)
    check(driver.find_element(By.ID, "system-heading").text == "System — MPI_Recv", "search did not select MPI_Recv")
    check("match" in page.row("call-tree", "MPI_Recv").get_attribute("class"), "MPI_Recv not marked as a match")

    # The system pane follows a rank chosen in the chart.
    driver.find_element(By.CSS_SELECTOR, "#rank-chart .rank[data-rank='1']").click()
    check("selected" in driver.find_element(By.CSS_SELECTOR, "#rank-chart .rank[data-rank='1']").get_attribute("class"),
          "rank 1 not selected after a click on its bar")
    driver.save_screenshot(args.screenshot)
    check_system_modes(driver, page)
    check_splitter(driver)
    check_analyzer_timeline(driver)
    errors = page.console_errors()
    check(not errors, f"console errors: {errors}")


def check_analyzer_timeline(driver):
    """The timeline the analyzer kept of the Late Sender trace: its window of rank 1's wait (20 to
    50 ns), from 5 to 65 ns, a lane per rank, opened from the list of waits."""
    driver.find_element(By.ID, "timeline-button").click()
    link = driver.find_element(By.XPATH, "//div[@id='timeline-waits']//a[starts-with(., 'rank 1 at 0.00000002 s: 30 ns in ')]")
    link.click()
    timeline = Timeline(driver)
    t0, t1 = timeline.view()
    check(abs(t0 - 5e-9) < 1e-15 and abs(t1 - 65e-9) < 1e-15, f"the analyzer's window shows {(t0, t1)}")
    check(driver.find_element(By.ID, "timeline-lanes").text.split("\n") == ["rank 0", "rank 1"],
          "the lanes of the analyzer's window")


def check_system_modes(driver, page):
    """Time with its sub-metrics at main alone (its callees left out), per
    rank with its threads (the rows collapsed): rank 0 81 ns (100 less
    MPI_Init 4, MPI_Send 10, MPI_Finalize 5), rank 1 41 ns (less MPI_Recv
    50): of all ranks 66.39 % and 33.61 %, of the largest 100 % and 50.62 %."""
    driver.execute_script("const b = window.hindsightReport; const main = b.model.callTree.roots[0];"
                          "for (let g = 0; g < b.sys.groups; ++g) b.system.expanded.delete(b.sys.groupBase + g);"
                          "const time = b.model.metricNamed('time'); b.metrics.expanded.delete(time);"
                          "b.calls.expanded.add(main); b.show(time, main, -1);")
    mode = Select(driver.find_element(By.ID, "system-mode"))
    for value, expected in (("total", ["66.39 %", "33.61 %"]), ("peer", ["100.00 %", "50.62 %"])):
        mode.select_by_value(value)
        shown = [page.shown("system-tree", f"MPI Rank {r}") for r in (0, 1)]
        check(shown == expected, f"system values as {value}: {shown}, expected {expected}")
    mode.select_by_value("absolute")


def check_splitter(driver):
    """Dragging the splitter between the metric and the call pane by 100
    pixels to the left narrows the metric pane by as much."""
    pane = driver.find_elements(By.CSS_SELECTOR, "main > .pane")[0]
    before = pane.rect["width"]
    splitter = driver.find_elements(By.CSS_SELECTOR, "main > .splitter")[0]
    ActionChains(driver).click_and_hold(splitter).move_by_offset(-100, 0).release().perform()
    after = pane.rect["width"]
    check(abs((before - after) - 100) <= 2, f"the metric pane went from {before} to {after} px wide")


def check_first_view(driver, page, summary):
    """Before any click the panes show the largest finding, the Late Sender at main/MPI_Recv on
    rank 1, and the findings speak the summary's words: shares of the total time (30 of 2 x 100
    ns: 15.0 %), the critical path against the wall clock (the trace spans 0 to 100 ns), as the
    summary does."""
    check(driver.find_element(By.ID, "call-heading").text == "Call tree — Late Sender",
          f"first view: {driver.find_element(By.ID, 'call-heading').text}")
    check(page.row("call-tree", "MPI_Recv").get_attribute("aria-selected") == "true", "first view: MPI_Recv not selected")
    check("selected" in driver.find_element(By.CSS_SELECTOR, "#rank-chart .rank[data-rank='1']").get_attribute("class"),
          "first view: rank 1 not selected")
    check(close(page.rank_value(1), 30e-9), f"first view: rank 1 shows {page.rank_value(1)}, expected 30 ns")
    check("  Late Sender: 30.0 ns (15.0 %)\n" in summary and "percentages: shares of the total time" in summary,
          f"the summary's Late Sender:\n{summary}")
    waits = driver.find_elements(By.XPATH, "//div[@class='finding'][h2='Largest wait states']/ol/li")
    check(waits and waits[0].text.startswith("Late Sender 30 ns (15.0 % of the total time), most at "),
          f"first wait state: {[w.text for w in waits]}")
    lines = [line for line in summary.splitlines() if line.startswith("  Critical path: ")]
    check(len(lines) == 1 and lines[0].endswith(" (of 100 ns wall clock)"), f"the summary's critical path:\n{summary}")
    critical = driver.find_elements(By.XPATH, "//div[@class='finding'][h2='Critical path and its imbalance']/ol/li")
    check(critical and critical[0].text.startswith("Critical path ") and " (of 100 ns wall clock), most at " in critical[0].text,
          f"the page's critical path: {[c.text for c in critical]}")
    check(not driver.find_elements(By.XPATH, "//div[@class='finding']//li[contains(., '% of the time)')]"),
          "a finding in other words than the summary's")


def check_late_sender_communication(driver, page):
    """The communication view of the Late Sender trace: one message of 1024 bytes, rank 0 to 1."""
    page.show_communication()
    world = driver.execute_script(
        "return window.hindsightCommunication.data.communicators.find((c) => c.name === 'MPI_COMM_WORLD').id")
    check(page.operation_cell(world, None, 0) == "MPI_COMM_WORLD", "no row for MPI_COMM_WORLD")
    check(page.operation_cell(world, None, 1) == "2", "MPI_COMM_WORLD has not 2 ranks")
    for operation in ("MPI_Send", "MPI_Recv"):
        check(page.operation_cell(world, operation, 3) == "1", f"MPI_COMM_WORLD has not 1 {operation} operation")
    check(page.operation_cell(world, "MPI_Send", 7) == "1,024", "the send has not 1024 bytes")
    check(page.hover_cell(0, 1) == "rank 0 → rank 1: 1,024 point-to-point bytes",
          f"heat map cell 0 → 1: {page.hover_cell(0, 1)!r}")
    check(page.hover_cell(1, 0) == "rank 1 → rank 0: 0 point-to-point bytes",
          f"heat map cell 1 → 0: {page.hover_cell(1, 0)!r}")
    driver.find_element(By.ID, "communication-button").click()  # back to the panes
    check(driver.find_element(By.ID, "call-tree").is_displayed(), "the panes do not come back")


# A communicator named with markup, as the browser must show it.
HOSTILE_COMMUNICATOR = "</script><img src=x onerror=alert(3)> & \"world\""


def ring_structure(ranks, nodes):
    """A communication structure (doc/communication.md) of a ring: each rank sends 3 messages of
    100 bytes to the next and implies 40 collective bytes to the one before; ranks fill nodes in
    blocks."""
    per_node = ranks // nodes
    node_of = [r // per_node for r in range(ranks)]
    collective = {(r, (r - 1) % ranks): 40 for r in range(ranks)}
    cells = {(r, (r + 1) % ranks): [r, (r + 1) % ranks, 3, 300, 0] for r in range(ranks)}
    for (a, b), v in collective.items():
        cells.setdefault((a, b), [a, b, 0, 0, 0])[4] += v
    node_cells = {}
    for (a, b), c in cells.items():
        key = (node_of[a], node_of[b])
        if key[0] == key[1]:
            continue
        cell = node_cells.setdefault(key, [key[0], key[1], 0, 0, 0])
        for i in (2, 3, 4):
            cell[i] += c[i]
    return {
        "schema": "hindsight-communication", "version": 1, "trace": "t.otf2", "time_unit": "s",
        "communicators": [
            {"id": 0, "name": "MPI_COMM_WORLD", "label": "MPI_COMM_WORLD", "parent": None, "size": ranks,
             "members": list(range(ranks)), "topology": "none", "reorder": False, "dims": [], "periodic": [],
             "operations": 1, "time": 0.5, "waiting": 0.25, "bytes_sent": 40 * ranks,
             "by_operation": [{"operation": "MPI_Allgather", "operations": 1, "calls": ranks, "time": 0.5,
                               "waiting": 0.25, "bytes_sent": 40 * ranks, "bytes_received": 40 * ranks}]},
            {"id": 1, "name": HOSTILE_COMMUNICATOR, "label": HOSTILE_COMMUNICATOR + " of MPI_COMM_WORLD",
             "parent": 0, "size": ranks, "members": list(range(ranks)), "topology": "cartesian",
             "reorder": True, "dims": [ranks], "periodic": [True],
             "operations": 3 * ranks, "time": 2.0, "waiting": 1.0, "bytes_sent": 300 * ranks,
             "by_operation": [{"operation": "MPI_Send", "operations": 3 * ranks, "calls": 3 * ranks, "time": 1.5,
                               "waiting": 0, "bytes_sent": 300 * ranks, "bytes_received": 0},
                              {"operation": "MPI_Recv", "operations": 3 * ranks, "calls": 3 * ranks, "time": 0.5,
                               "waiting": 1.0, "bytes_sent": 0, "bytes_received": 300 * ranks}]}],
        "ranks": ranks, "rank_matrix": sorted(cells.values()),
        "nodes": [f"node{n}" for n in range(nodes)], "node_of_rank": node_of,
        "node_matrix": sorted(node_cells.values()),
        "placement": {"cores_per_node": per_node, "cores_from": "option", "nodes": nodes,
                      "total_bytes": 340 * ranks, "hosts": [f"node{n}" for n in range(nodes)],
                      "mappings": [{"name": "block", "inter_node_bytes": 680, "node_of_rank": node_of},
                                   {"name": "round-robin", "inter_node_bytes": 1360, "node_of_rank": node_of},
                                   {"name": "advised", "inter_node_bytes": 680, "node_of_rank": node_of}]}}


def check_communication(driver, args, work):
    cubex = os.path.join(work, "ring.cubex")
    run([args.hostile_writer, cubex])
    with open(os.path.join(work, "ring.communication.json"), "w", encoding="utf-8") as f:
        json.dump(ring_structure(4, 2), f)
    run([args.report_tool, cubex])
    page = Page(driver, os.path.join(work, "ring.html"))
    page.show_communication()
    # The table: communicators by time, the hostile name as text.
    labels = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#communicator-table tr.communicator td:first-child")]
    check(labels == [HOSTILE_COMMUNICATOR + " of MPI_COMM_WORLD", "MPI_COMM_WORLD"], f"communicators: {labels}")
    check(page.operation_cell(1, None, 2) == "cartesian 4 (reorder)", "the ring's topology")
    check(page.operation_cell(1, "MPI_Send", 3) == "12", "the ring has not 12 MPI_Send operations")
    check(page.operation_cell(1, None, 4) == "24", "the ring has not 24 calls")
    check(page.operation_cell(0, "MPI_Allgather", 4) == "4", "the allgather has not 4 calls")
    operations = lambda: [r.get_attribute("data-operation") for r in
                          driver.find_elements(By.CSS_SELECTOR, "#communicator-table tr.operation[data-communicator='1']")]
    check(operations() == ["MPI_Send", "MPI_Recv"], f"operations by time: {operations()}")
    driver.find_element(By.XPATH, "//table[@id='communicator-table']//th[.='Waiting']").click()
    check(operations() == ["MPI_Recv", "MPI_Send"], f"operations by waiting: {operations()}")
    # The heat map: rank r sends 300 bytes in 3 messages to r + 1 and implies 40 bytes to r - 1.
    check(page.hover_cell(3, 0) == "rank 3 → rank 0: 300 point-to-point bytes", f"cell 3 → 0: {page.hover_cell(3, 0)!r}")
    check(page.hover_cell(0, 2) == "rank 0 → rank 2: 0 point-to-point bytes", f"cell 0 → 2: {page.hover_cell(0, 2)!r}")
    Select(driver.find_element(By.ID, "matrix-quantity")).select_by_value("messages")
    check(page.hover_cell(1, 2) == "rank 1 → rank 2: 3 point-to-point messages", f"cell 1 → 2: {page.hover_cell(1, 2)!r}")
    Select(driver.find_element(By.ID, "matrix-quantity")).select_by_value("collective")
    check(page.hover_cell(0, 3) == "rank 0 → rank 3: 40 bytes collectives imply", f"cell 0 → 3: {page.hover_cell(0, 3)!r}")
    # Per node (ranks 0, 1 on node0): node0 -> node1 is 1 -> 2, 300 bytes and the 40 that 2 implies to 1 the other way.
    Select(driver.find_element(By.ID, "matrix-level")).select_by_value("nodes")
    Select(driver.find_element(By.ID, "matrix-quantity")).select_by_value("bytes")
    check(page.hover_cell(0, 1) == "node node0 → node node1: 300 point-to-point bytes", f"node cell: {page.hover_cell(0, 1)!r}")
    Select(driver.find_element(By.ID, "matrix-quantity")).select_by_value("collective")
    check(page.hover_cell(1, 0) == "node node1 → node node0: 40 bytes collectives imply", f"node cell: {page.hover_cell(1, 0)!r}")
    legend = driver.find_element(By.CLASS_NAME, "heatmap-legend").text
    check("linear scale from 0" in legend, f"one value (40 bytes) is no spread for a log scale: {legend!r}")
    placement = {row.get_attribute("data-mapping"): row.find_elements(By.TAG_NAME, "td")[1].get_attribute("data-value")
                 for row in driver.find_elements(By.CSS_SELECTOR, "#placement tr[data-mapping]")}
    check(placement == {"block": "680", "round-robin": "1360", "advised": "680"}, f"placement: {placement}")
    Select(driver.find_element(By.ID, "matrix-level")).select_by_value("ranks")
    Select(driver.find_element(By.ID, "matrix-quantity")).select_by_value("bytes")
    # Every rank labelled along both axes; equal cells in one colour.
    check(page.axis_labels("columns") == ["0", "1", "2", "3"], f"column labels: {page.axis_labels('columns')}")
    check(page.axis_labels("rows") == ["0", "1", "2", "3"], f"row labels: {page.axis_labels('rows')}")
    check(page.cell_colour(0, 1) == page.cell_colour(3, 0), "equal cells in different colours")
    for tag in ("img", "b"):
        check(not driver.find_elements(By.TAG_NAME, tag), f"a name became a <{tag}> element")
    check(len(driver.find_elements(By.TAG_NAME, "script")) == 4, "a name added a script element")
    driver.save_screenshot(args.screenshot.replace(".png", "-communication.png"))
    errors = page.console_errors()
    check(not errors, f"console errors: {errors}")

    # 1030 ranks on a canvas of 512 pixels: 3 ranks a pixel, 344 pixels a side; the pixel of ranks
    # 0-2 to ranks 3-5 holds the one message 2 -> 3.
    with open(os.path.join(work, "ring.communication.json"), "w", encoding="utf-8") as f:
        json.dump(ring_structure(1030, 2), f)
    run([args.report_tool, cubex])
    page = Page(driver, os.path.join(work, "ring.html"))
    page.show_communication()
    check(driver.execute_script("return document.getElementById('heatmap').width") == 344, "the heat map's size")
    check(page.hover_cell(0, 0) == "ranks 0–2 → ranks 0–2: 600 point-to-point bytes", f"block: {page.hover_cell(0, 0)!r}")
    check(page.hover_cell(0, 1) == "ranks 0–2 → ranks 3–5: 300 point-to-point bytes", f"block: {page.hover_cell(0, 1)!r}")
    check(page.hover_cell(343, 0) == "rank 1029 → ranks 0–2: 300 point-to-point bytes",
          f"last block: {page.hover_cell(343, 0)!r}")
    errors = page.console_errors()
    check(not errors, f"console errors: {errors}")


def check_matrix_scale(driver, args, work):
    """Nearly equal cells look nearly alike (a linear scale from 0); values
    orders of magnitude apart get a log scale, which the legend says."""
    cubex = os.path.join(work, "scale.cubex")
    run([args.hostile_writer, cubex])
    structure = ring_structure(4, 2)
    for cells, scale in (([[0, 1, 1, 413040, 0], [1, 2, 1, 413264, 0]], "linear scale from 0"),
                         ([[0, 1, 1, 1, 0], [1, 2, 1, 1000000, 0]], "log scale from the smallest value")):
        structure["rank_matrix"] = cells
        with open(os.path.join(work, "scale.communication.json"), "w", encoding="utf-8") as f:
            json.dump(structure, f)
        run([args.report_tool, cubex])
        page = Page(driver, os.path.join(work, "scale.html"))
        page.show_communication()
        legend = driver.find_element(By.CLASS_NAME, "heatmap-legend").text
        check(scale in legend, f"cells {cells}: the legend {legend!r} does not say {scale!r}")
        near, far = page.cell_colour(0, 1), page.cell_colour(1, 2)
        if scale.startswith("linear"):
            # 0.05 % apart: within 1 of 255 in every channel.
            check(all(abs(a - b) <= 1 for a, b in zip(near, far)), f"413,040 B in {near}, 413,264 B in {far}")
        else:
            check(near != far, f"1 B and 1 MB in one colour {near}")


# The communicator's name in the timeline fixture, as the browser must show it.
HOSTILE_TIMELINE_NAME = "<img src=x onerror=alert(4)> & \"world\""


def timeline_windows(cnode):
    """Timeline windows (the schema in doc/analyzer.md) of 2 ranks, by hand: a Late Sender of
    rank 1 in main/MPI_Recv from 1.48 s, 26 ms until rank 0's send (slot 7) at 1.506 s, received
    at 1.5065 s; both ranks then in MPI_Finalize as one collective (number 42), rank 1 waiting in
    it 2 ms. Rank 1's lane is kept from 1.475 s only. A second, shorter Late Sender at 1.6 s (rank
    0 there with an OpenMP worker thread in main from 1.597 to 1.605 s) and the wait in
    MPI_Finalize have windows of their own. `cnode` maps "main", "MPI_Send",
    "MPI_Recv", "MPI_Finalize" to the report's call paths."""
    main, send, recv, fin = (cnode[n] for n in ("main", "MPI_Send", "MPI_Recv", "MPI_Finalize"))
    path = lambda name, mpi: {"name": name, "path": name if name == "main" else f"main/{name}", "mpi": mpi}
    first = [
        {"rank": 0, "from": 1.47, "to": 1.52,
         "bars": [[1.47, 1.52, 0, main], [1.5055, 1.506, 1, send], [1.509, 1.511, 1, fin]],
         "sends": [[1.506, 1, 7]], "receives": [], "collectives": [[1.509, 1.511, 0, 42]], "waits": [],
         "critical": [[1.47, 1.506]]},
        {"rank": 1, "from": 1.475, "to": 1.52,
         "bars": [[1.475, 1.52, 0, main], [1.48, 1.5065, 1, recv], [1.507, 1.511, 1, fin]],
         "sends": [], "receives": [[1.5065, 0, 7]], "collectives": [[1.507, 1.511, 0, 42]],
         "waits": [[1.48, 1.506, "mpi_latesender"], [1.507, 1.509, "mpi_wait_nxn"]],
         "critical": [[1.506, 1.52]]}]
    second = [
        {"rank": 0, "from": 1.595, "to": 1.615, "bars": [[1.595, 1.615, 0, main], [1.6095, 1.61, 1, send]],
         "sends": [[1.61, 1, 8]], "receives": [], "collectives": [], "waits": [], "critical": [],
         "threads": [{"thread": 1, "from": 1.595, "to": 1.615, "bars": [[1.597, 1.605, 0, main]]}]},
        {"rank": 1, "from": 1.595, "to": 1.615, "bars": [[1.595, 1.615, 0, main], [1.6, 1.6102, 1, recv]],
         "sends": [], "receives": [[1.6102, 0, 8]], "collectives": [], "waits": [[1.6, 1.61, "mpi_latesender"]],
         "critical": []}]
    return {
        "schema": "hindsight-timeline", "version": 1, "ranks": 2,
        "patterns": {"mpi_latesender": "Late Sender", "mpi_wait_nxn": "Wait at N x N"},
        "paths": {str(main): path("main", False), str(send): path("MPI_Send", True),
                  str(recv): path("MPI_Recv", True), str(fin): path("MPI_Finalize", True)},
        "communicators": {"0": HOSTILE_TIMELINE_NAME},
        "windows": [
            {"instance": {"pattern": "mpi_latesender", "rank": 1, "start": 1.48, "waiting": 0.026, "path": recv},
             "from": 1.47, "to": 1.52, "lanes": first},
            {"instance": {"pattern": "mpi_latesender", "rank": 1, "start": 1.6, "waiting": 0.01, "path": recv},
             "from": 1.595, "to": 1.615, "lanes": second},
            {"instance": {"pattern": "mpi_wait_nxn", "rank": 1, "start": 1.507, "waiting": 0.002, "path": fin},
             "from": 1.47, "to": 1.52, "lanes": first}]}


class Timeline:
    """The timeline view of a page: its canvas geometry in CSS pixels (a lane of 30 per rank, the
    bars from 3 to 23 within it) and what the page shows."""
    LANE, BAR_TOP = 30, 3

    def __init__(self, driver):
        self.driver = driver

    def canvas(self):
        return self.driver.find_element(By.ID, "timeline-canvas")

    def width(self):
        return self.driver.execute_script("return document.getElementById('timeline-canvas').clientWidth")

    def x(self, t, t0, t1):
        return (t - t0) / (t1 - t0) * self.width()

    def colour(self, x, y):
        """The canvas's colour (r, g, b) at CSS pixel (x, y)."""
        return tuple(self.driver.execute_script("""
            const canvas = document.getElementById("timeline-canvas"), r = canvas.width / canvas.clientWidth;
            return Array.from(canvas.getContext("2d").getImageData(Math.floor(arguments[0] * r),
              Math.floor(arguments[1] * r), 1, 1).data);""", x, y))

    def hover(self, x, y):
        """Moves the mouse to CSS pixel (x, y) of the canvas; returns the tooltip's lines."""
        return self.driver.execute_script("""
            const canvas = document.getElementById("timeline-canvas"), box = canvas.getBoundingClientRect();
            canvas.dispatchEvent(new MouseEvent("mousemove", {bubbles: true,
              clientX: Math.round(box.left + arguments[0]), clientY: Math.round(box.top + arguments[1])}));
            const tip = document.getElementById("timeline-tip");
            return tip.hidden ? null : tip.textContent.split("\\n");""", x, y)

    def wheel(self, x, y, delta):
        self.driver.execute_script("""
            const canvas = document.getElementById("timeline-canvas"), box = canvas.getBoundingClientRect();
            canvas.dispatchEvent(new WheelEvent("wheel", {bubbles: true, cancelable: true, deltaY: arguments[2],
              clientX: Math.round(box.left + arguments[0]), clientY: Math.round(box.top + arguments[1])}));""",
                                   x, y, delta)

    def view(self):
        return tuple(self.driver.execute_script(
            "const c = window.hindsightTimeline.canvas; return [c.t0, c.t1];"))

    def axis(self):
        return [e.get_attribute("textContent") for e in self.driver.find_elements(By.CSS_SELECTOR, "#timeline-axis span")]

    def instances(self):
        """The list of waits: [(pattern's name, [lines])] in the order shown."""
        groups = self.driver.find_elements(By.CSS_SELECTOR, "#timeline-waits .timeline-pattern")
        return [(g.find_element(By.TAG_NAME, "h4").get_attribute("textContent"),
                 [a.get_attribute("textContent") for a in g.find_elements(By.TAG_NAME, "a")]) for g in groups]


def wait_for_timeline(driver):
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.body.dataset.timeline !== undefined"))
    check(driver.execute_script("return document.body.dataset.timeline") != "failed",
          f"the timeline view failed: {driver.find_element(By.ID, 'status').text}")


def check_timeline(driver, args, work):
    """The timeline view of hindsight-report's page of the Late Sender trace's report, with the
    windows of timeline_windows() beside it; the same report without them, and with damaged ones."""
    trace = os.path.join(work, "timeline")
    run([args.writer, "good", trace])
    run([args.mpiexec, "-n", "2", args.analyzer, "-q", "--no-page", "-o", os.path.join(trace, "run.cubex"),
         os.path.join(trace, "traces.otf2")])
    cubex, side, page_path = (os.path.join(trace, "run" + e) for e in (".cubex", ".timeline.json", ".html"))
    if os.path.exists(side):
        os.remove(side)  # the analyzer's own windows: this test writes its own

    # Without the windows: no view, no button, no error.
    result = run([args.report_tool, cubex])
    check(not result.stderr, f"warnings without a timeline file: {result.stderr!r}")
    page = Page(driver, page_path)
    wait_for_timeline(driver)
    check(not driver.find_elements(By.ID, "timeline-button") and not driver.find_elements(By.ID, "timeline"),
          "a page without timeline windows has the view")
    check(not driver.find_elements(By.CSS_SELECTOR, "#answers .timeline-links"), "findings link to no timeline")
    check(not page.console_errors(), f"console errors: {page.console_errors()}")
    cnode = {name: driver.execute_script(
        "const m = window.hindsightReport.model;"
        "return m.data.cnodes.findIndex((c, i) => m.pathOf(i).join('/') === arguments[0]);", path)
        for name, path in (("main", "main"), ("MPI_Send", "main/MPI_Send"), ("MPI_Recv", "main/MPI_Recv"),
                           ("MPI_Finalize", "main/MPI_Finalize"))}
    check(min(cnode.values()) >= 0, f"the report's call paths: {cnode}")

    # Damaged windows: one warning line, the page without the view.
    for text, problem in (('{"schema": "hindsight-timeline", "version": 2}',
                           "timeline file version 2, this page reads version 1"),
                          ('{"schema": "hindsight-timeline", "version": 1, "windows": [',
                           "not JSON: byte 59: unexpected end")):
        with open(side, "w", encoding="utf-8") as f:
            f.write(text)
        result = run([args.report_tool, cubex])
        warning = f"hindsight-report: warning: {side}: {problem}; the page has no timeline view\n"
        check(result.stderr == warning, f"the warning for {text!r}: {result.stderr!r}")
        check(result.stdout.strip() == page_path, f"hindsight-report printed {result.stdout!r}")
        Page(driver, page_path)
        wait_for_timeline(driver)
        check(not driver.find_elements(By.ID, "timeline-button"), "a page of damaged timeline windows has the view")
        check(not page.console_errors(), f"console errors: {page.console_errors()}")

    with open(side, "w", encoding="utf-8") as f:
        json.dump(timeline_windows(cnode), f)
    result = run([args.report_tool, cubex])
    check(not result.stderr, f"warnings with the timeline file: {result.stderr!r}")
    page = Page(driver, page_path)
    wait_for_timeline(driver)
    timeline = Timeline(driver)
    # The findings' Late Sender links its two longest waits.
    waits = driver.find_elements(By.XPATH, "//div[@class='finding'][h2='Largest wait states']/ol/li")
    links = waits[0].find_elements(By.CSS_SELECTOR, ".timeline-links a")
    check([a.text for a in links] == ["rank 1 at 1.48 s (26 ms)", "rank 1 at 1.6 s (10 ms)"],
          f"the Late Sender's links to its waits: {[a.text for a in links]}")
    check(driver.find_element(By.ID, "call-tree").is_displayed(), "the timeline shows before it is asked for")
    # The list: grouped by pattern, as the summary lists the waits.
    late_sender = ("Late Sender", ["rank 1 at 1.48 s: 26 ms in main/MPI_Recv", "rank 1 at 1.6 s: 10 ms in main/MPI_Recv"])
    nxn = ("Wait at N x N", ["rank 1 at 1.507 s: 2 ms in main/MPI_Finalize"])
    check(timeline.instances() == [late_sender, nxn], f"the list of waits: {timeline.instances()}")
    links[1].click()
    check(driver.find_element(By.ID, "timeline-canvas").is_displayed(), "the link does not show the timeline")
    check(not driver.find_element(By.ID, "call-tree").is_displayed(), "the panes show beside the timeline")
    title = driver.find_element(By.ID, "timeline-title").text
    check(title == "Late Sender: rank 1 at 1.6 s: 10 ms in main/MPI_Recv", f"the second link opened {title!r}")
    check(timeline.view() == (1.595, 1.615), f"the second window shows {timeline.view()}")
    # Rank 0's worker thread has a lane below the rank's: a bar while in main, idle after it; the
    # message still runs from rank 0's lane to rank 1's, now the third.
    check(driver.find_element(By.ID, "timeline-lanes").text.split("\n") == ["rank 0", "thread 1", "rank 1"],
          "the lanes' labels with a worker thread")
    x2 = lambda t: timeline.x(t, 1.595, 1.615)
    check(timeline.colour(x2(1.601), 30 + 8)[3] == 255, "the worker's bar at 1.601 s is not drawn")
    check(timeline.colour(x2(1.610), 30 + 8)[3] == 0, "the worker is drawn busy at 1.610 s")
    tip = timeline.hover(x2(1.601), 30 + 8)
    check(tip[:3] == ["rank 0, thread 1", "main", "main"], f"the tooltip of the worker at 1.601 s: {tip}")
    tip = timeline.hover(x2(1.610), 30 + 8)
    check(tip == ["rank 0, thread 1", "idle: outside the parallel regions"], f"the idle worker's tooltip: {tip}")
    tip = timeline.hover(x2(1.6102) - 2, 60 + 13)
    check(tip is not None and tip[0] == "message rank 0 → rank 1", f"the message to rank 1's lane: {tip}")
    # The first wait from the list: its window whole, 1.47 to 1.52 s.
    driver.find_element(By.XPATH, "//div[@id='timeline-waits']//a[.='rank 1 at 1.48 s: 26 ms in main/MPI_Recv']").click()
    t0, t1 = 1.47, 1.52
    check(timeline.view() == (t0, t1), f"the first window shows {timeline.view()}")
    check(driver.find_element(By.ID, "timeline-lanes").text.split("\n") == ["rank 0", "rank 1"], "the lanes' labels")
    width = timeline.width()
    check(width > 300, f"the canvas is {width} px wide")
    x = lambda t: timeline.x(t, t0, t1)
    # What is drawn: rank 0's MPI_Finalize (1.509 to 1.511 s) red, its main (before) not;
    # rank 1's lane before 1.475 s shaded as not kept.
    r, g, b, a = timeline.colour(x(1.510), 8)
    check(r > 150 and g < 90 and b < 90 and a == 255, f"rank 0's MPI_Finalize at 1.510 s is ({r}, {g}, {b}, {a})")
    r, g, b, a = timeline.colour(x(1.49), 8)
    check(a == 255 and min(r, g, b) > 100, f"rank 0's main at 1.49 s is ({r}, {g}, {b}, {a})")
    r, g, b, a = timeline.colour(x(1.472), 30 + 8)
    check(a == 255 and max(r, g, b) - min(r, g, b) < 16 and 150 < r < 230, f"rank 1 before 1.475 s is ({r}, {g}, {b}, {a})")
    check(timeline.colour(x(1.49), 30 + 27)[3] == 0, "rank 1 is on the critical path at 1.49 s")
    r, g, b, a = timeline.colour(x(1.51), 30 + 27)
    check(a == 255 and r > 200 and b < 60, f"rank 1's critical path at 1.51 s is ({r}, {g}, {b}, {a})")
    # Hovering says what is there.
    tip = timeline.hover(x(1.510), 8)
    expected = ["rank 0", "MPI_Finalize", "main/MPI_Finalize", "start 1.509 s, duration 2 ms",
                f"collective operation 42 on {HOSTILE_TIMELINE_NAME}: 1.509 s to 1.511 s, 2 rank(s) in the window"]
    check(tip == expected, f"the tooltip of rank 0 at 1.510 s: {tip}")
    tip = timeline.hover(x(1.49), 30 + 8)
    expected = ["rank 1", "MPI_Recv", "main/MPI_Recv", "start 1.48 s, duration 26.5 ms",
                "Late Sender: waiting 26 ms from 1.48 s (the wait of this window)"]
    check(tip == expected, f"the tooltip of rank 1 at 1.49 s: {tip}")
    tip = timeline.hover(x(1.472), 30 + 8)
    check(tip == ["rank 1", "events not kept here (the window keeps those nearest the wait)"], f"not kept: {tip}")
    # The message of 1.506 s (rank 0) to 1.5065 s (rank 1), at the middle of its line.
    tip = timeline.hover((x(1.506) + x(1.5065)) / 2, 28)
    check(tip == ["message rank 0 → rank 1", "sent at 1.506 s, received at 1.5065 s"], f"the message: {tip}")
    # The wheel zooms around the pointer: up by e^4.5 at 1.48 s, a span of 0.56 ms in µs.
    before = timeline.axis()
    check(before and all(label.endswith(" ms") for label in before), f"the axis of 50 ms: {before}")
    timeline.wheel(x(1.48), 8, -3000)
    z0, z1 = timeline.view()
    check(math.isclose(z1 - z0, 0.05 * math.exp(-4.5), rel_tol=1e-6) and z0 < 1.48 < z1, f"zoomed to {z0}, {z1}")
    # The pixel that shows the same time before and after is the pointer's (a whole pixel of the
    # window, within one of x(1.48 s)).
    fixed = (z0 - t0) / ((t1 - t0) - (z1 - z0)) * width
    check(abs(fixed - x(1.48)) <= 1, f"the zoom kept the time at {fixed} px, the pointer was at {x(1.48)} px")
    zoomed = timeline.axis()
    check(zoomed and all(label.endswith(" µs") for label in zoomed) and zoomed != before, f"the zoomed axis: {zoomed}")
    # Dragging 100 pixels to the left moves the view by as much later.
    ActionChains(driver).move_to_element(timeline.canvas()).click_and_hold().move_by_offset(-100, 0).release().perform()
    d0, d1 = timeline.view()
    check(math.isclose(d0 - z0, 100 / width * (z1 - z0), rel_tol=0.02) and math.isclose(d1 - d0, z1 - z0),
          f"dragged from {z0} to {d0}")
    driver.find_element(By.ID, "timeline-reset").click()
    check(timeline.view() == (t0, t1) and timeline.axis() == before, "reset does not show the window whole")
    # A click on rank 1's MPI_Recv selects it in the call tree, with rank 1.
    canvas = timeline.canvas()
    ActionChains(driver).move_to_element_with_offset(canvas, round(x(1.49) - width / 2),
                                                     round(30 + 8 - canvas.size["height"] / 2)).click().perform()
    selected = driver.execute_script("const b = window.hindsightReport; return [b.selectedCnode, b.system.selected - b.sys.groupBase];")
    check(selected == [cnode["MPI_Recv"], 1], f"the click selected {selected}")
    check(driver.find_element(By.ID, "timeline-status").text == "main > MPI_Recv on rank 1 is selected in the call tree.",
          f"after the click: {driver.find_element(By.ID, 'timeline-status').text!r}")
    # Back to the panes; Wait at N x N selected in the metric tree comes first in the list.
    driver.find_element(By.ID, "timeline-button").click()
    check(driver.find_element(By.ID, "call-tree").is_displayed(), "the panes do not come back")
    page.open_path("metric-tree", page.metric_path("mpi_wait_nxn"))
    check(timeline.instances() == [nxn, late_sender], f"the list with Wait at N x N selected: {timeline.instances()}")
    for tag in ("img",):
        check(not driver.find_elements(By.TAG_NAME, tag), f"a name became a <{tag}> element")
    driver.find_element(By.ID, "timeline-button").click()
    driver.save_screenshot(args.screenshot.replace(".png", "-timeline.png"))
    check(not page.console_errors(), f"console errors: {page.console_errors()}")


def check_named_run(driver, args, work):
    """A trace that names its program, arguments and start (the corpus's
    "named-run"): the page is titled after the program and the start, and the
    run line under the title gives the call."""
    trace = os.path.join(work, "named")
    run([args.writer, "named-run", trace])
    run([args.mpiexec, "-n", "2", args.analyzer, "-q", os.path.join(trace, "traces.otf2")])
    Page(driver, os.path.join(trace, "analysis.html"))
    title = "solver, 2026-11-27 08:30:00 UTC"
    check(driver.title == title, f"the title is {driver.title!r}, not {title!r}")
    check(driver.find_element(By.ID, "title").text == title, "the heading is not the title")
    run_line = driver.find_element(By.ID, "run").text
    check(run_line.startswith("solver --grid 64 · 2 ranks on Linux, 1 node · started 2026-11-27 08:30:00 UTC · "),
          f"the run line: {run_line!r}")


def check_diff(driver, args, work):
    """The same trace analyzed without the delay analysis, minus with it: the
    30 ns delay at main on rank 0 becomes -30 ns, the Late Sender stays."""
    trace = os.path.join(work, "trace")
    page_path = os.path.join(work, "diff.html")
    run([args.report_tool, "--diff", os.path.join(trace, "analysis.cubex"), os.path.join(trace, "no-rootcause.cubex"),
         "-o", page_path])
    page = Page(driver, page_path)
    # Both runs by their directory and name: every report is analysis.cubex.
    title = "trace/no-rootcause.cubex − trace/analysis.cubex"
    check(driver.title == title, f"the difference's title is {driver.title!r}, not {title!r}")
    # What describes one run (its wall clock, its activity graph) is no part of a difference.
    keys = driver.execute_script("return window.hindsightReport.model.data.attributes.map(([key]) => key)")
    check("Creator" in keys and "Hindsight wall clock" not in keys, f"the difference's attributes: {keys}")
    # Its findings are the changes: only the delay costs changed, -30 ns at main on rank 0.
    headings = [h.text for h in driver.find_elements(By.CSS_SELECTOR, "#answers .finding h2")]
    check(headings == ["What got better"], f"the difference's findings: {headings}")
    better = driver.find_elements(By.XPATH, "//div[@class='finding'][h2='What got better']/ol/li")
    check([b.text for b in better] == ["Delay costs -30 ns, most at main on rank 0 (-30 ns)"],
          f"what got better: {[b.text for b in better]}")
    # Shares: rounding noise of changes that cancel is 0, a small share stays.
    for value, shown in ((-6.1e-17, "0.00 %"), (5e-5, "0.0050 %"), (-0.25, "-25.00 %")):
        text = driver.execute_script("return formatPercent(arguments[0], 1)", value)
        check(text == shown, f"{value} of 1 in percent is {text!r}, not {shown!r}")
    page.open_path("metric-tree", page.metric_path("delay_latesender"))
    page.open_path("call-tree", ["main"])
    page.row("call-tree", "main").find_element(By.CLASS_NAME, "toggle").click()  # expanded: main alone
    check(close(page.value("call-tree", "main"), -30e-9), f"delay at main: {page.value('call-tree', 'main')}")
    check(close(page.rank_value(0), -30e-9), f"delay on rank 0: {page.rank_value(0)}")
    bar = driver.find_element(By.CSS_SELECTOR, "#rank-chart .rank[data-rank='0']")
    check("negative" in bar.get_attribute("class"), "a negative difference is not drawn as one")
    page.open_path("metric-tree", page.metric_path("mpi_latesender"))
    check(page.value("call-tree", "main") == 0, "the Late Sender differs between the two analyses")
    errors = page.console_errors()
    check(not errors, f"console errors: {errors}")


def check_hybrid_system(driver, args, work):
    trace = os.path.join(work, "hybrid")
    shutil.copytree(os.path.join(args.scalasca, "hybrid_fig13"), trace)
    os.remove(os.path.join(trace, "scalasca.cubex"))
    run([args.mpiexec, "-n", "2", args.analyzer, "-q", os.path.join(trace, "traces.otf2")])
    page = Page(driver, os.path.join(trace, "analysis.html"))
    driver.execute_script("const b = window.hindsightReport; const main = b.model.callTree.roots[0];"
                          "for (let s = 0; s < b.sys.label.length; ++s) if (b.sys.location[s] < 0) b.system.expanded.add(s);"
                          "const idle = b.model.metricNamed('omp_idle_threads'); b.metrics.expanded.delete(idle);"
                          "b.calls.expanded.add(main); b.show(idle, main, -1);")
    rows = [(row.find_element(By.CLASS_NAME, "label").get_attribute("textContent"), float(row.get_attribute("data-value")))
            for row in page.rows("system-tree")]
    ranks = [i for i, (label, _) in enumerate(rows) if label.startswith("MPI Rank ")]
    check(len(ranks) == 2, f"the system tree's ranks: {rows}")
    for rank, idle in zip(ranks, (1.1, 1.11)):
        threads = rows[rank + 1:rank + 3]
        check([label for label, _ in threads] == ["Master thread", "OMP thread 1"],
              f"below {rows[rank][0]}: {rows[rank + 1:]}")
        check(threads[0][1] == 0 and close(threads[1][1], idle), f"idle threads below {rows[rank][0]}: {threads}")
    check(close(page.rank_value(0), 1.1) and close(page.rank_value(1), 1.11),
          f"the rank chart: {page.rank_value(0)}, {page.rank_value(1)}")
    errors = page.console_errors()
    check(not errors, f"console errors: {errors}")


def check_scalasca(driver, args, work):
    page_path = os.path.join(work, "chain.html")
    result = run([args.report_tool, os.path.join(args.scalasca, "chain", "scalasca.cubex"), "-o", page_path])
    check(result.stdout.strip() == page_path, f"hindsight-report printed {result.stdout!r}")
    page = Page(driver, page_path)
    page.open_path("metric-tree", page.metric_path("mpi_latesender"))
    page.open_path("call-tree", ["main", "MPI_Recv"])
    check(close(page.rank_value(2), 1.1), f"Scalasca's Late Sender on rank 2 is {page.rank_value(2)}, expected 1.1 s")
    check(close(page.rank_value(0), 0), f"Scalasca's Late Sender on rank 0 is {page.rank_value(0)}, expected 0")
    errors = page.console_errors()
    check(not errors, f"console errors: {errors}")


def check_topology(driver, args, work):
    """The halo2d-row report's Cartesian topology (1 x 3, periodic; its
    anchor.xml places locations 0, 1, 2 at columns 0, 1, 2): one grid row of
    three cells, each with its rank's value as the rank chart has it, and a
    click on a cell selects that rank."""
    page_path = os.path.join(work, "halo2d-row.html")
    run([args.report_tool, os.path.join(args.scalasca, "halo2d-row", "scalasca.cubex"), "-o", page_path])
    page = Page(driver, page_path)
    check(driver.find_element(By.ID, "topology-select").text == "MPI_Cart_create @ main (1 × 3)",
          f"the topology: {driver.find_element(By.ID, 'topology-select').text!r}")
    cells = driver.find_elements(By.CSS_SELECTOR, "#topology .cell")
    places = [(c.get_attribute("data-coords"), c.get_attribute("data-location")) for c in cells]
    check(places == [("0,0", "0"), ("0,1", "1"), ("0,2", "2")], f"the topology's cells: {places}")
    for rank, cell in enumerate(cells):
        check(close(float(cell.get_attribute("data-value")), page.rank_value(rank)),
              f"rank {rank}'s cell holds {cell.get_attribute('data-value')}, its bar {page.rank_value(rank)}")
    cells[2].click()
    check("selected" in driver.find_element(By.CSS_SELECTOR, "#rank-chart .rank[data-rank='2']").get_attribute("class"),
          "a click on rank 2's cell did not select rank 2")
    errors = page.console_errors()
    check(not errors, f"console errors: {errors}")


def check_hostile_names(driver, args, work):
    cubex = os.path.join(work, "<b>hostile \"&\".cubex")
    run([args.hostile_writer, cubex])
    run([args.report_tool, cubex])
    page = Page(driver, os.path.join(work, "<b>hostile \"&\".html"))
    check(driver.find_element(By.ID, "title").text == "<b>hostile \"&\".cubex", "the title is not shown as text")
    check(driver.title == "<b>hostile \"&\".cubex", f"the window title is {driver.title!r}")
    page.row("call-tree", "main")
    for number, name in enumerate(HOSTILE_NAMES, 1):
        check(close(page.value("call-tree", name), number), f"call path '{name}' has not {number} s")
    check(page.row("system-tree", "<b>machine</b>") is not None, "system node name")
    check(page.row("metric-tree", "Time \"&\" <b>bold</b>") is not None, "metric name")
    for tag in ("img", "b", "i"):
        check(not driver.find_elements(By.TAG_NAME, tag), f"a name became a <{tag}> element")
    check(len(driver.find_elements(By.TAG_NAME, "script")) == 4, "a name added a script element")
    try:
        text = driver.switch_to.alert.text
        raise Failure(f"a name opened a dialog: {text}")
    except NoAlertPresentException:
        pass
    errors = page.console_errors()
    check(not errors, f"console errors: {errors}")


def check_suspect_values(driver, args, work):
    """The reader's warnings in the page's band, the values they warn about
    shown as the file has them, and names with control characters."""
    cubex = os.path.join(work, "callee-exceeds-caller.cubex")
    run([args.hostile_writer, "callee-exceeds-caller", cubex])
    run([args.report_tool, cubex])
    page = Page(driver, os.path.join(work, "callee-exceeds-caller.html"))
    band = [p.get_attribute("textContent") for p in driver.find_elements(By.CSS_SELECTOR, "#warnings p")]
    check(band == [f"Warning: {cubex}: metric time (call-tree inclusive): the callees of call path main exceed it on "
                   "rank 0, so its exclusive value is -2 sec (1 more negative values)"], f"the warnings band: {band}")
    # Inclusive main 1, 2 and solve 3, 4 (write_hostile_report): main alone -2 - 2.
    check(close(page.value("call-tree", "main"), -4), f"main alone is {page.value('call-tree', 'main')}")
    check(not page.console_errors(), f"console errors: {page.console_errors()}")

    cubex = os.path.join(work, "control-names.cubex")
    run([args.hostile_writer, "control-names", cubex])
    run([args.report_tool, cubex])
    page = Page(driver, os.path.join(work, "control-names.html"))
    check(not driver.find_elements(By.CSS_SELECTOR, "#warnings p"), "warnings for a sound report")
    check(close(page.value("call-tree", "ma\nin\rx"), 3), "the name with a line break is not one row")
    check(len(page.rows("call-tree")) == 2, f"{len(page.rows('call-tree'))} rows for main and its callee")
    check(not page.console_errors(), f"console errors: {page.console_errors()}")


def check_analysis_warnings(driver, args, work):
    """The analyzer's warnings line (the report's 'Hindsight warnings'
    attribute) in the page's band: rank 0 of the corpus trace "unmatched"
    sends rank 1 a second message it never receives."""
    trace = os.path.join(work, "unmatched")
    run([args.writer, "unmatched", trace])
    run([args.mpiexec, "-n", "2", args.analyzer, "-q", os.path.join(trace, "traces.otf2")])
    page = Page(driver, os.path.join(trace, "analysis.html"))
    band = [p.get_attribute("textContent") for p in driver.find_elements(By.CSS_SELECTOR, "#warnings p")]
    check(band == ["Warning: 1 message from rank 0 to rank 1 has no matching receive (at main/MPI_Send); it is left "
                   "out of the analysis"], f"the warnings band: {band}")
    check(not page.console_errors(), f"console errors: {page.console_errors()}")


def check_activity_graph(driver, args, work):
    """--graph with a --what-if on the corpus trace "good": the report keeps the graph's findings as
    its attribute 'Hindsight activity graph', and the page shows them as the summary does (the
    longest path, at most the 100 ns the trace spans; the what-if with its predicted run time and
    change; the call paths on each path as links to their time)."""
    trace = os.path.join(work, "graph")
    run([args.writer, "good", trace])
    what_if = "callpath=main,rank=0,scale=0.5"
    summary = run([args.mpiexec, "-n", "2", args.analyzer, "--graph", "--what-if", what_if,
                   os.path.join(trace, "traces.otf2")]).stdout
    with tarfile.open(os.path.join(trace, "analysis.cubex")) as archive:
        anchor = ElementTree.fromstring(archive.extractfile("anchor.xml").read())
    kept = [a.get("value") for a in anchor.iter("attr") if a.get("key") == "Hindsight activity graph"]
    check(len(kept) == 1, "the report keeps no activity graph")
    graph = json.loads(kept[0])
    length = graph["recorded"]["seconds"]
    check(graph["schema"] == "hindsight-activity-graph" and 0 < length <= 100e-9 and
          [w["label"] for w in graph["what_ifs"]] == [what_if], f"the report's activity graph: {graph}")
    check(f"    {what_if}: " in summary, f"the summary has no what-if:\n{summary}")

    page = Page(driver, os.path.join(trace, "analysis.html"))
    shown = lambda v: driver.execute_script("return formatValue(arguments[0], 'sec')", v)
    items = lambda title: driver.find_elements(By.XPATH, f"//div[@class='finding'][h2='{title}']/ol/li")
    recorded = items("Longest path of the activity graph")
    check(len(recorded) == 1 and recorded[0].text.startswith(shown(length) + "\non the path: "),
          f"the longest path: {[r.text for r in recorded]}")
    links = recorded[0].find_elements(By.TAG_NAME, "a")
    check(len(links) == min(3, len(graph["recorded"]["path"])), f"the longest path's links: {[a.text for a in links]}")
    predicted = graph["what_ifs"][0]["seconds"]
    change = 100 * (predicted - length) / length
    what_ifs = items("What if (predicted run time)")
    check(len(what_ifs) == 1 and what_ifs[0].text.startswith(f"{what_if} {shown(predicted)} ({change:.1f} %)"),
          f"the what-if: {[w.text for w in what_ifs]}")
    links[0].click()
    check(driver.find_element(By.ID, "call-heading").text == "Call tree — Time", "the path's link did not select Time")
    check(not page.console_errors(), f"console errors: {page.console_errors()}")


def check_scorep_profile(driver, args, work):
    cubex = os.path.join(work, "profile.cubex")
    run([args.scorep_writer, cubex])
    run([args.report_tool, cubex])
    page = Page(driver, os.path.join(work, "profile.html"))
    page.open_path("metric-tree", ["min_time"])
    # The root is open at first: main alone, its callees with theirs.
    check(close(page.value("call-tree", "main"), 6), f"min_time of main alone is {page.value('call-tree', 'main')}")
    check(close(page.value("call-tree", "foo"), 0.25), f"min_time of foo and baz is {page.value('call-tree', 'foo')}")
    page.row("call-tree", "main").find_element(By.CLASS_NAME, "toggle").click()
    check(close(page.value("call-tree", "main"), 0.25), f"min_time of main with callees is {page.value('call-tree', 'main')}")
    check(page.shown("call-tree", "main") == "250 ms", f"min_time of main shows as {page.shown('call-tree', 'main')!r}")
    page.open_path("call-tree", ["main"])
    check(close(page.rank_value(0), 0.25) and close(page.rank_value(1), 0.5),
          f"min_time per rank is {page.rank_value(0)}, {page.rank_value(1)}; expected 0.25, 0.5")
    check(close(page.value("system-tree", "node0"), 0.25), f"min_time of the node is {page.value('system-tree', 'node0')}")
    Select(driver.find_element(By.ID, "calls-mode")).select_by_value("metric")
    check(page.shown("call-tree", "main") == "100.00 %", f"min_time of main is {page.shown('call-tree', 'main')!r} of its total")
    Select(driver.find_element(By.ID, "calls-mode")).select_by_value("absolute")
    check(page.shown("metric-tree", "avg_time") == "not computed",
          f"the derived metric shows {page.shown('metric-tree', 'avg_time')!r}")
    errors = page.console_errors()
    check(not errors, f"console errors: {errors}")


def main():
    parser = argparse.ArgumentParser()
    for option in ("--analyzer", "--report-tool", "--mpiexec", "--writer", "--hostile-writer", "--scorep-writer",
                   "--scalasca", "--screenshot"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hindsight-page.") as work:
        driver = None
        try:
            driver = start_browser(os.path.join(work, "profile"))
            for scenario in (check_late_sender, check_named_run, check_diff, check_hybrid_system, check_scalasca,
                             check_topology,
                             check_hostile_names,
                             check_suspect_values, check_analysis_warnings, check_activity_graph, check_scorep_profile, check_communication,
                             check_matrix_scale, check_timeline):
                scenario(driver, args, work)
                print(f"ok: {scenario.__name__}")
        except Failure as failure:
            print(f"FAIL: {failure}", file=sys.stderr)
            return 1
        except WebDriverException as problem:
            # An unexpected dialog (a name run as script) ends here too.
            print(f"FAIL: the browser: {problem.msg}", file=sys.stderr)
            return 1
        finally:
            if driver is not None:
                driver.quit()
    print(f"screenshot: {args.screenshot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
