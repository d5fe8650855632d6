#!/usr/bin/env python3
"""The mind map in headless Chromium: overlaps, covered labels, layout time and pan/zoom frame times.

    .build/release/lens-bench graph --sizes 3000 --brute-force-limit 0 --store 3300 --keep /tmp/g3000.db
    .build/browser-venv/bin/python Tests/browser/measure_map.py /tmp/g3000.db "map?type=phone&max_nodes=3000" /tmp/map 1400,390
    (an OUT name containing "expand" opens the first closed group before timing frames)

Prints, per window width, what MAP_MEASURE counts and the frame intervals of 120 frames that
alternate a wheel zoom and a drag (requestAnimationFrame timestamps: 16.7 ms is the display's
rate), and saves screenshots OUT-WIDTH.png to look at.
"""
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
db, path, out = sys.argv[1], sys.argv[2], sys.argv[3]
widths = [int(w) for w in sys.argv[4].split(",")] if len(sys.argv) > 4 else [1400, 390]
p = subprocess.Popen([str(Path(__file__).resolve().parents[2] / ".build/debug/lens"), "serve", "--db", db, "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
url = None
while url is None:
    line = p.stdout.readline()
    m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    if m: url = m.group(1)
FRAMES = r"""
const done = arguments[arguments.length - 1];
const svg = document.querySelector('#map');
const expand = arguments[0];
let layout = null;
if (expand) {
  const c = document.querySelector('#map .cluster');
  if (c) { const t0 = performance.now(); c.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'})); layout = performance.now() - t0; }
}
const box = svg.getBoundingClientRect();
const times = [];
let last = null, i = 0;
const tick = (t) => {
  if (last !== null) times.push(t - last);
  last = t;
  if (i++ >= 120) {
    times.sort((a, b) => a - b);
    const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
    done({expandMs: layout && layout.toFixed(0), nodes: document.querySelectorAll('#map .node').length, p50: q(0.5), p95: q(0.95), max: times[times.length - 1].toFixed(1), layoutMs: svg.dataset.layoutMs, layoutOnlyMs: svg.dataset.layoutOnlyMs});
    return;
  }
  // Alternate pans (pointer drag) and zooms (wheel), one per frame.
  if (i % 2) svg.dispatchEvent(new WheelEvent('wheel', {deltaY: (i % 4 === 1 ? -40 : 40), clientX: box.left + box.width / 2, clientY: box.top + box.height / 2, bubbles: true, cancelable: true}));
  else {
    svg.dispatchEvent(new PointerEvent('pointerdown', {pointerId: 9, clientX: box.left + 5, clientY: box.top + 5, bubbles: true}));
    svg.dispatchEvent(new PointerEvent('pointermove', {pointerId: 9, clientX: box.left + 25, clientY: box.top + 15, bubbles: true}));
    svg.dispatchEvent(new PointerEvent('pointerup', {pointerId: 9, clientX: box.left + 25, clientY: box.top + 15, bubbles: true}));
  }
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
"""
MEASURE = """
const rects = [...document.querySelectorAll('#map .node')].map(g => g.getBoundingClientRect());
let overlaps = 0;
for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) {
  const a = rects[i], b = rects[j];
  if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) overlaps++;
}
const labels = [...document.querySelectorAll('#map .edge-label')].filter(l => getComputedStyle(l).display !== 'none').map(l => l.getBoundingClientRect());
let covered = 0;
for (const l of labels) if (rects.some(a => l.left < a.right && a.left < l.right && l.top < a.bottom && a.top < l.bottom)) covered++;
let labelOverlaps = 0;
for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) {
  const a = labels[i], b = labels[j];
  if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) labelOverlaps++;
}
const box = document.querySelector('#map').getBoundingClientRect();
const all = document.querySelector('#map > g').getBoundingClientRect();
return {nodes: rects.length, overlaps, labels: labels.length, hidden: document.querySelectorAll('#map .edge-label.no-room').length, covered, labelOverlaps,
        layoutMs: document.querySelector('#map').dataset.layoutMs, fill: [(all.width/box.width).toFixed(2), (all.height/box.height).toFixed(2)],
        status: document.querySelector('#map-status').textContent};
"""
o = webdriver.ChromeOptions()
for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]: o.add_argument(a)
o.binary_location = "/usr/bin/chromium"
d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
try:
    for w in widths:
        d.set_window_size(w, 900 if w > 500 else 844)
        d.get(url + path)
        for _ in range(100):
            if d.execute_script("return document.querySelector('#map').dataset.settled") == "true": break
            time.sleep(0.1)
        time.sleep(1.0)
        print(w, json.dumps(d.execute_script(MEASURE)))
        d.save_screenshot(f"{out}-{w}.png")
        d.set_script_timeout(120)
        print("frames", json.dumps(d.execute_async_script(FRAMES, "expand" in out)))
        d.save_screenshot(f"{out}-{w}-after.png")
        print(w, json.dumps(d.execute_script(MEASURE)))
finally:
    d.quit(); p.terminate()
