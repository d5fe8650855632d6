// The mind map: screenshots linked by the people, numbers, addresses and links they share.
// The data is GET /api/graph (the JSON of `lens graph --format json`). The layout is written here
// rather than taken from a library (Debian ships d3-force only as version 1 split over five
// node-d3-* packages, and nothing for packing): each connected group is laid out on its own by a
// small force simulation (springs on edges, repulsion between nearby nodes through a uniform grid,
// so a step is linear in the nodes), its boxes are then pushed apart until no two overlap, and the
// groups are packed into the view by size, largest first, in rows as wide as the view's shape
// asks (what GraphViz's `pack` does for `lens graph --format svg`). Edge labels go where no node
// and no other label covers them, or show when the edge is hovered. Past CLUSTER_ABOVE
// screenshots, a large group is one node (its size and what its screenshots share most) that
// opens on a click, a tap, Enter, or when zoomed into.
import { el, api, navigate } from "/assets/app.js";

const $ = (selector) => document.querySelector(selector);
const GAP = 18;                // the clear space around every node's box
const CLUSTER_ABOVE = 400;     // screenshots on the map before large groups become one node
const CLUSTER_SIZE = 25;       // a group larger than this is then one node
const FAR_SCALE = 5 / 11;      // below this zoom a node's 11 px name is under 5 px on screen: not drawn
let run = 0;                   // the newest map load; older ones stop
let view = { x: 0, y: 0, k: 1 };
let expanded = new Set();      // the groups opened by a click, by their first screenshot's id
let lastGraph = null, lastQuery = "";

export function hideMap() { run++; }

// Where the map is on the page, read once until the page scrolls or resizes: reading it after the
// view changed forces a layout of every element on the map (15-60 ms a pointer event at 3,000
// screenshots).
let frame = null;
const mapFrame = () => (frame ||= $("#map").getBoundingClientRect());
for (const event of ["scroll", "resize"]) window.addEventListener(event, () => { frame = null; }, { passive: true });

export async function showMap(params) {
  const mine = ++run;
  const form = $("#map-controls");
  for (const name of ["type", "min_score", "max_nodes", "around", "depth"]) {
    if (params.has(name)) form.elements[name].value = params.get(name);
  }
  form.elements.score_out.value = form.elements.min_score.value;
  const query = new URLSearchParams();
  for (const name of ["type", "min_score", "max_nodes", "around", "depth"]) {
    const value = form.elements[name].value;
    if (value && !(name === "min_score" && value === "0") && !(name === "depth" && !form.elements.around.value)) query.set(name, value);
  }
  if (!query.has("max_nodes")) query.set("max_nodes", "300");
  $("#map-status").textContent = "Loading…";
  $("#map").dataset.settled = "false";
  let graph;
  try {
    graph = await api(`/api/graph?${query}`);
  } catch (error) {
    $("#map-status").textContent = error.message;
    $("#map").replaceChildren();
    return;
  }
  if (mine !== run) return;
  if (String(query) !== lastQuery) expanded = new Set();
  lastGraph = graph;
  lastQuery = String(query);
  render(graph, query, form.elements.thumbs.checked);
}

function render(graph, query, thumbnails, focusKey = null) {
  const started = performance.now();
  const shown = draw(graph, thumbnails, focusKey);
  const ms = Math.round(performance.now() - started);
  $("#map").dataset.layoutMs = String(ms);
  $("#map").dataset.settled = "true";
  const clusters = shown.clusters === 1 ? ", 1 large group closed (click or zoom into it to open it)"
    : shown.clusters ? `, ${shown.clusters} large groups closed (click or zoom into one to open it)` : "";
  $("#map-status").textContent = graph.nodes.length
    ? `${graph.nodes.length} screenshots, ${graph.edges.length} connections${query.has("around") ? ` around #${query.get("around")}` : ", strongest groups first"}${clusters}. Drag to move, scroll or pinch to zoom, click to open. (laid out in ${ms} ms)`
    : "No connections yet: screenshots that share a person, phone number, e-mail address or link are connected.";
}

$("#map-controls").addEventListener("change", () => {
  const form = $("#map-controls");
  const query = new URLSearchParams();
  for (const name of ["type", "min_score", "max_nodes", "around", "depth"]) {
    if (form.elements[name].value) query.set(name, form.elements[name].value);
  }
  history.replaceState(null, "", `/map?${query}`);
  showMap(query);
});
$("#map-controls").addEventListener("input", (event) => {
  if (event.target.name === "min_score") $("#map-controls").elements.score_out.value = event.target.value;
});
$("#map-controls").addEventListener("submit", (event) => event.preventDefault());

// ---------------------------------------------------------------- layout (no DOM)

/** The connected groups of `nodes`, each with its edges, largest first. */
function groups(nodes, edges) {
  const parent = nodes.map((_, i) => i);
  const find = (i) => { while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; } return i; };
  for (const edge of edges) parent[find(edge.s.i)] = find(edge.t.i);
  const byRoot = new Map();
  for (const node of nodes) {
    const root = find(node.i);
    if (!byRoot.has(root)) byRoot.set(root, { members: [], edges: [] });
    byRoot.get(root).members.push(node);
  }
  for (const edge of edges) byRoot.get(find(edge.s.i)).edges.push(edge);
  return [...byRoot.values()].sort((a, b) => b.members.length - a.members.length || a.members[0].id - b.members[0].id);
}

/** Items with `x` and `y` bucketed in cells of `width` × `height` (square unless a height is given):
 * what is near a point is in the 3 × 3 cells around it, so a pass over all items that looks at
 * their neighbours is linear. */
class Grid {
  constructor(items, width, height = width) {
    this.width = width; this.height = height;
    this.cells = new Map();
    for (const item of items) {
      const key = Grid.key(Math.floor(item.x / width), Math.floor(item.y / height));
      const bucket = this.cells.get(key);
      if (bucket) bucket.push(item); else this.cells.set(key, [item]);
    }
  }

  static key(cx, cy) { return (cx + 32768) * 65536 + (cy + 32768); } // a number: no string keys in the hot loop

  /** Calls `visit` with each cell's items around (x, y) and whether (x, y) is in that cell. */
  eachCell(x, y, visit) {
    const cx = Math.floor(x / this.width), cy = Math.floor(y / this.height);
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) {
      const bucket = this.cells.get(Grid.key(cx + dx, cy + dy));
      if (bucket) visit(bucket, dx === 0 && dy === 0);
    }
  }

  /** Calls `visit` with each item in the cells around (x, y) until it returns true; whether one did. */
  some(x, y, visit) {
    const cx = Math.floor(x / this.width), cy = Math.floor(y / this.height);
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) {
      const bucket = this.cells.get(Grid.key(cx + dx, cy + dy));
      if (bucket) for (const item of bucket) if (visit(item)) return true;
    }
    return false;
  }
}

/** Lays out one group around (0, 0): a force simulation, then boxes pushed apart. */
function layoutGroup(members, edges, w, h, roomForLabels) {
  const n = members.length;
  if (n === 1) { members[0].x = 0; members[0].y = 0; return; }
  // Edges long enough for a label between two boxes when labels are drawn.
  const spacing = Math.max(w, h) * (roomForLabels ? 2.3 : 1.6);
  members.forEach((node, i) => {
    // A sunflower spiral: deterministic and evenly spread.
    const radius = spacing * 0.5 * Math.sqrt(i + 0.5), angle = i * Math.PI * (3 - Math.sqrt(5));
    node.x = radius * Math.cos(angle); node.y = radius * Math.sin(angle); node.vx = 0; node.vy = 0;
  });
  if (n > 2) {
    const steps = Math.max(60, Math.min(300, Math.round(30000 / n)));
    let alpha = 1;
    const decay = Math.pow(0.02, 1 / steps);
    // Nearby nodes push apart, as strongly as they are close. A cell crowded with more than
    // CROWD nodes pushes as one body from their centre, as strong as all of them together (what
    // Barnes-Hut does for far nodes, here for dense ones): springs can pull a tightly linked group
    // of thousands into a few cells, and a step then stays linear instead of quadratic.
    const CROWD = 12;
    const repel = (node, ox, oy, weight, salt) => {
      let x = node.x - ox, y = node.y - oy;
      let d2 = x * x + y * y;
      if (d2 === 0) { x = (node.i % 7) - 3 || 1; y = (salt % 5) - 2 || 1; d2 = x * x + y * y; }
      if (d2 > spacing * spacing) return;
      const push = Math.min((spacing * spacing / d2 - 1) * 0.03 * alpha * weight, 2);
      node.vx += x * push; node.vy += y * push;
    };
    for (let step = 0; step < steps; step++) {
      const grid = new Grid(members, spacing);
      for (const node of members) {
        grid.eachCell(node.x, node.y, (bucket, own) => {
          if (bucket.length <= CROWD) {
            for (const other of bucket) if (other !== node) repel(node, other.x, other.y, 1, other.i);
            return;
          }
          if (!bucket.sum) bucket.sum = bucket.reduce((s, n) => { s.x += n.x; s.y += n.y; return s; }, { x: 0, y: 0 });
          const count = own ? bucket.length - 1 : bucket.length;
          const sx = own ? bucket.sum.x - node.x : bucket.sum.x, sy = own ? bucket.sum.y - node.y : bucket.sum.y;
          repel(node, sx / count, sy / count, count, count);
        });
        node.vx -= node.x * 0.004 * alpha; node.vy -= node.y * 0.004 * alpha;
      }
      for (const edge of edges) {
        const x = edge.t.x - edge.s.x, y = edge.t.y - edge.s.y;
        const d = Math.sqrt(x * x + y * y) || 1;
        const pull = (d - spacing) / d * 0.1 * alpha * (0.5 + edge.score);
        edge.s.vx += x * pull; edge.s.vy += y * pull; edge.t.vx -= x * pull; edge.t.vy -= y * pull;
      }
      for (const node of members) {
        node.vx *= 0.6; node.vy *= 0.6;
        node.x += node.vx; node.y += node.vy;
      }
      alpha *= decay;
    }
  }
  separate(members, w, h);
}

/** Pushes boxes of `w` × `h` apart until none comes within GAP of another. Each pass moves the
 * overlapping pairs apart along the axis that needs least; if passes do not clear them all, the
 * group is spread out (every distance grows) and the passes run again, so it always ends. */
function separate(members, w, h) {
  const W = w + GAP, H = h + GAP;
  // A group squeezed into less room than its boxes need is first spread out to that room (a tightly
  // linked group of thousands would otherwise take many rounds of passes).
  let left = Infinity, right = -Infinity, top = Infinity, bottom = -Infinity;
  for (const node of members) {
    left = Math.min(left, node.x); right = Math.max(right, node.x);
    top = Math.min(top, node.y); bottom = Math.max(bottom, node.y);
  }
  const room = (right - left + W) * (bottom - top + H), needed = 1.3 * members.length * W * H;
  if (room < needed) {
    const f = Math.sqrt(needed / room);
    for (const node of members) { node.x *= f; node.y *= f; }
  }
  for (let round = 0; round < 30; round++) {
    for (let pass = 0; pass < 12; pass++) {
      let overlaps = 0;
      const grid = new Grid(members, W, H);
      for (const node of members) {
        grid.some(node.x, node.y, (other) => {
          if (other.i <= node.i) return false;
          const x = other.x - node.x, y = other.y - node.y;
          const ox = W - Math.abs(x), oy = H - Math.abs(y);
          if (ox <= 0 || oy <= 0) return false;
          overlaps++;
          if (ox / W < oy / H) {
            const move = (ox / 2 + 0.5) * (x < 0 || (x === 0 && node.i % 2) ? -1 : 1);
            node.x -= move; other.x += move;
          } else {
            const move = (oy / 2 + 0.5) * (y < 0 || (y === 0 && node.i % 2) ? -1 : 1);
            node.y -= move; other.y += move;
          }
          return false;
        });
      }
      if (!overlaps) return;
    }
    for (const node of members) { node.x *= 1.25; node.y *= 1.25; }
  }
}

/** Packs the groups' boxes in rows, largest first, rows as wide as the view's shape asks. */
function pack(boxes, aspect) {
  const area = boxes.reduce((sum, b) => sum + (b.width + GAP) * (b.height + GAP), 0);
  const rowWidth = Math.max(Math.sqrt(area * aspect), ...boxes.map((b) => b.width + GAP));
  let x = 0, y = 0, rowHeight = 0;
  for (const box of boxes) {
    if (x > 0 && x + box.width > rowWidth) { x = 0; y += rowHeight + GAP; rowHeight = 0; }
    box.x = x; box.y = y;
    x += box.width + GAP;
    rowHeight = Math.max(rowHeight, box.height);
  }
}

/** What the members of a group share most: the entity on most of its edges. */
function strongest(edges) {
  const counts = new Map();
  for (const edge of edges) for (const via of edge.via.slice(0, 1)) counts.set(via, (counts.get(via) || 0) + 1);
  let best = "", most = 0;
  for (const [via, count] of counts) if (count > most) { best = via; most = count; }
  return best;
}

/** Text width at the labels' 10 px, roughly (no DOM measuring: this runs for every label). */
const textWidth = (text, px = 10) => text.length * px * 0.62 + 8;

// ---------------------------------------------------------------- drawing

function draw(graph, thumbnails, focusKey) {
  const started = performance.now();
  // #map is the frame: it clips, takes the pointer and the wheel. The drawing inside it is an SVG
  // moved and scaled by a CSS transform: changing that needs no layout of the drawing (an SVG
  // `transform` on its root group made Chromium lay out every node again, 40-70 ms a frame at
  // 3,000 screenshots).
  const frameBox = $("#map");
  const svg = el("svg", {});
  frameBox.replaceChildren(svg);
  frame = null;
  const width = frameBox.clientWidth || 800, height = frameBox.clientHeight || 600;
  const showThumbs = thumbnails && graph.nodes.length <= 200;
  const nodeWidth = showThumbs ? 128 : 110, boxHeight = showThumbs ? 80 : 22;
  // The caption under a thumbnail is part of the node's box.
  const nodeHeight = showThumbs ? boxHeight + 18 : boxHeight;

  const index = new Map();
  let nodes = graph.nodes.map((node, i) => { index.set(node.id, i); return { ...node, i, x: 0, y: 0 }; });
  let edges = graph.edges.filter((e) => index.has(e.source) && index.has(e.target))
    .map((e) => ({ ...e, s: nodes[index.get(e.source)], t: nodes[index.get(e.target)] }));

  // Large groups become one node each when the map is large.
  const clusterWidth = 170, clusterHeight = 46;
  const all = groups(nodes, edges).map(({ members, edges: own }) => {
    const key = members.reduce((m, n) => Math.min(m, n.id), Infinity);
    const closed = nodes.length > CLUSTER_ABOVE && members.length > CLUSTER_SIZE && !expanded.has(key);
    return { key, members, closed, own };
  });
  // Labels are drawn when the edges on the map are few enough to read them.
  const labelsShown = all.reduce((sum, g) => sum + (g.closed ? 0 : g.own.length), 0) <= 400;
  const parts = [];
  let clusters = 0;
  for (const { key, members, closed, own } of all) {
    if (closed) {
      clusters++;
      parts.push({ key, cluster: { count: members.length, via: strongest(own) }, members: [], edges: [], width: clusterWidth, height: clusterHeight });
      continue;
    }
    members.forEach((node, i) => { node.i = i; });
    layoutGroup(members, own, nodeWidth, nodeHeight, labelsShown);
    const xs = members.map((n) => n.x), ys = members.map((n) => n.y);
    const left = Math.min(...xs), top = Math.min(...ys);
    for (const node of members) { node.x -= left; node.y -= top; }
    parts.push({ key, members, edges: own, width: Math.max(...xs) - left + nodeWidth, height: Math.max(...ys) - top + nodeHeight });
  }
  pack(parts, Math.max(0.5, Math.min(3, width / height)));
  frameBox.dataset.layoutOnlyMs = String(Math.round(performance.now() - started));
  // Node positions are box centres.
  for (const part of parts) {
    for (const node of part.members) { node.x += part.x + nodeWidth / 2; node.y += part.y + nodeHeight / 2; }
  }
  nodes = parts.flatMap((p) => p.members);
  edges = parts.flatMap((p) => p.edges);
  const byId = new Map(nodes.map((node) => [node.id, node]));

  const root = el("g", {});
  const edgeLayer = el("g", {}), labelLayer = el("g", {}), nodeLayer = el("g", {});
  root.append(edgeLayer, labelLayer, nodeLayer);
  svg.append(root);

  for (const edge of edges) {
    edge.line = el("line", { class: edge.manual ? "manual" : "", "stroke-width": (1 + 3 * edge.score).toFixed(1) });
    edgeLayer.append(edge.line);
    // What the edge stands for shows while it is hovered: its title, and its label when the label
    // had no room. On a map with too many edges for labels, both are made then (tens of thousands
    // of text elements would double the drawing time).
    const describe = () => {
      if (!edge.line.firstChild) {
        edge.line.append(el("title", {}, [...(edge.manual ? [`linked by hand${edge.note ? `: ${edge.note}` : ""}`] : []), ...edge.via, `score ${edge.score}`].join("\n")));
      }
      if (!edge.label && edge.via.length) {
        const text = edge.via[0].length > 36 ? edge.via[0].slice(0, 35) + "…" : edge.via[0];
        edge.label = el("text", { class: "edge-label no-room", "text-anchor": "middle",
          x: ((edge.s.x + edge.t.x) / 2).toFixed(1), y: ((edge.s.y + edge.t.y) / 2 + 3.5).toFixed(1) }, text);
        edge.labelWidth = textWidth(text);
        labelLayer.append(edge.label);
      }
      return edge.label;
    };
    if (labelsShown) describe()?.classList.remove("no-room");
    edge.line.addEventListener("pointerenter", () => describe()?.classList.add("shown"));
    edge.line.addEventListener("pointerleave", () => edge.label?.classList.remove("shown"));
  }
  for (const node of nodes) {
    const label = node.copies.length ? `${node.name} +${node.copies.length}` : node.name;
    node.group = el("g", { class: "node", "data-id": node.id, tabindex: 0, role: "link", "aria-label": `Screenshot ${node.name}` },
      el("title", {}, [node.path || node.name, ...node.entities].join("\n")),
      el("rect", { x: -nodeWidth / 2, y: -nodeHeight / 2, width: nodeWidth, height: boxHeight, rx: 5 }),
      showThumbs
        ? el("image", { href: `/thumbnails/${node.id}`, x: -nodeWidth / 2 + 2, y: -nodeHeight / 2 + 2, width: nodeWidth - 4, height: boxHeight - 4, preserveAspectRatio: "xMinYMin slice" })
        : el("text", { "text-anchor": "middle", dy: "0.35em" }, label.length > 18 ? label.slice(0, 17) + "…" : label),
      showThumbs ? el("text", { "text-anchor": "middle", y: nodeHeight / 2 - 4 }, label.length > 20 ? label.slice(0, 19) + "…" : label) : null);
    node.group.addEventListener("keydown", (event) => { if (event.key === "Enter") navigate(`/screenshots/${node.id}`); });
    nodeLayer.append(node.group);
  }
  const clusterNodes = parts.filter((p) => p.cluster).map((part) => {
    const via = part.cluster.via.length > 26 ? part.cluster.via.slice(0, 25) + "…" : part.cluster.via;
    const group = el("g", { class: "node cluster", "data-cluster": part.key, tabindex: 0, role: "button",
      "aria-label": `A group of ${part.cluster.count} screenshots${via ? ` sharing ${via}` : ""}: open it`,
      transform: `translate(${(part.x + clusterWidth / 2).toFixed(1)},${(part.y + clusterHeight / 2).toFixed(1)})` },
    el("title", {}, `${part.cluster.count} connected screenshots${part.cluster.via ? `, most through ${part.cluster.via}` : ""}. Click or zoom in to open the group.`),
    el("rect", { x: -clusterWidth / 2, y: -clusterHeight / 2, width: clusterWidth, height: clusterHeight, rx: 10 }),
    el("text", { "text-anchor": "middle", y: -4 }, `${part.cluster.count} screenshots`),
    el("text", { "text-anchor": "middle", y: 12, class: "via" }, via || "connected"));
    const open = () => { expanded.add(part.key); render(lastGraph, new URLSearchParams(lastQuery), $("#map-controls").elements.thumbs.checked, part.key); };
    group.addEventListener("keydown", (event) => { if (event.key === "Enter") open(); });
    group.open = open;
    part.open = open;
    nodeLayer.append(group);
    return group;
  });

  // Edge labels: where neither a node nor a label already placed covers them.
  // Cells as large as the farthest a node's centre can be from a label's it touches (the widest
  // label, with room for the estimate to be short), so those nodes are in the cells around it.
  const widest = Math.max(0, ...edges.map((edge) => edge.labelWidth || 0));
  const grid = new Grid(nodes, Math.max(nodeWidth + 1.25 * widest, nodeHeight + 20) / 2 + 4);
  const coversNode = (x, y, w, h, slack) => grid.some(x, y, (node) =>
    Math.abs(node.x - x) < (nodeWidth + w) / 2 + slack && Math.abs(node.y - y) < (nodeHeight + h) / 2 + slack);
  const placed = [];
  const free = (x, y, w, h) => !coversNode(x, y, w, h, 2)
    && !placed.some((p) => Math.abs(p.x - x) < (p.w + w) / 2 && Math.abs(p.y - y) < (p.h + h) / 2);
  for (const edge of edges) {
    if (!edge.label) continue;
    let spot = null;
    if (labelsShown) {
      // Along the edge, on it or just beside it.
      const length = Math.hypot(edge.t.x - edge.s.x, edge.t.y - edge.s.y) || 1;
      const nx = -(edge.t.y - edge.s.y) / length, ny = (edge.t.x - edge.s.x) / length;
      search: for (const t of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8]) {
        for (const side of [0, 10, -10]) {
          const x = edge.s.x + (edge.t.x - edge.s.x) * t + nx * side, y = edge.s.y + (edge.t.y - edge.s.y) * t + ny * side;
          if (free(x, y, edge.labelWidth, 15)) { spot = { x, y, w: edge.labelWidth, h: 15 }; break search; }
        }
      }
    }
    const at = spot || { x: (edge.s.x + edge.t.x) / 2, y: (edge.s.y + edge.t.y) / 2 };
    if (spot) placed.push(spot); else edge.label.classList.add("no-room");
    edge.label.setAttribute("x", at.x.toFixed(1));
    edge.label.setAttribute("y", (at.y + 3.5).toFixed(1));
  }

  // The estimate of a label's width is rough: measured now, a label that still touches one placed
  // before it waits for a hover instead.
  if (labelsShown) {
    const kept = [];
    for (const edge of edges) {
      if (!edge.label || edge.label.classList.contains("no-room")) continue;
      const b = edge.label.getBBox(), r = edge.label.getBoundingClientRect(); // as drawn, with the font's full height
      if (kept.some((k) => r.left < k.right + 2 && k.left < r.right + 2 && r.top < k.bottom + 2 && k.top < r.bottom + 2)
        || coversNode(b.x + b.width / 2, b.y + b.height / 2, b.width, b.height, 0)) {
        edge.label.classList.add("no-room");
      } else {
        kept.push(r);
      }
    }
  }

  const paintEdge = (edge) => {
    edge.line.setAttribute("x1", edge.s.x.toFixed(1)); edge.line.setAttribute("y1", edge.s.y.toFixed(1));
    edge.line.setAttribute("x2", edge.t.x.toFixed(1)); edge.line.setAttribute("y2", edge.t.y.toFixed(1));
  };
  for (const edge of edges) paintEdge(edge);
  for (const node of nodes) node.group.setAttribute("transform", `translate(${node.x.toFixed(1)},${node.y.toFixed(1)})`);

  // The whole map (or the group just opened) fits the frame.
  // Names too small to read (under 5 px on screen) are left out: at that scale they are grey noise.
  let far = null;
  const applyView = () => {
    svg.style.transform = `translate(${view.x.toFixed(2)}px,${view.y.toFixed(2)}px) scale(${view.k.toFixed(4)})`;
    if (far !== (view.k < FAR_SCALE)) { far = view.k < FAR_SCALE; frameBox.classList.toggle("far", far); }
  };
  // A dense map moves as a sketch. Chromium paints an SVG again whenever its scale changes, one
  // display item per element: 3,000 nodes took 12-14 ms of the main thread on every zoom frame
  // (measured with Performance.getMetrics in headless Chromium), two display intervals a frame.
  // While the map moves, its nodes are hidden and their boxes drawn as one path (about 1 ms a
  // frame); its thousands of edges are left out. All come back when it stops. From 500 nodes,
  // about 2 ms of painting at that rate on this machine, several on a slower one.
  const dense = edges.length > 1500 || nodes.length + clusters >= 500;
  frameBox.classList.toggle("dense", dense);
  const sketch = dense ? el("path", { class: "sketch" }) : null;
  if (sketch) svg.append(sketch);
  const drawSketch = () => {
    const box = (x, y, w, h) => `M${x.toFixed(0)} ${y.toFixed(0)}h${w}v${h}h${-w}z`;
    sketch.setAttribute("d", nodes.map((n) => box(n.x - nodeWidth / 2, n.y - nodeHeight / 2, nodeWidth, boxHeight)).join("")
      + parts.filter((p) => p.cluster).map((p) => box(p.x, p.y, clusterWidth, clusterHeight)).join(""));
  };
  let still = null;
  const moving = () => {
    if (sketch && !frameBox.classList.contains("moving")) drawSketch(); // nodes may have been dragged
    frameBox.classList.add("moving");
    clearTimeout(still);
    still = setTimeout(() => frameBox.classList.remove("moving"), 200);
  };
  const fit = (box) => {
    const margin = 12;
    const k = Math.min(1.5, Math.max(0.02, Math.min((width - 2 * margin) / box.width, (height - 2 * margin) / box.height)));
    view = { k, x: width / 2 - k * (box.x + box.width / 2), y: height / 2 - k * (box.y + box.height / 2) };
    applyView();
  };
  const whole = { x: 0, y: 0, width: Math.max(1, ...parts.map((p) => p.x + p.width)), height: Math.max(1, ...parts.map((p) => p.y + p.height)) };
  const focus = focusKey != null ? parts.find((p) => p.key === focusKey && !p.cluster) : null;
  fit(focus ? { x: focus.x, y: focus.y, width: focus.width, height: focus.height } : whole);

  // Pan, zoom (wheel or two fingers), drag a node, click or tap to open.
  const pointers = new Map();
  let pointer = null, pinch = null;
  const local = (event) => {
    const frame = mapFrame();
    return { x: event.clientX - frame.left, y: event.clientY - frame.top };
  };
  const closed = parts.filter((part) => part.cluster);
  const zoomAt = (px, py, k) => {
    k = Math.min(4, Math.max(0.02, k));
    const closer = k > view.k;
    view.x = px - (px - view.x) * (k / view.k); view.y = py - (py - view.y) * (k / view.k); view.k = k;
    moving();
    applyView();
    // Zooming into a closed group until it takes most of the frame opens it.
    if (!closer || !closed.length || k * clusterWidth < 0.6 * Math.min(width, height)) return;
    const x = (px - view.x) / k, y = (py - view.y) / k;
    const part = closed.find((p) => x >= p.x && x <= p.x + p.width && y >= p.y && y <= p.y + p.height);
    if (part) part.open();
  };
  frameBox.onpointerdown = (event) => {
    pointers.set(event.pointerId, local(event));
    try { frameBox.setPointerCapture(event.pointerId); } catch { /* a pointer already gone: nothing to capture */ }
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, k: view.k };
      pointer = null;
      return;
    }
    const target = event.target.closest(".node");
    const node = target && target.dataset.id ? byId.get(Number(target.dataset.id)) : null;
    const cluster = target && target.dataset.cluster ? target : null;
    pointer = { id: event.pointerId, x: event.clientX, y: event.clientY, node, cluster, moved: false };
  };
  frameBox.onpointermove = (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, local(event));
    if (pinch && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      zoomAt((a.x + b.x) / 2, (a.y + b.y) / 2, pinch.k * Math.hypot(a.x - b.x, a.y - b.y) / pinch.distance);
      return;
    }
    if (!pointer || pointer.id !== event.pointerId) return;
    const dx = event.clientX - pointer.x, dy = event.clientY - pointer.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) pointer.moved = true;
    if (!pointer.moved) return;
    pointer.x = event.clientX; pointer.y = event.clientY;
    if (pointer.node) {
      const node = pointer.node;
      node.x += dx / view.k; node.y += dy / view.k;
      node.group.setAttribute("transform", `translate(${node.x.toFixed(1)},${node.y.toFixed(1)})`);
      for (const edge of edges) {
        if (edge.s !== node && edge.t !== node) continue;
        paintEdge(edge);
        if (edge.label) {
          edge.label.setAttribute("x", ((edge.s.x + edge.t.x) / 2).toFixed(1));
          edge.label.setAttribute("y", ((edge.s.y + edge.t.y) / 2 + 3.5).toFixed(1));
        }
      }
    } else {
      view.x += dx; view.y += dy; moving(); applyView();
    }
  };
  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    if (event.type === "pointerup" && pointer && pointer.id === event.pointerId && !pointer.moved) {
      if (pointer.node) navigate(`/screenshots/${pointer.node.id}`);
      else if (pointer.cluster) pointer.cluster.open();
    }
    if (pointer && pointer.id === event.pointerId) pointer = null;
  };
  frameBox.onpointerup = release;
  frameBox.onpointercancel = release;
  frameBox.onwheel = (event) => {
    event.preventDefault();
    const at = local(event);
    zoomAt(at.x, at.y, view.k * Math.exp(-event.deltaY * 0.0015));
  };
  return { nodes: nodes.length, clusters };
}
