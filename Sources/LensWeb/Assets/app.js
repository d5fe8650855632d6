// Lens's page: search as you type, one screenshot with its words, the mind map.
// Plain modules, no build step. Every piece of text from the library (OCR text, file names,
// tags, notes) reaches the page through textContent or an attribute, never as markup.
import { showMap, hideMap } from "/assets/map.js";

const csrfToken = document.querySelector('meta[name="csrf-token"]').content;
const $ = (selector) => document.querySelector(selector);
const $$ = (selector) => [...document.querySelectorAll(selector)];
const pageSize = 60;

/** An element with attributes and children; strings become text nodes (so they are never parsed as HTML). */
export function el(tag, attributes = {}, ...children) {
  const svg = ["svg", "rect", "line", "path", "g", "text", "title", "image"].includes(tag);
  const node = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Calls the JSON API; changes carry the CSRF token. Throws an Error with the server's message. */
export async function api(path, { method = "GET", body, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") headers["X-CSRF-Token"] = csrfToken;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, signal, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

// ---------------------------------------------------------------- navigation

export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  route();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", route);

function route() {
  const path = location.pathname;
  const shot = path.match(/^\/screenshots\/(\d+)$/);
  const view = shot ? "shot" : path === "/map" ? "map" : "search";
  for (const name of ["search", "shot", "map"]) $(`#${name}-view`).hidden = name !== view;
  $("#filters").hidden = view !== "search";
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.view === view) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (view !== "map") hideMap();
  if (view === "search") {
    readSearchFromURL();
    runSearch();
  } else if (view === "shot") {
    showScreenshot(Number(shot[1]));
  } else {
    showMap(new URLSearchParams(location.search));
  }
}

// ---------------------------------------------------------------- search

const search = {
  sequence: 0,        // the newest request; older answers are dropped
  controller: null,   // aborts the request in flight when a newer one starts
  offset: 0,
  more: false,
  loading: false,
  timer: 0,
  shown: new Set(),   // ids on the page
  lastDay: "",
  meaning: false,     // the results shown include matches by meaning (later pages ask for them too)
  meaningTimer: 0,
};

function searchParams() {
  const form = $("#filters");
  const params = new URLSearchParams();
  const q = $("#q").value.trim();
  if (q) params.set("q", q);
  for (const name of ["folder", "since", "until", "type", "tag", "meaning"]) {
    const value = form.elements[name].value;
    if (value) params.set(name, value);
  }
  const entity = $("#entity-filter").dataset.value;
  if (entity) params.set("entity", entity);
  const shown = $("#entity-filter").dataset.shown;
  if (entity && shown) params.set("shown", shown);
  return params;
}

function readSearchFromURL() {
  const params = new URLSearchParams(location.search);
  $("#q").value = params.get("q") || "";
  const form = $("#filters");
  for (const name of ["folder", "since", "until", "type", "tag", "meaning"]) {
    const value = params.get(name) || "";
    const field = form.elements[name];
    if (field.tagName === "SELECT" && value && ![...field.options].some((o) => o.value === value)) {
      field.append(el("option", { value }, value));
    }
    field.value = value;
  }
  setEntityFilter(params.get("entity"), params.get("shown"));
}

/** The entity filter's chip: `phone: 020 7946 0018`, the value as it was written where the
 * user picked it (`shown`), else as normalized. */
function setEntityFilter(value, shown) {
  const chip = $("#entity-filter");
  chip.dataset.value = value || "";
  chip.dataset.shown = (value && shown) || "";
  chip.hidden = !value;
  const type = value ? value.slice(0, value.indexOf(":")) : "";
  chip.querySelector("span").textContent = value ? (shown ? `${type}: ${shown}` : value) : "";
}

/** A chip opened from a link without `shown` (normalized: `phone:+442079460018`) takes the
 * value as the first listed screenshot writes it: without a query, the excerpts mark it. */
function labelEntityFilterAsWritten(hits, params) {
  const chip = $("#entity-filter");
  const value = chip.dataset.value;
  if (!value || chip.dataset.shown || params.has("q")) return;
  const hit = hits.find((h) => (h.matches || []).length);
  if (!hit) return;
  const [start, end] = hit.matches[0];
  chip.querySelector("span").textContent = `${value.slice(0, value.indexOf(":"))}: ${hit.snippet.slice(start, end)}`;
}

/** Puts the search in the URL (bookmarkable; Back returns to it) without a history entry per key. */
function syncURL() {
  const query = searchParams().toString();
  const url = query ? `/?${query}` : "/";
  if (location.pathname + location.search !== url) history.replaceState(null, "", url);
}

function scheduleSearch() {
  clearTimeout(search.timer);
  search.timer = setTimeout(() => { syncURL(); runSearch(); }, 90);
}

async function runSearch({ append = false } = {}) {
  const sequence = ++search.sequence;
  if (search.controller) search.controller.abort();
  const controller = new AbortController();
  search.controller = controller;
  const params = searchParams();
  const offset = append ? search.offset : 0;
  params.set("limit", String(pageSize));
  params.set("typing", "1"); // the last word may be unfinished: it matches as a prefix
  if (offset) params.set("offset", String(offset));
  // Words come first and fast; screenshots about the query without its words are asked for
  // once typing pauses (below), and the pages after that go on with both.
  if (append && search.meaning && !params.has("meaning")) params.set("meaning", "on");
  if (!append) { search.meaning = false; clearTimeout(search.meaningTimer); }
  search.loading = true;
  let hits;
  try {
    hits = await api(`/api/search?${params}`, { signal: controller.signal });
  } catch (error) {
    if (error.name === "AbortError" || sequence !== search.sequence) return;
    search.loading = false;
    $("#status").textContent = error.message;
    if (!append) $("#results").replaceChildren();
    return;
  }
  if (sequence !== search.sequence) return; // a newer keystroke's answer will come
  search.loading = false;
  if (!append) {
    $("#results").replaceChildren();
    search.shown.clear();
    search.lastDay = "";
    search.selected = -1;
  }
  search.offset = offset + hits.length;
  search.more = hits.length === pageSize;
  renderHits(hits, { byDay: !params.has("q") });
  labelEntityFilterAsWritten(hits, params);
  if (!append && params.has("q") && !search.more && !params.has("meaning")) {
    search.meaningTimer = setTimeout(() => addMeaning(sequence, params), 250);
  }
  if (!performance.getEntriesByName("lens-first-results").length) {
    performance.mark("lens-first-results");
    loadFacets(); // after the first results: the filters never delay them
  }
  showCount();
}

/** The page of results again with the screenshots that match by meaning alone after the ones
 * holding the words: only those not shown yet are added, so nothing the user sees moves. */
async function addMeaning(sequence, params) {
  if (sequence !== search.sequence) return;
  params.set("meaning", "on");
  let hits;
  try {
    hits = await api(`/api/search?${params}`);
  } catch { return; } // no model or no vectors yet: the words stand alone
  if (sequence !== search.sequence) return;
  search.meaning = true;
  search.offset = hits.length;
  search.more = hits.length === pageSize;
  renderHits(hits, { byDay: false });
  showCount();
}

function showCount() {
  const params = searchParams();
  const count = search.offset;
  const byMeaning = $$("#results .card.semantic").length;
  $("#status").textContent = count === 0
    ? (searchParams().toString() ? "No screenshot matches." : "The library is empty: import screenshots with lens import or lens watch.")
    : params.has("q") ? `${count}${search.more ? "+" : ""} screenshot${count === 1 ? "" : "s"} match, best first`
      + (byMeaning ? `; ${byMeaning} by meaning alone.` : ".")
    : `${count}${search.more ? "+" : ""} screenshot${count === 1 ? "" : "s"}, newest first.`;
}

function dayLabel(iso) {
  return new Date(iso).toLocaleDateString(undefined, { weekday: "long", year: "numeric", month: "long", day: "numeric" });
}

function renderHits(hits, { byDay, prepend = false }) {
  const results = $("#results");
  let grid = prepend ? results.querySelector(".grid") : results.lastElementChild;
  for (const hit of hits) {
    if (search.shown.has(hit.id)) continue;
    search.shown.add(hit.id);
    if (!prepend && byDay) {
      const day = dayLabel(hit.captured_at);
      if (day !== search.lastDay) {
        search.lastDay = day;
        results.append(el("h2", { class: "day" }, day));
        grid = null;
      }
    }
    if (!grid || grid.tagName !== "UL") {
      grid = el("ul", { class: "grid" });
      results.append(grid);
    }
    const card = card_(hit);
    if (prepend) { card.classList.add("new"); grid.prepend(card); } else grid.append(card);
  }
}

function card_(hit) {
  const q = $("#q").value.trim();
  const href = `/screenshots/${hit.id}${q ? `?q=${encodeURIComponent(q)}` : ""}`;
  const known = hit.path || hit.gone_path; // a screenshot whose files are gone keeps its last name
  const name = known ? known.split("/").pop() : `#${hit.id}`;
  const folder = known ? known.split("/").slice(-2, -1)[0] || "/" : "";
  const thumb = hit.path ? thumbnail(hit.id, name) : gonePlaceholder(name);
  const meaning = hit.semantic
    ? el("span", { class: "meaning", title: `No word of the query is in it: its text is about the same thing (similarity ${hit.similarity})` }, "by meaning")
    : null;
  return el("li", { class: "card" + (hit.path ? "" : " gone") + (hit.semantic ? " semantic" : ""), "data-id": hit.id },
    el("a", { href, "data-link": true, title: hit.path || (hit.gone_path ? `${hit.gone_path} (file gone)` : "") },
      el("div", { class: "thumb" }, thumb),
      el("div", { class: "snippet" }, meaning, hit.matched_in ? el("span", { class: "field" }, hit.matched_in) : null, snippet(hit)),
      el("div", { class: "where" }, el("span", {}, folder ? `${folder}/${name}` : name),
        el("time", { datetime: hit.captured_at }, new Date(hit.captured_at).toLocaleDateString()))));
}

/** A card's picture; when the file goes between the answer and the picture's request (the
 * library is live), the placeholder takes its place rather than a broken image. */
function thumbnail(id, name, alt = name) {
  const image = el("img", { src: `/thumbnails/${id}`, alt, loading: "lazy", decoding: "async" });
  image.addEventListener("error", () => {
    image.replaceWith(gonePlaceholder(name));
  }, { once: true });
  return image;
}

/** What stands for an image whose file is gone: its name and "file gone"; the text stays searchable. */
function gonePlaceholder(name) {
  return el("div", { class: "gone-file", role: "img", "aria-label": `${name}: file gone` },
    el("span", { class: "gone-mark" }, "file gone"), el("span", { class: "gone-name" }, name));
}

/** The snippet with its matches marked; the brackets the JSON puts around them are dropped. */
function snippet(hit) {
  const text = hit.snippet || "";
  const parts = [];
  let at = 0;
  for (const [start, end] of hit.matches || []) {
    parts.push(text.slice(at, Math.max(at, start - 1)));
    parts.push(el("mark", {}, text.slice(start, end)));
    at = end + 1;
  }
  parts.push(text.slice(at));
  return parts;
}

new IntersectionObserver((entries) => {
  if (entries.some((e) => e.isIntersecting) && search.more && !search.loading && !$("#search-view").hidden) {
    runSearch({ append: true });
  }
}, { rootMargin: "600px" }).observe($("#more"));

$("#q").addEventListener("input", () => {
  if ($("#search-view").hidden) { history.pushState(null, "", "/"); route(); }
  scheduleSearch();
});
$("#filters").addEventListener("change", () => { syncURL(); runSearch(); });
$("#filters").addEventListener("submit", (event) => event.preventDefault());
$("#entity-filter button").addEventListener("click", () => { setEntityFilter(null); syncURL(); runSearch(); });

async function loadFacets() {
  try {
    const facets = await api("/api/facets");
    const form = $("#filters");
    const fill = (select, items, label) => {
      const current = select.value;
      select.replaceChildren(select.options[0]);
      for (const item of items) select.append(el("option", { value: item.key }, label(item)));
      if (current && ![...select.options].some((o) => o.value === current)) select.append(el("option", { value: current }, current));
      select.value = current;
    };
    fill(form.elements.folder, facets.folders, (f) => `${f.key} (${f.count})`);
    fill(form.elements.type, facets.types, (t) => `${t.key} (${t.count})`);
    fill(form.elements.tag, facets.tags, (t) => `${t.key} (${t.count})`);
  } catch { /* filters stay empty; the search still works */ }
}

// ---------------------------------------------------------------- keyboard

function cards() { return [...document.querySelectorAll("#results .card")]; }

function select(index) {
  const all = cards();
  if (!all.length) return;
  search.selected = Math.max(0, Math.min(all.length - 1, index));
  all.forEach((card, i) => card.classList.toggle("selected", i === search.selected));
  all[search.selected].scrollIntoView({ block: "nearest" });
}

document.addEventListener("keydown", (event) => {
  const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement?.tagName);
  if (event.key === "/" && !typing) {
    event.preventDefault();
    $("#q").focus();
    $("#q").select();
    return;
  }
  if (event.key === "Escape") {
    if (!$("#shot-view").hidden || !$("#map-view").hidden) {
      event.preventDefault();
      if (history.state !== "first") history.back(); // back to the search it came from
      else navigate("/");
    } else if (typing) document.activeElement.blur();
    return;
  }
  if ($("#search-view").hidden || (typing && document.activeElement !== $("#q"))) return;
  const selected = search.selected ?? -1;
  if (["ArrowDown", "ArrowRight", "j"].includes(event.key) && !(typing && event.key !== "ArrowDown")) {
    event.preventDefault();
    if (typing) $("#q").blur();
    select(selected + 1);
  } else if (["ArrowUp", "ArrowLeft", "k"].includes(event.key) && !typing) {
    event.preventDefault();
    select(selected - 1);
  } else if (event.key === "Enter") {
    const card = cards()[Math.max(0, selected)];
    if (card) { event.preventDefault(); navigate(card.querySelector("a").getAttribute("href")); }
  }
});

// ---------------------------------------------------------------- one screenshot

let current = null; // the screenshot on show

async function showScreenshot(id) {
  const q = new URLSearchParams(location.search).get("q") || "";
  if (q) $("#q").value = q;
  $("#shot-title").textContent = `#${id}`;
  $("#shot-missing").hidden = true;
  $("#shot-editor").hidden = false;
  try {
    render(await api(`/api/screenshots/${id}${q ? `?typing=1&q=${encodeURIComponent(q)}` : ""}`));
  } catch (error) {
    // No editor for what is not there: its buttons would do nothing.
    current = null;
    document.title = "Not found · Lens";
    $("#shot-editor").hidden = true;
    $("#shot-missing").hidden = false;
    $("#shot-missing-why").textContent = error.status === 404
      ? `There is no screenshot #${id} in this library: it may have been deleted, or the link is wrong.`
      : `Screenshot #${id} could not be shown: ${error.message}`;
    $("#shot-image").removeAttribute("src");
    $("#boxes").replaceChildren();
  }
}

function render(shot) {
  current = shot;
  const name = (shot.paths[0] || shot.gone_paths[0] || `#${shot.id}`).split("/").pop();
  document.title = `${name} · Lens`;
  $("#shot-title").textContent = name;
  $("#shot-meta").textContent = [
    `#${shot.id}`, `taken ${new Date(shot.captured_at).toLocaleString()}`,
    shot.confidence != null ? `read with ${Math.round(shot.confidence)} % confidence` : null,
    shot.state !== "done" ? shot.state + (shot.last_error ? `: ${shot.last_error}` : "") : null,
  ].filter(Boolean).join(" · ");
  const image = $("#shot-image");
  image.alt = `Screenshot ${name}`;
  $("#shot-gone").replaceChildren();
  if (shot.paths.length) {
    image.hidden = false;
    image.src = `/images/${shot.id}`;
  } else {
    image.hidden = true;
    image.removeAttribute("src");
    $("#shot-gone").append(gonePlaceholder(name));
  }
  image.onerror = () => {
    image.hidden = true;
    $("#shot-gone").replaceChildren(gonePlaceholder(name));
    $("#shot-size").textContent = "The file is gone or changed; only the text is left.";
  };
  $("#shot-size").textContent = shot.width ? `${shot.width} × ${shot.height} px` : "";
  drawBoxes(shot);
  $("#shot-text").textContent = shot.text;
  renderList("#shot-codes", "#codes-section", shot.codes, (code) => el("li", {}, `${code.symbology}: `, el("code", {}, code.payload)));
  renderEntities(shot);
  renderTags(shot.tags);
  $("#note").value = shot.note || "";
  $("#note-state").textContent = "";
  renderList("#shot-connections", "#connections-section", shot.connections, (connection) =>
    el("li", {}, el("a", { href: `/screenshots/${connection.id}`, "data-link": true, title: connection.via.join("\n") },
      thumbnail(connection.id, `#${connection.id}`, `Screenshot #${connection.id}`),
      el("span", {}, connection.manual ? `linked by hand${connection.note ? `: ${connection.note}` : ""}` : connection.via.join(", ") || "near-duplicate"))));
  showSimilar(shot.id);
  $("#shot-paths").replaceChildren(
    ...shot.paths.map((path) => el("li", {}, path)),
    ...shot.gone_paths.map((path) => el("li", { class: "gone", title: "gone" }, path)));
}

/** The screenshots about the same thing (by the meaning of their text), under the connections. */
async function showSimilar(id) {
  let hits = [];
  try {
    hits = await api(`/api/screenshots/${id}/similar?limit=8`);
  } catch { /* not read for meaning yet, or no model: the section stays hidden */ }
  if (current?.id !== id) return;
  renderList("#shot-similar", "#similar-section", hits, (hit) => {
    const name = (hit.path || hit.gone_path || `#${hit.id}`).split("/").pop();
    // (A screenshot whose file is gone has no picture to ask for: its name stands there.)
    return el("li", {}, el("a", { href: `/screenshots/${hit.id}`, "data-link": true, title: `similarity ${hit.similarity}` },
      hit.path ? thumbnail(hit.id, name, `Screenshot ${name}`) : gonePlaceholder(name),
      el("span", {}, name)));
  });
}

function renderList(listSelector, sectionSelector, items, make) {
  $(listSelector).replaceChildren(...items.map(make));
  $(sectionSelector).hidden = items.length === 0;
}

function drawBoxes(shot) {
  const boxes = $("#boxes");
  boxes.replaceChildren();
  const width = shot.width || 1, height = shot.height || 1;
  boxes.setAttribute("viewBox", `0 0 ${width} ${height}`);
  boxes.setAttribute("preserveAspectRatio", "none");
  const hits = new Set(shot.highlights);
  (shot.words || []).forEach((word, index) => {
    const [x, y, w, h] = word.box;
    boxes.append(el("rect", { x, y, width: w, height: h, rx: 2, class: hits.has(index) ? "hit" : "word", "data-index": index },
      el("title", {}, word.text)));
  });
  boxes.classList.toggle("all", $("#all-words").checked);
}
$("#all-words").addEventListener("change", () => $("#boxes").classList.toggle("all", $("#all-words").checked));

function renderEntities(shot) {
  const seen = new Set();
  const chips = [];
  for (const entity of shot.entities) {
    const key = `${entity.type}:${entity.normalized}`;
    if (seen.has(key)) continue;
    seen.add(key);
    chips.push(el("button", { type: "button", class: "chip", title: `Every screenshot with ${entity.normalized}`,
      onclick: () => navigate(`/?entity=${encodeURIComponent(key)}&shown=${encodeURIComponent(entity.value)}`) },
      el("span", { class: "kind" }, entity.type), entity.value));
  }
  $("#shot-entities").replaceChildren(...chips);
  $("#entities-section").hidden = chips.length === 0;
}

function renderTags(tags) {
  $("#shot-tags").replaceChildren(...tags.map((tag) =>
    el("span", { class: "chip" },
      el("a", { href: `/?tag=${encodeURIComponent(tag)}`, "data-link": true }, tag),
      el("button", { type: "button", "aria-label": `Remove the tag ${tag}`, onclick: () => changeTags({ remove: [tag] }) }, "×"))));
}

async function changeTags(change) {
  if (!current) return;
  try {
    render(await api(`/api/screenshots/${current.id}/tags`, { method: "POST", body: change }));
    loadFacets();
  } catch (error) { $("#note-state").textContent = error.message; }
}

$("#tag-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const tags = $("#tag-input").value.split(/[\s,]+/).filter(Boolean);
  if (!tags.length) return;
  $("#tag-input").value = "";
  changeTags({ add: tags });
});

async function saveNote() {
  if (!current) return;
  try {
    const shot = await api(`/api/screenshots/${current.id}/note`, { method: "PUT", body: { note: $("#note").value } });
    current = shot;
    $("#note-state").textContent = "saved";
  } catch (error) { $("#note-state").textContent = error.message; }
}
$("#save-note").addEventListener("click", saveNote);
$("#note").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); saveNote(); }
});

$("#copy-text").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("#shot-text").textContent);
    $("#copy-text").textContent = "Copied";
  } catch {
    getSelection().selectAllChildren($("#shot-text"));
    $("#copy-text").textContent = "Selected";
  }
  setTimeout(() => { $("#copy-text").textContent = "Copy"; }, 1500);
});

$("#delete").addEventListener("click", async () => {
  if (!current) return;
  const id = current.id;
  try {
    const report = await api(`/api/screenshots/${id}`, { method: "DELETE" });
    showBanner(`Deleted #${id} from the index (batch ${report.batch}).`, report.batch);
    navigate("/");
  } catch (error) { $("#note-state").textContent = error.message; }
});

function showBanner(message, batch) {
  const banner = $("#banner");
  banner.querySelector("span").textContent = message;
  banner.dataset.batch = batch;
  banner.hidden = false;
  clearTimeout(banner.timer);
  banner.timer = setTimeout(() => { banner.hidden = true; }, 15000);
}

$("#undo").addEventListener("click", async () => {
  const banner = $("#banner");
  try {
    // The batch this page made, not whatever is newest by now (an import may have run since).
    const report = await api("/api/undo", { method: "POST", body: { batch: Number(banner.dataset.batch) } });
    banner.hidden = true;
    const back = report.restored && report.restored[0];
    if (back) navigate(`/screenshots/${back}`);
    else runSearch();
  } catch (error) {
    banner.querySelector("span").textContent = error.message;
  }
});

// ---------------------------------------------------------------- live updates

function listen() {
  const events = new EventSource("/api/events");
  events.addEventListener("change", async () => {
    loadFacets();
    if ($("#search-view").hidden || search.loading) return;
    const params = searchParams();
    params.set("limit", String(pageSize));
    params.set("typing", "1");
    try {
      const hits = await api(`/api/search?${params}`);
      const fresh = hits.filter((hit) => !search.shown.has(hit.id));
      if (!fresh.length) return;
      if (!params.has("q") && search.shown.size) renderHits(fresh.reverse(), { byDay: false, prepend: true });
      else runSearch();
      $("#status").textContent = `${fresh.length} new screenshot${fresh.length === 1 ? "" : "s"} arrived.`;
    } catch { /* the next change tries again */ }
  });
}

history.replaceState("first", "", location.href);
if (location.pathname !== "/") setTimeout(loadFacets, 200);
listen();
route();
