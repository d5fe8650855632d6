"""Real-browser tests of `lens serve`'s page: Debian's Chromium driven by Selenium.

The server is the real `lens` binary: `lens watch` with `[web] enabled = true`, watching a folder
that holds the bundled samples, so the page is served while the daemon indexes, as a user runs it.
Run from the repository root after `swift build`: python3 -m pytest Tests/browser
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
LENS = Path(os.environ.get("LENS_BINARY", ROOT / ".build/debug/lens"))
SAMPLES = ROOT / "samples"
HOSTILE_NAME = "<img src=x onerror=alert(1)>.png"


def render(path, lines, size=(900, 260), dark=False):
    """A screenshot-like PNG of `lines` in DejaVu Sans (fonts-dejavu-core)."""
    image = Image.new("RGB", size, (30, 30, 30) if dark else (255, 255, 255))
    pen = ImageDraw.Draw(image)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 24)
    for i, line in enumerate(lines):
        pen.text((30, 30 + i * 50), line, font=font, fill=(230, 230, 230) if dark else (20, 20, 20))
    image.save(path)


@pytest.fixture(scope="module")
def server():
    home = Path(tempfile.mkdtemp(prefix="lens-browser-"))
    inbox = home / "inbox"
    inbox.mkdir()
    for png in SAMPLES.glob("*.png"):
        shutil.copy(png, inbox / png.name)
    shutil.copy(SAMPLES / "terminal.png", inbox / HOSTILE_NAME)
    shutil.copy(SAMPLES / "terminal.png", inbox / "terminal-copy.png")
    render(inbox / "hostile_text.png", ["<script>alert('ocr')</script> markup test", "<b>bold</b> & friends"])
    config = home / "config.toml"
    config.write_text(f"""
database = "{home / 'lens.db'}"
stability_ms = 100
log_level = "notice"
[web]
enabled = true
listen = "127.0.0.1:0"
[[folders]]
path = "{inbox}"
""")
    env = dict(os.environ, XDG_CACHE_HOME=str(home / "cache"), LENS_CONFIG=str(config))
    log = open(home / "watch.log", "w+")
    daemon = subprocess.Popen([str(LENS), "watch", "--config", str(config)], stdout=log, stderr=subprocess.STDOUT, env=env)
    url = None
    deadline = time.time() + 60
    while time.time() < deadline and url is None:
        time.sleep(0.2)
        log.seek(0)
        found = re.search(r"the web page is at (http://\S+/)", log.read())
        url = found and found.group(1)
        assert daemon.poll() is None, "lens watch exited:\n" + (home / "watch.log").read_text()
    assert url, "lens watch never served the page:\n" + (home / "watch.log").read_text()
    # Wait until the daemon has indexed the folder.
    expected = len({hashlib.sha256(p.read_bytes()).hexdigest() for p in inbox.glob("*.png")})  # copies are one screenshot
    while time.time() < deadline:
        if len(get(url, "api/search?limit=100")) >= expected:
            break
        time.sleep(0.3)
    yield {"url": url, "inbox": inbox, "home": home, "log": home / "watch.log"}
    daemon.terminate()
    daemon.wait(timeout=30)
    log.close()
    shutil.rmtree(home, ignore_errors=True)


def get(url, path):
    with urllib.request.urlopen(url + path, timeout=10) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    yield driver
    driver.quit()


def wait(driver, condition, timeout=15):
    return WebDriverWait(driver, timeout).until(condition)


def cards(driver):
    """The cards of screenshots found by their words (those found by meaning alone come after, marked)."""
    return driver.find_elements(By.CSS_SELECTOR, "#results .card:not(.semantic)")


def card_names(driver, semantic=False):
    """The file names on the cards found by words (or by meaning alone), read in one go (the grid
    is replaced as answers arrive)."""
    selector = "#results .card.semantic" if semantic else "#results .card:not(.semantic)"
    return driver.execute_script(
        f"return [...document.querySelectorAll('{selector} .where span')].map(s => s.textContent.split('/').pop())")


def no_alert(driver):
    try:
        driver.switch_to.alert
        return False
    except NoAlertPresentException:
        return True


def open_page(driver, server, path=""):
    driver.get(server["url"] + path)
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")


def test_first_load_shows_the_library_by_day(browser, server):
    open_page(browser, server)
    wait(browser, lambda d: len(cards(d)) >= 8)
    assert browser.find_element(By.CSS_SELECTOR, "h2.day").text
    first = browser.execute_script("""
        const nav = performance.getEntriesByType('navigation')[0];
        const mark = performance.getEntriesByName('lens-first-results')[0];
        return [mark.startTime, nav.domContentLoadedEventEnd];""")
    print(f"\nfirst page load to a rendered grid: {first[0]:.0f} ms (DOMContentLoaded {first[1]:.0f} ms)")
    # Thumbnails load and are images.
    wait(browser, lambda d: d.execute_script(
        "return [...document.querySelectorAll('.thumb img')].slice(0, 4).every(i => i.complete && i.naturalWidth > 0)"))


def test_search_as_you_type_finds_the_receipt(browser, server):
    open_page(browser, server)
    box = browser.find_element(By.ID, "q")
    for letter in "lumi":
        box.send_keys(letter)
        time.sleep(0.05)
    # "lum" finds the same two: the answer to the last keystroke is the one whose URL and marks say "lumi".
    marks = "return [...document.querySelectorAll('#results .card:not(.semantic)')].map(c => c.querySelector('mark').textContent)"
    wait(browser, lambda d: "q=lumi" in d.current_url
         and sorted(card_names(d)) == ["contact_card.png", "receipt_light.png"]
         and all("lumi" in m.lower() for m in d.execute_script(marks)))
    # Keystrokes that match nothing empty the grid; the last answer wins.
    box.send_keys("xq")
    wait(browser, lambda d: len(cards(d)) == 0)
    box.send_keys(Keys.BACKSPACE, Keys.BACKSPACE)
    wait(browser, lambda d: sorted(card_names(d)) == ["contact_card.png", "receipt_light.png"])


def test_the_highlight_box_sits_over_the_matched_word(browser, server):
    open_page(browser, server, "?q=espresso")
    wait(browser, lambda d: len(cards(d)) == 1)
    cards(browser)[0].find_element(By.TAG_NAME, "a").click()
    wait(browser, lambda d: re.search(r"/screenshots/\d+", d.current_url))
    hit = wait(browser, EC.presence_of_element_located((By.CSS_SELECTOR, "#boxes rect.hit")))
    shot_id = int(re.search(r"/screenshots/(\d+)", browser.current_url).group(1))
    data = get(server["url"], f"api/screenshots/{shot_id}?q=espresso")
    word = data["words"][data["highlights"][0]]
    assert word["text"].lower() == "espresso"
    assert [int(float(hit.get_attribute(a))) for a in ("x", "y", "width", "height")] == word["box"]
    # On screen: the box covers the word's pixels scaled to the shown image.
    wait(browser, lambda d: d.execute_script("return document.getElementById('shot-image').complete"))
    image, rect = browser.execute_script("""
        const i = document.getElementById('shot-image').getBoundingClientRect();
        const r = document.querySelector('#boxes rect.hit').getBoundingClientRect();
        return [[i.left, i.top, i.width], [r.left, r.top, r.width, r.height]];""")
    scale = image[2] / data["width"]
    x, y, w, h = word["box"]
    assert abs(rect[0] - (image[0] + x * scale)) < 2 and abs(rect[1] - (image[1] + y * scale)) < 2
    assert abs(rect[2] - w * scale) < 2 and abs(rect[3] - h * scale) < 2
    assert browser.find_element(By.ID, "shot-text").text.count("Espresso") == 1


def test_an_entity_chip_searches_by_that_entity(browser, server):
    open_page(browser, server, "?q=receipt")
    wait(browser, lambda d: len(cards(d)) == 1)
    cards(browser)[0].find_element(By.TAG_NAME, "a").click()
    chip = wait(browser, EC.element_to_be_clickable(
        (By.XPATH, "//div[@id='shot-entities']/button[span[@class='kind' and text()='phone']]")))
    chip.click()
    wait(browser, lambda d: "entity=phone" in d.current_url)
    wait(browser, lambda d: sorted(card_names(d)) == ["contact_card.png", "receipt_light.png"])
    assert browser.find_element(By.ID, "entity-filter").is_displayed()
    # The chip shows the number as it was written, not as normalized.
    assert browser.find_element(By.ID, "entity-filter").text.startswith("phone: (415) 555-0132")
    # Each excerpt shows the number where its text has it, marked.
    marks = [[m.text for m in card.find_elements(By.CSS_SELECTOR, ".snippet mark")] for card in cards(browser)]
    assert marks == [["(415) 555-0132"], ["(415) 555-0132"]], marks
    # A link without the value as written (normalized only) still shows it as written.
    open_page(browser, server, "?entity=phone%3A%2B14155550132")
    wait(browser, lambda d: browser.find_element(By.ID, "entity-filter").text.startswith("phone: (415) 555-0132"))


def test_tag_a_screenshot_then_find_it_by_tag(browser, server):
    open_page(browser, server, "?q=ferries")
    wait(browser, lambda d: len(cards(d)) == 1)
    cards(browser)[0].find_element(By.TAG_NAME, "a").click()
    field = wait(browser, EC.element_to_be_clickable((By.ID, "tag-input")))
    field.send_keys("trip-2026", Keys.ENTER)
    wait(browser, lambda d: "trip-2026" in d.find_element(By.ID, "shot-tags").text)
    open_page(browser, server, "?tag=trip-2026")
    wait(browser, lambda d: card_names(d) == ["qr_ticket.png"])
    # The excerpt says why the screenshot is listed: its tag, marked.
    excerpt = cards(browser)[0].find_element(By.CLASS_NAME, "snippet")
    assert excerpt.find_element(By.CLASS_NAME, "field").text.lower() == "tags"
    assert [m.text for m in excerpt.find_elements(By.TAG_NAME, "mark")] == ["trip-2026"]
    assert browser.find_element(By.NAME, "tag").get_attribute("value") == "trip-2026"


def test_delete_then_undo(browser, server):
    open_page(browser, server, "?q=marigold")
    wait(browser, lambda d: len(cards(d)) == 1)
    cards(browser)[0].find_element(By.TAG_NAME, "a").click()
    shot_url = wait(browser, lambda d: re.search(r"/screenshots/\d+", d.current_url) and d.current_url)
    wait(browser, EC.element_to_be_clickable((By.ID, "delete"))).click()
    wait(browser, EC.visibility_of_element_located((By.ID, "banner")))
    assert get(server["url"], "api/search?meaning=off&q=marigold") == []
    browser.find_element(By.ID, "undo").click()
    wait(browser, lambda d: d.current_url.split("?")[0] == shot_url.split("?")[0])
    wait(browser, lambda d: "Marigold" in d.find_element(By.ID, "shot-text").text)
    assert len(get(server["url"], "api/search?meaning=off&q=marigold")) == 1


def test_the_mind_map_leads_to_a_screenshot(browser, server):
    open_page(browser, server, "map")
    wait(browser, lambda d: d.find_element(By.ID, "map").get_attribute("data-settled") == "true")
    nodes = browser.find_elements(By.CSS_SELECTOR, "#map .node")
    assert len(nodes) >= 3
    assert any("phone: +14155550132" in t.get_attribute("textContent")
               for t in browser.find_elements(By.CSS_SELECTOR, "#map line title"))
    target = [n for n in nodes if "contact_card" in n.get_attribute("aria-label")][0]
    node_id = target.get_attribute("data-id")
    webdriver.ActionChains(browser).move_to_element(target).click().perform()
    wait(browser, lambda d: d.current_url.endswith(f"/screenshots/{node_id}"))
    wait(browser, lambda d: "Priya Nair" in d.find_element(By.ID, "shot-text").text)


# What a reader of the map sees: node boxes (thumbnail and caption) that overlap, edge labels drawn
# under a node or over another label. Measured on the rendered page, in screen pixels.
MAP_MEASURE = """
const nodes = [...document.querySelectorAll('#map .node')].map(g => g.getBoundingClientRect());
const hit = (a, b, t) => a.left < b.right - t && b.left < a.right - t && a.top < b.bottom - t && b.top < a.bottom - t;
let overlaps = 0, covered = 0, labelOverlaps = 0;
for (let i = 0; i < nodes.length; i++) for (let j = i + 1; j < nodes.length; j++) if (hit(nodes[i], nodes[j], 0.5)) overlaps++;
const labels = [...document.querySelectorAll('#map .edge-label')].filter(l => getComputedStyle(l).display !== 'none')
  .map(l => l.getBoundingClientRect());
for (const l of labels) if (nodes.some(n => hit(l, n, 0))) covered++;
for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) if (hit(labels[i], labels[j], 0.5)) labelOverlaps++;
const frame = document.querySelector('#map').getBoundingClientRect();
const drawing = document.querySelector('#map > svg > g').getBoundingClientRect();
return {nodes: nodes.length, overlaps, covered, labelOverlaps, labels: labels.length,
        hidden: document.querySelectorAll('#map .edge-label.no-room').length, layoutMs: document.querySelector('#map').dataset.layoutMs,
        clusters: document.querySelectorAll('#map .cluster').length,
        inside: drawing.left >= frame.left - 1 && drawing.right <= frame.right + 1 && drawing.top >= frame.top - 1 && drawing.bottom <= frame.bottom + 1,
        fill: Math.max(drawing.width / frame.width, drawing.height / frame.height),
        frame: [frame.left, frame.top, frame.width, frame.height], controls: document.querySelector('#map-controls').getBoundingClientRect().height};
"""


def settled_map(browser, server, path):
    open_page(browser, server, path)
    wait(browser, lambda d: d.find_element(By.ID, "map").get_attribute("data-settled") == "true")
    return browser.execute_script(MAP_MEASURE)


def test_the_map_keeps_nodes_and_labels_apart_on_a_desktop_and_a_phone(browser, server):
    try:
        for width, height in [(1400, 900), (390, 844)]:
            browser.set_window_size(width, height)
            seen = settled_map(browser, server, "map")
            browser.save_screenshot(str(Path(server["home"]) / f"map-{width}.png"))
            assert seen["nodes"] >= 3, seen
            assert seen["overlaps"] == 0 and seen["covered"] == 0 and seen["labelOverlaps"] == 0, seen
            assert seen["labels"] >= 2, seen  # the samples' two connections are labelled where they can be read
            assert seen["inside"] and seen["fill"] > 0.5, seen  # fitted to the frame, using it
            if width < 500:
                # On a phone the controls are one row and the map takes the width and most of the height.
                assert seen["controls"] < 60, seen
                assert seen["frame"][2] >= width * 0.9 and seen["frame"][3] >= height * 0.5, seen
    finally:
        browser.set_window_size(1280, 900)


def test_a_tap_opens_a_screenshot_and_two_fingers_zoom(browser, server):
    try:
        browser.set_window_size(390, 844)
        settled_map(browser, server, "map")
        drawing = browser.find_element(By.CSS_SELECTOR, "#map > svg")
        before = drawing.get_attribute("style")
        frame = browser.find_element(By.ID, "map").rect
        cx, cy = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2

        def touch(kind, points):
            browser.execute_cdp_cmd("Input.dispatchTouchEvent", {
                "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})
        # Pinch out: two fingers move apart, the map zooms in around them.
        touch("touchStart", [(cx - 20, cy), (cx + 20, cy)])
        for step in range(1, 6):
            touch("touchMove", [(cx - 20 - 12 * step, cy), (cx + 20 + 12 * step, cy)])
        touch("touchEnd", [])
        scale = lambda t: float(re.search(r"scale\(([\d.]+)\)", t).group(1))
        assert scale(drawing.get_attribute("style")) > scale(before) * 1.5, (before, drawing.get_attribute("style"))
        # A tap on a node opens its screenshot.
        settled_map(browser, server, "map")
        node = browser.find_elements(By.CSS_SELECTOR, "#map .node")[0]
        box = browser.execute_script("const r = arguments[0].querySelector('rect').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]", node)
        node_id = node.get_attribute("data-id")
        touch("touchStart", [tuple(box)])
        touch("touchEnd", [])
        wait(browser, lambda d: d.current_url.endswith(f"/screenshots/{node_id}"))
    finally:
        browser.set_window_size(1280, 900)


def serve_database(db):
    """`lens serve` on a database file, on a free port: the process and the page's address."""
    serve = subprocess.Popen([str(LENS), "serve", "--db", str(db), "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
    while True:
        line = serve.stdout.readline()
        assert line, "lens serve exited"
        found = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        if found:
            return serve, found.group(1)


@pytest.fixture(scope="module")
def generated():
    """A generated library of 600 screenshots whose entities recur (lens-bench graph), served."""
    home = Path(tempfile.mkdtemp(prefix="lens-map-"))
    db = home / "lens.db"
    subprocess.run([str(LENS.parent / "lens-bench"), "graph", "--sizes", "600", "--brute-force-limit", "0", "--store", "600",
                    "--keep", str(db)], check=True, stdout=subprocess.DEVNULL)
    serve, url = serve_database(db)
    yield {"url": url, "home": str(home)}
    serve.terminate()
    serve.wait()


def test_a_library_of_hundreds_keeps_its_groups_apart(browser, generated):
    # Through phones: hundreds of screenshots in one large group and dozens of small ones.
    seen = settled_map(browser, generated, "map?type=phone&max_nodes=600")
    browser.save_screenshot(str(Path(generated["home"]) / "map-generated.png"))
    assert seen["nodes"] >= 30 and seen["clusters"] == 1, seen
    assert seen["overlaps"] == 0 and seen["covered"] == 0 and seen["labelOverlaps"] == 0 and seen["labels"] >= 20, seen
    # The large group opens on a click, laid out on its own with no overlaps either.
    webdriver.ActionChains(browser).move_to_element(browser.find_element(By.CSS_SELECTOR, "#map .cluster")).click().perform()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#map .cluster"))
    opened = browser.execute_script(MAP_MEASURE)
    assert opened["nodes"] >= 300 and opened["overlaps"] == 0 and opened["covered"] == 0 and opened["labelOverlaps"] == 0, opened


def test_zooming_into_a_large_group_opens_it(browser, generated):
    seen = settled_map(browser, generated, "map?type=phone&max_nodes=590")
    assert seen["clusters"] == 1, seen
    # Real wheel input over the closed group, a notch at a time, until it opens.
    for _ in range(40):
        clusters = browser.find_elements(By.CSS_SELECTOR, "#map .cluster")
        if not clusters:
            break
        webdriver.ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(clusters[0]), 0, -120).perform()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#map .cluster"))
    opened = browser.execute_script(MAP_MEASURE)
    # The group just opened fills the frame: its hundreds of screenshots are in view.
    in_view = browser.execute_script("""
const f = document.querySelector('#map').getBoundingClientRect();
return [...document.querySelectorAll('#map .node')].map(n => n.getBoundingClientRect())
  .filter(r => r.left >= f.left && r.right <= f.right && r.top >= f.top && r.bottom <= f.bottom).length;""")
    assert opened["nodes"] >= 300 and opened["overlaps"] == 0 and in_view >= 300, (in_view, opened)


def test_names_too_small_to_read_are_left_out_until_zoomed_in(browser, generated):
    seen = settled_map(browser, generated, "map?type=phone&max_nodes=600")
    webdriver.ActionChains(browser).move_to_element(browser.find_element(By.CSS_SELECTOR, "#map .cluster")).click().perform()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#map .cluster"))
    names_drawn = """return [...document.querySelectorAll('#map .node text')]
      .filter(t => getComputedStyle(t).display !== 'none' && t.getBoundingClientRect().height > 0).length;"""
    scale = "return Number(/scale\\(([0-9.]+)\\)/.exec(document.querySelector('#map > svg').style.transform)[1]);"
    # Hundreds of screenshots fitted into the frame: an 11 px name would be under 5 px on screen.
    assert browser.execute_script(scale) < 5 / 11, seen
    assert browser.execute_script(names_drawn) == 0
    # Real wheel input, a notch at a time: once names are 5 px or more they are drawn again.
    frame = browser.find_element(By.ID, "map")
    for _ in range(60):
        if browser.execute_script(scale) >= 5 / 11:
            break
        webdriver.ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(frame), 0, -120).perform()
    assert browser.execute_script(scale) >= 5 / 11
    assert browser.execute_script(names_drawn) > 0


def test_a_dense_map_moves_as_a_sketch_and_comes_back_when_it_stops(browser, generated):
    # Through everything: hundreds of screenshots and thousands of connections.
    settled_map(browser, generated, "map?max_nodes=600")
    webdriver.ActionChains(browser).move_to_element(browser.find_element(By.CSS_SELECTOR, "#map .cluster")).click().perform()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#map .cluster"))
    assert browser.execute_script(MAP_MEASURE)["nodes"] >= 500
    state = """const m = document.querySelector('#map'), s = m.querySelector('.sketch'), n = m.querySelector('.node');
      return {moving: m.classList.contains('moving'), sketch: getComputedStyle(s).display, boxes: (s.getAttribute('d') || '').split('z').length - 1,
              nodes: m.querySelectorAll('.node').length, node: getComputedStyle(n).visibility};"""
    assert "dense" in browser.find_element(By.ID, "map").get_attribute("class")
    # A real wheel notch, and at once how the map is drawn: one path of every node's box.
    webdriver.ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(browser.find_element(By.ID, "map")), 0, -120).perform()
    moving = browser.execute_script(state)
    assert moving["moving"] and moving["sketch"] != "none" and moving["node"] == "hidden", moving
    assert moving["boxes"] == moving["nodes"], moving
    # Stopped: the nodes are back, the sketch gone.
    wait(browser, lambda d: not d.execute_script(state)["moving"])
    still = browser.execute_script(state)
    assert still["sketch"] == "none" and still["node"] == "visible", still


def test_a_missing_screenshot_says_so_and_offers_a_way_back(browser, server):
    open_page(browser, server, "screenshots/99999")
    wait(browser, lambda d: d.find_element(By.ID, "shot-missing").is_displayed())
    assert "99999" in browser.find_element(By.ID, "shot-missing-why").text
    assert not browser.find_element(By.ID, "shot-editor").is_displayed()
    browser.find_element(By.LINK_TEXT, "Back to search").click()
    wait(browser, lambda d: len(cards(d)) >= 8)


def test_hostile_text_and_names_stay_text(browser, server):
    open_page(browser, server, "?q=markup")
    wait(browser, lambda d: len(cards(d)) == 1)
    assert "<script>" in cards(browser)[0].text or "script" in cards(browser)[0].text
    open_page(browser, server, "?q=flaky")
    wait(browser, lambda d: len(cards(d)) == 1)
    cards(browser)[0].find_element(By.TAG_NAME, "a").click()
    wait(browser, lambda d: HOSTILE_NAME in d.find_element(By.ID, "shot-paths").text)
    note = browser.find_element(By.ID, "note")
    note.send_keys('<img src=x onerror="alert(2)">')
    browser.find_element(By.ID, "save-note").click()
    wait(browser, lambda d: d.find_element(By.ID, "note-state").text == "saved")
    browser.refresh()
    wait(browser, lambda d: d.find_element(By.ID, "note").get_attribute("value").startswith("<img"))
    assert no_alert(browser)
    assert browser.execute_script("return document.querySelectorAll('script').length") == 1
    assert browser.execute_script("return document.querySelectorAll('img[src=\"x\"]').length") == 0


def test_keyboard(browser, server):
    open_page(browser, server)
    wait(browser, lambda d: len(cards(d)) >= 8)
    browser.find_element(By.TAG_NAME, "body").send_keys("/")
    assert browser.switch_to.active_element.get_attribute("id") == "q"
    browser.switch_to.active_element.send_keys("boarding")
    wait(browser, lambda d: card_names(d) == ["qr_ticket.png"])
    browser.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    wait(browser, lambda d: "selected" in cards(d)[0].get_attribute("class"))
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait(browser, lambda d: "/screenshots/" in d.current_url)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait(browser, lambda d: "q=boarding" in d.current_url and "/screenshots/" not in d.current_url)


def test_a_screenshot_the_daemon_adds_appears_without_reload(browser, server):
    open_page(browser, server)
    wait(browser, lambda d: len(cards(d)) >= 8)
    browser.execute_script("window.lensMarker = 42")
    render(server["inbox"] / "arrived_live.png", ["Invoice from Northwind Traders", "Due 2026-12-01"], dark=True)
    wait(browser, lambda d: "arrived_live.png" in card_names(d), timeout=30)
    assert browser.execute_script("return window.lensMarker") == 42
    assert card_names(browser)[0] == "arrived_live.png"


def test_the_page_works_at_phone_width_in_dark_mode(browser, server):
    browser.set_window_size(390, 844)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        open_page(browser, server, "?q=receipt")
        wait(browser, lambda d: len(cards(d)) == 1)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways at phone width ({width} px)"
        background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(21, 24, 28)"
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        browser.set_window_size(1280, 900)


def test_a_card_whose_picture_fails_shows_the_name_instead(browser, server):
    # A live page can ask for a picture whose file went after the answer came: the card keeps its name
    # rather than a broken image. Chromium is told to fail every thumbnail request to make that happen.
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/thumbnails/*"]})
    try:
        open_page(browser, server, "?q=receipt")
        wait(browser, lambda d: len(cards(d)) == 1 and cards(d)[0].find_elements(By.CSS_SELECTOR, ".gone-file"))
        card = cards(browser)[0]
        assert card.find_elements(By.TAG_NAME, "img") == []
        assert "receipt" in card.find_element(By.CSS_SELECTOR, ".gone-name").text
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        browser.get("about:blank")
    # Reading the log empties it: what this test caused is taken out, anything else must stay.
    problems = [e for e in severe_problems(browser.get_log("browser")) if "/thumbnails/" not in e["message"]]
    assert problems == []


def test_a_screenshot_whose_file_is_gone_keeps_its_name(browser, server):
    # Away from any live page first: one showing "receipt" would ask for this picture after its file is gone.
    browser.get("about:blank")
    shot = server["inbox"] / "vanishing_receipt.png"
    render(shot, ["Vanishing Pharmacy receipt", "Total 42.00"])
    deadline = time.time() + 30
    while time.time() < deadline and not get(server["url"], "api/search?meaning=off&q=vanishing"):
        time.sleep(0.3)
    shot.unlink()
    while time.time() < deadline and not (get(server["url"], "api/search?meaning=off&q=vanishing") or [{}])[0].get("gone_path"):
        time.sleep(0.3)
    open_page(browser, server, "?q=vanishing")
    wait(browser, lambda d: len(cards(d)) == 1)
    card = cards(browser)[0]
    assert card.find_elements(By.TAG_NAME, "img") == []  # no broken image
    placeholder = card.find_element(By.CSS_SELECTOR, ".gone-file")
    assert "file gone" in placeholder.text.lower() and "vanishing_receipt.png" in placeholder.text
    assert card_names(browser) == ["vanishing_receipt.png"]
    card.find_element(By.TAG_NAME, "a").click()
    wait(browser, lambda d: d.find_element(By.ID, "shot-title").text == "vanishing_receipt.png")
    assert browser.find_element(By.CSS_SELECTOR, "#shot-gone .gone-file").is_displayed()
    assert not browser.find_element(By.ID, "shot-image").is_displayed()
    assert "Vanishing Pharmacy" in browser.find_element(By.ID, "shot-text").text


def test_connected_screenshots_show_without_scrolling(browser, server):
    browser.set_window_size(1400, 900)
    try:
        open_page(browser, server, "?q=Priya")
        wait(browser, lambda d: "contact_card.png" in card_names(d))
        link = next(c for c in cards(browser) if "contact_card" in c.text).find_element(By.TAG_NAME, "a")
        link.click()
        section = wait(browser, EC.visibility_of_element_located((By.ID, "connections-section")))
        top = browser.execute_script("return arguments[0].getBoundingClientRect().top", section)
        height = browser.execute_script("return window.innerHeight")
        assert top + 60 < height, f"'Connected' starts at {top} px of a {height} px window"
        if os.environ.get("LENS_SCREENSHOTS"):  # a folder to look at the page in
            browser.save_screenshot(os.path.join(os.environ["LENS_SCREENSHOTS"], "detail-1400.png"))
    finally:
        browser.set_window_size(1280, 900)


def test_a_description_finds_the_receipt_by_meaning(browser, server):
    # The daemon reads the texts for meaning once OCR is idle.
    def read_for_meaning():
        try:
            return get(server["url"], "api/search?meaning=only&q=coffee")
        except urllib.error.HTTPError as error:  # 409 until the first vector is made
            assert error.code == 409
            return []
    deadline = time.time() + 300  # the daemon reads under SCHED_IDLE, after everything else
    while time.time() < deadline and not read_for_meaning():
        time.sleep(0.3)
    open_page(browser, server)
    box = browser.find_element(By.ID, "q")
    box.send_keys("dessert bought at a coffee shop")
    # No word of it is on the receipt: it comes by meaning, marked, and the status says so.
    wait(browser, lambda d: card_names(d, semantic=True)[:1] == ["receipt_light.png"])
    mark = browser.find_element(By.CSS_SELECTOR, "#results .card.semantic .meaning")
    assert mark.text.lower() == "by meaning" and "similarity" in mark.get_attribute("title")
    assert "by meaning alone" in browser.find_element(By.ID, "status").text
    assert cards(browser) == []
    if os.environ.get("LENS_SCREENSHOTS"):
        browser.save_screenshot(os.path.join(os.environ["LENS_SCREENSHOTS"], "meaning-search.png"))
    # "Words only" in the filters takes them away; the URL keeps the choice.
    Select(browser.find_element(By.NAME, "meaning")).select_by_value("off")
    wait(browser, lambda d: card_names(d, semantic=True) == [] and "meaning=off" in d.current_url)
    Select(browser.find_element(By.NAME, "meaning")).select_by_value("")
    # The receipt's page lists the screenshots about the same things.
    open_page(browser, server, "?q=espresso")
    wait(browser, lambda d: card_names(d) == ["receipt_light.png"])
    cards(browser)[0].find_element(By.TAG_NAME, "a").click()
    section = wait(browser, EC.visibility_of_element_located((By.ID, "similar-section")))
    links = section.find_elements(By.CSS_SELECTOR, "li a")
    assert links and all("/screenshots/" in a.get_attribute("href") for a in links)
    if os.environ.get("LENS_SCREENSHOTS"):
        browser.save_screenshot(os.path.join(os.environ["LENS_SCREENSHOTS"], "similar.png"))


def severe_problems(entries):
    # The not-found test asks for screenshot 99999 on purpose: Chromium logs that 404 as a network error.
    return [e for e in entries if e["level"] == "SEVERE" and "favicon" not in e["message"]
            and "/images/" not in e["message"] and "/api/screenshots/99999 " not in e["message"]]


def test_the_browser_logged_no_errors(browser, server):
    assert severe_problems(browser.get_log("browser")) == []
