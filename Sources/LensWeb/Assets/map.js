// The mind map: screenshots linked by the people, numbers, addresses and links they share.
// The data is GET /api/graph (the JSON of `lens graph --format json`); the layout is a small force
// simulation in the page so that nodes can be dragged. It is written here rather than taken from
// a library: Debian ships d3-force only as version 1 split over five node-d3-* packages, and what
// the map needs is ~80 lines: springs on edges, repulsion between nearby nodes through a uniform
// grid (linear per step, so a few thousand nodes settle in well under a second), weak gravity.
import { el, api, navigate } from "/assets/app.js";

const $ = (selector) => document.querySelector(selector);
let run = 0;          // the newest map load; older ones stop
let view = { x: 0, y: 0, k: 1 };

export function hideMap() { run++; }

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
  let graph;
  try {
    graph = await api(`/api/graph?${query}`);
  } catch (error) {
    $("#map-status").textContent = error.message;
    $("#map").replaceChildren();
    return;
  }
  if (mine !== run) return;
  const started = performance.now();
  draw(graph, mine, form.elements.thumbs.checked, () => {
    const ms = Math.round(performance.now() - started);
    $("#map").dataset.layoutMs = String(ms);
    $("#map-status").textContent = graph.nodes.length
      ? `${graph.nodes.length} screenshots, ${graph.edges.length} connections${query.has("around") ? ` around #${query.get("around")}` : ", strongest groups first"}. Drag to move, scroll to zoom, click to open. (laid out in ${ms} ms)`
      : "No connections yet: screenshots that share a person, phone number, e-mail address or link are connected.";
  });
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

function draw(graph, mine, thumbnails, done) {
  const svg = $("#map");
  svg.replaceChildren();
  const width = svg.clientWidth || 800, height = svg.clientHeight || 600;
  const showThumbs = thumbnails && graph.nodes.length <= 200;
  const nodeWidth = showThumbs ? 128 : 110, nodeHeight = showThumbs ? 80 : 22;

  const spacing = Math.max(nodeWidth, nodeHeight * 2) * 1.4;
  // Nodes on a sunflower spiral (deterministic, evenly spread: about two to a grid cell), edges by index.
  const index = new Map();
  const nodes = graph.nodes.map((node, i) => {
    const radius = spacing * 0.4 * Math.sqrt(i + 0.5), angle = i * Math.PI * (3 - Math.sqrt(5));
    index.set(node.id, i);
    return { ...node, x: radius * Math.cos(angle), y: radius * Math.sin(angle), vx: 0, vy: 0, pinned: false };
  });
  const edges = graph.edges.filter((e) => index.has(e.source) && index.has(e.target))
    .map((e) => ({ ...e, s: nodes[index.get(e.source)], t: nodes[index.get(e.target)] }));

  const root = el("g", {});
  const edgeLayer = el("g", {}), labelLayer = el("g", {}), nodeLayer = el("g", {});
  root.append(edgeLayer, labelLayer, nodeLayer);
  svg.append(root);
  const labelEdges = edges.length <= 80;
  for (const edge of edges) {
    edge.line = el("line", { class: edge.manual ? "manual" : "", "stroke-width": (1 + 3 * edge.score).toFixed(1) },
      el("title", {}, [...(edge.manual ? [`linked by hand${edge.note ? `: ${edge.note}` : ""}`] : []), ...edge.via, `score ${edge.score}`].join("\n")));
    edgeLayer.append(edge.line);
    if (labelEdges && edge.via.length) {
      edge.label = el("text", { class: "edge-label", "text-anchor": "middle" }, edge.via[0].length > 36 ? edge.via[0].slice(0, 35) + "…" : edge.via[0]);
      labelLayer.append(edge.label);
    }
  }
  for (const node of nodes) {
    const label = node.copies.length ? `${node.name} +${node.copies.length}` : node.name;
    node.group = el("g", { class: "node", "data-id": node.id, tabindex: 0, role: "link", "aria-label": `Screenshot ${node.name}` },
      el("title", {}, [node.path || node.name, ...node.entities].join("\n")),
      el("rect", { x: -nodeWidth / 2, y: -nodeHeight / 2, width: nodeWidth, height: nodeHeight, rx: 5 }),
      showThumbs
        ? el("image", { href: `/thumbnails/${node.id}`, x: -nodeWidth / 2 + 2, y: -nodeHeight / 2 + 2, width: nodeWidth - 4, height: nodeHeight - 4, preserveAspectRatio: "xMinYMin slice" })
        : el("text", { "text-anchor": "middle", dy: "0.35em" }, label.length > 18 ? label.slice(0, 17) + "…" : label),
      showThumbs ? el("text", { "text-anchor": "middle", y: nodeHeight / 2 + 13 }, label.length > 22 ? label.slice(0, 21) + "…" : label) : null);
    node.group.addEventListener("keydown", (event) => { if (event.key === "Enter") navigate(`/screenshots/${node.id}`); });
    nodeLayer.append(node.group);
  }

  view = { x: width / 2, y: height / 2, k: nodes.length > 150 ? 0.6 : 1 };
  const applyView = () => root.setAttribute("transform", `translate(${view.x},${view.y}) scale(${view.k})`);
  applyView();
  const paint = () => {
    for (const edge of edges) {
      edge.line.setAttribute("x1", edge.s.x.toFixed(1)); edge.line.setAttribute("y1", edge.s.y.toFixed(1));
      edge.line.setAttribute("x2", edge.t.x.toFixed(1)); edge.line.setAttribute("y2", edge.t.y.toFixed(1));
      if (edge.label) {
        edge.label.setAttribute("x", ((edge.s.x + edge.t.x) / 2).toFixed(1));
        edge.label.setAttribute("y", ((edge.s.y + edge.t.y) / 2 - 3).toFixed(1));
      }
    }
    for (const node of nodes) node.group.setAttribute("transform", `translate(${node.x.toFixed(1)},${node.y.toFixed(1)})`);
  };

  // The simulation, a few steps per frame until it cools.
  const simulation = { alpha: 1 };
  const cell = (cx, cy) => (cx + 32768) * 65536 + (cy + 32768); // a number: no string keys in the hot loop
  const step = () => {
    const alpha = simulation.alpha;
    const grid = new Map();
    for (const node of nodes) {
      const key = cell(Math.floor(node.x / spacing), Math.floor(node.y / spacing));
      const bucket = grid.get(key);
      if (bucket) bucket.push(node); else grid.set(key, [node]);
    }
    for (const node of nodes) {
      const cx = Math.floor(node.x / spacing), cy = Math.floor(node.y / spacing);
      for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) {
        for (const other of grid.get(cell(cx + dx, cy + dy)) || []) {
          if (other === node) continue;
          let x = node.x - other.x, y = node.y - other.y;
          let d2 = x * x + y * y;
          if (d2 === 0) { x = Math.random() - 0.5; y = Math.random() - 0.5; d2 = x * x + y * y; }
          if (d2 > spacing * spacing) continue;
          const push = (spacing * spacing / d2 - 1) * 0.02 * alpha;
          node.vx += x * Math.min(push, 2); node.vy += y * Math.min(push, 2);
        }
      }
      node.vx -= node.x * 0.002 * alpha; node.vy -= node.y * 0.002 * alpha;
    }
    for (const edge of edges) {
      const x = edge.t.x - edge.s.x, y = edge.t.y - edge.s.y;
      const d = Math.sqrt(x * x + y * y) || 1;
      const pull = (d - spacing * 1.1) / d * 0.08 * alpha * (0.5 + edge.score);
      edge.s.vx += x * pull; edge.s.vy += y * pull; edge.t.vx -= x * pull; edge.t.vy -= y * pull;
    }
    for (const node of nodes) {
      if (node.pinned) { node.vx = node.vy = 0; continue; }
      node.vx *= 0.6; node.vy *= 0.6;
      node.x += node.vx; node.y += node.vy;
    }
    simulation.alpha *= 0.97;
  };
  let reported = false, painted = 0;
  // Steps for a slice of each frame; the DOM is written at most four times a second while the
  // map settles (writing thousands of attributes costs more than a step), and once at the end.
  const frame = () => {
    if (mine !== run) return;
    const until = performance.now() + (nodes.length > 500 ? 40 : 12);
    while (simulation.alpha > 0.02 && performance.now() < until) step();
    if (simulation.alpha <= 0.02 || nodes.length <= 500 || performance.now() - painted > 250) {
      paint();
      painted = performance.now();
    }
    if (simulation.alpha > 0.02) requestAnimationFrame(frame);
    else if (!reported) { reported = true; if (!touched) fit(); svg.dataset.settled = "true"; done(); }
  };
  svg.dataset.settled = "false";
  requestAnimationFrame(frame);

  // Once settled, the whole map fits the frame (unless the person already moved it).
  let touched = false;
  const fit = () => {
    if (!nodes.length) return;
    const xs = nodes.map((n) => n.x), ys = nodes.map((n) => n.y);
    const left = Math.min(...xs) - nodeWidth, right = Math.max(...xs) + nodeWidth;
    const top = Math.min(...ys) - nodeHeight, bottom = Math.max(...ys) + nodeHeight;
    const k = Math.min(1.5, Math.max(0.1, Math.min(width / (right - left), height / (bottom - top))));
    view = { k, x: width / 2 - k * (left + right) / 2, y: height / 2 - k * (top + bottom) / 2 };
    applyView();
  };

  // Pan, zoom, drag and click.
  let pointer = null;
  svg.onpointerdown = (event) => {
    const group = event.target.closest(".node");
    const node = group ? nodes[index.get(Number(group.dataset.id))] : null;
    pointer = { id: event.pointerId, x: event.clientX, y: event.clientY, node, moved: false };
    touched = true;
    svg.setPointerCapture(event.pointerId);
    svg.classList.add("dragging");
  };
  svg.onpointermove = (event) => {
    if (!pointer || pointer.id !== event.pointerId) return;
    const dx = event.clientX - pointer.x, dy = event.clientY - pointer.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) pointer.moved = true;
    if (!pointer.moved) return;
    pointer.x = event.clientX; pointer.y = event.clientY;
    if (pointer.node) {
      pointer.node.x += dx / view.k; pointer.node.y += dy / view.k; pointer.node.pinned = true;
      if (simulation.alpha < 0.1) { simulation.alpha = 0.1; requestAnimationFrame(frame); }
      paint();
    } else {
      view.x += dx; view.y += dy; applyView();
    }
  };
  svg.onpointerup = (event) => {
    svg.classList.remove("dragging");
    if (pointer && !pointer.moved && pointer.node) navigate(`/screenshots/${pointer.node.id}`);
    pointer = null;
  };
  svg.onwheel = (event) => {
    event.preventDefault();
    touched = true;
    const box = svg.getBoundingClientRect();
    const px = event.clientX - box.left, py = event.clientY - box.top;
    const factor = Math.exp(-event.deltaY * 0.0015);
    const k = Math.min(4, Math.max(0.1, view.k * factor));
    view.x = px - (px - view.x) * (k / view.k); view.y = py - (py - view.y) * (k / view.k); view.k = k;
    applyView();
  };
}
