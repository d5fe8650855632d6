#!/usr/bin/env python3
"""The mind map in headless Chromium: overlaps, covered labels, layout time and pan/zoom frame times.

    .build/release/lens-bench graph --sizes 3000 --brute-force-limit 0 --store 3300 --keep /tmp/g3000.db
    .build/browser-venv/bin/python Tests/browser/measure_map.py /tmp/g3000.db "map?type=phone&max_nodes=3000" /tmp/map 1400,390
    (an OUT name containing "expand" opens the first closed group before timing frames: expandMs is
    the script's time, drawnMs the time until the frame after the one that drew it)

Prints, per window width, what MAP_MEASURE counts and the frame intervals of 120 frames that
alternate a wheel zoom and a drag (requestAnimationFrame timestamps: 16.7 ms is the display's
rate), then 120 frames of pans only, of zooms only, and with nothing moving on the same page:
the baseline, since a headless Chromium on a busy machine drops frames of its own. slowFrames counts intervals over
20 ms. Saves screenshots OUT-WIDTH.png to look at.
"""
import json
import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_page import MAP_MEASURE, serve_database  # noqa: E402  (what the tests count, the same way)

FRAMES = r"""
const done = arguments[arguments.length - 1];
const svg = document.querySelector('#map');
const expand = arguments[0], mode = arguments[1];
let layout = null, t0 = null, drawn = null;
if (expand) {
  const c = document.querySelector('#map .cluster');
  if (c) { t0 = performance.now(); c.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'})); layout = performance.now() - t0; }
}
// From the key press to the frame after the one that drew the opened group (style, layout, paint).
if (t0 !== null) requestAnimationFrame(() => requestAnimationFrame(() => { drawn = performance.now() - t0; }));
const box = svg.getBoundingClientRect();
const times = [];
let last = null, i = 0;
const tick = (t) => {
  if (last !== null) times.push(t - last);
  last = t;
  if (i++ >= 120) {
    times.sort((a, b) => a - b);
    const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
    const slow = times.filter((x) => x > 20).length;
    done({slowFrames: slow, expandMs: layout && layout.toFixed(0), drawnMs: drawn && drawn.toFixed(0), nodes: document.querySelectorAll('#map .node').length, p50: q(0.5), p95: q(0.95), max: times[times.length - 1].toFixed(1), layoutMs: svg.dataset.layoutMs, layoutOnlyMs: svg.dataset.layoutOnlyMs});
    return;
  }
  if (mode === 'still') { requestAnimationFrame(tick); return; }  // the baseline: nothing moves
  // Alternate pans (pointer drag) and zooms (wheel, in and out), one per frame, or only one kind.
  const zoom = mode === 'zoom' || (mode === 'mixed' && i % 2);
  if (zoom) svg.dispatchEvent(new WheelEvent('wheel', {deltaY: ((mode === 'zoom' ? i % 2 : i % 4 === 1) ? -40 : 40), clientX: box.left + box.width / 2, clientY: box.top + box.height / 2, bubbles: true, cancelable: true}));
  else {
    svg.dispatchEvent(new PointerEvent('pointerdown', {pointerId: 9, clientX: box.left + 5, clientY: box.top + 5, bubbles: true}));
    // Right and down, then back: the map stays in view.
    const d = i % 4 < 2 ? 20 : -20;
    svg.dispatchEvent(new PointerEvent('pointermove', {pointerId: 9, clientX: box.left + 5 + d, clientY: box.top + 5 + d / 2, bubbles: true}));
    svg.dispatchEvent(new PointerEvent('pointerup', {pointerId: 9, clientX: box.left + 5 + d, clientY: box.top + 5 + d / 2, bubbles: true}));
  }
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
"""


def main():
    db, path, out = sys.argv[1], sys.argv[2], sys.argv[3]
    widths = [int(w) for w in sys.argv[4].split(",")] if len(sys.argv) > 4 else [1400, 390]
    serve, url = serve_database(db)
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        for width in widths:
            driver.set_window_size(width, 900 if width > 500 else 844)
            driver.get(url + path)
            for _ in range(100):
                if driver.execute_script("return document.querySelector('#map').dataset.settled") == "true":
                    break
                time.sleep(0.1)
            time.sleep(1.0)
            print(width, json.dumps(driver.execute_script(MAP_MEASURE)))
            driver.save_screenshot(f"{out}-{width}.png")
            driver.set_script_timeout(120)
            print("frames", json.dumps(driver.execute_async_script(FRAMES, "expand" in out, "mixed")))
            for mode in ["pan", "zoom", "still"]:
                print(f"{mode:6}", json.dumps(driver.execute_async_script(FRAMES, False, mode)))
            driver.save_screenshot(f"{out}-{width}-after.png")
            # As drawn while it moves (a dense map shows a sketch until it stops).
            driver.execute_script("""const m = document.querySelector('#map'), b = m.getBoundingClientRect();
              m.dispatchEvent(new WheelEvent('wheel', {deltaY: -40, clientX: b.left + b.width / 2, clientY: b.top + b.height / 2, bubbles: true, cancelable: true}));""")
            driver.save_screenshot(f"{out}-{width}-moving.png")
            print(width, json.dumps(driver.execute_script(MAP_MEASURE)))
    finally:
        driver.quit()
        serve.terminate()


if __name__ == "__main__":
    main()
