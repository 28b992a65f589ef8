#!/usr/bin/python3
"""Times a report page in headless Chromium: the time until the trees are
shown and until the findings are (from the start of navigation, as the page
reports them), the browser's first contentful paint, then single interactions (expanding a
call path, selecting one, switching the metric, the value mode, sorting, the
flat profile, hiding rows),
each timed in the page from the event to the end of the layout it causes.

    bench_page.py PAGE.html [REPEATS]

Prints one line per measurement (the median of REPEATS, default 5). It
asserts nothing: the numbers go into bench/report/README.md.
"""
import os
import shutil
import statistics
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1400,900"]

# Runs one interaction and returns its milliseconds, layout included (null
# when the page has nothing to do it on, e.g. no call path to expand).
TIMED = """
const act = new Function(arguments[0]);
const start = performance.now();
try { act(); } catch (e) { return null; }
document.body.offsetHeight;
return performance.now() - start;
"""

INTERACTIONS = {
    "expand a call path": "document.querySelector('#call-tree .row[aria-expanded=false] .toggle').click()",
    "collapse it again": "document.querySelector('#call-tree .row[aria-expanded=true]:not(:first-child) .toggle').click()",
    "select a call path": "document.querySelectorAll('#call-tree .row .label')[2].click()",
    "switch the metric": "document.querySelectorAll('#metric-tree .row .label')[window.benchMetric ^= 1].click()",
    "percent of the metric": "const s = document.getElementById('calls-mode'); s.value = 'metric'; s.dispatchEvent(new Event('change'))",
    "back to absolute": "const s = document.getElementById('calls-mode'); s.value = 'absolute'; s.dispatchEvent(new Event('change'))",
    "sort by value": "document.getElementById('sort-by-value').click()",
    "flat profile": "document.getElementById('flat-profile').click()",
    "back to the call tree": "document.getElementById('flat-profile').click()",
    "rows without zeros": "const s = document.getElementById('rows'); s.value = 'nonzero'; s.dispatchEvent(new Event('change'))",
    "all rows again": "const s = document.getElementById('rows'); s.value = 'all'; s.dispatchEvent(new Event('change'))",
}


def main():
    page = os.path.abspath(sys.argv[1])
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print(f"page: {page}, {os.path.getsize(page) / 1e6:.1f} MB")
    loads, findings, paints = [], [], []
    samples = {name: [] for name in INTERACTIONS}
    with tempfile.TemporaryDirectory() as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for flag in FLAGS + [f"--user-data-dir={profile}"]:
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
        driver.set_page_load_timeout(600)
        try:
            for _ in range(repeats):
                driver.get("file://" + page)
                WebDriverWait(driver, 600).until(lambda d: d.execute_script("return document.body.dataset.findings"))
                loads.append(float(driver.execute_script("return document.body.dataset.ready")))
                findings.append(float(driver.execute_script("return document.body.dataset.findings")))
                paint = driver.execute_script(
                    "const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null")
                paints.append(paint or 0)
                driver.execute_script("window.benchMetric = 0")
                for name, action in INTERACTIONS.items():
                    ms = driver.execute_script(TIMED, action)
                    if ms is not None:
                        samples[name].append(ms)
        finally:
            driver.quit()
    print(f"trees shown after {statistics.median(loads):.0f} ms, findings after {statistics.median(findings):.0f} ms "
          f"(first contentful paint {statistics.median(paints):.0f} ms)")
    for name, values in samples.items():
        print(f"{name}: {statistics.median(values):.1f} ms" if values else f"{name}: not possible on this page")


if __name__ == "__main__":
    main()
