"""Measures lens serve's page in headless Chromium: the first load to a rendered grid, and the
mind map's layout at several sizes. A benchmark: it prints figures and asserts nothing.

    python3 Tests/browser/measure_page.py --db /tmp/lens-100k.db [--map-db /tmp/lens-graph.db]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]


def serve(lens, db, cache):
    process = subprocess.Popen([lens, "serve", "--db", db, "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, env=dict(os.environ, XDG_CACHE_HOME=cache))
    line = process.stdout.readline()
    return process, re.search(r"http://\S+/", line).group(0)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True, help="the library for the first-load figure")
    parser.add_argument("--map-db", help="a library with connections for the mind map figures")
    parser.add_argument("--lens", default=str(ROOT / ".build/release/lens"))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--map-sizes", default="300,1000,3000")
    args = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="lens-measure-")
    driver = browser()
    try:
        server, url = serve(args.lens, args.db, cache)
        try:
            loads = []
            for run in range(args.runs + 1):
                driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": run % 2 == 0})
                driver.get(url)
                WebDriverWait(driver, 30).until(lambda d: d.execute_script(
                    "return performance.getEntriesByName('lens-first-results').length > 0"))
                mark = driver.execute_script("return performance.getEntriesByName('lens-first-results')[0].startTime")
                cards = driver.execute_script("return document.querySelectorAll('#results .card').length")
                if run > 0:  # the first run warms the server's caches
                    loads.append(mark)
            print(f"first load of / to a rendered grid ({cards} cards), {args.runs} runs: "
                  f"median {statistics.median(loads):.0f} ms, min {min(loads):.0f}, max {max(loads):.0f}")
        finally:
            server.terminate()
            server.wait()
        if args.map_db:
            server, url = serve(args.lens, args.map_db, cache)
            try:
                for size in [int(s) for s in args.map_sizes.split(",")]:
                    started = time.time()
                    driver.get(f"{url}map?max_nodes={size}")
                    WebDriverWait(driver, 120).until(lambda d: d.execute_script(
                        "return document.getElementById('map').dataset.settled === 'true'"))
                    total = (time.time() - started) * 1000
                    nodes = driver.execute_script("return document.querySelectorAll('#map .node').length")
                    edges = driver.execute_script("return document.querySelectorAll('#map line').length")
                    layout = driver.execute_script("return document.getElementById('map').dataset.layoutMs")
                    print(f"mind map, {nodes} nodes and {edges} edges: laid out in {layout} ms, {total:.0f} ms from navigation to settled")
            finally:
                server.terminate()
                server.wait()
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
