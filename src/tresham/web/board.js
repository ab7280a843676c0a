// The board as SVG: hexes of either orientation, printed content, laid tiles, tokens, and the
// current player's choices (legal tile lays, token slots, proposed runs). All geometry comes
// from /api/games/{id}/board (server/board_view.py); nothing here knows a title.

import { svg } from "./common.js";

const FILL = {
  white: "#f3ecd8", yellow: "#f6d94a", green: "#62b55c", brown: "#b8835a", gray: "#b9b9b9",
  red: "#d9533f", blue: "#7fb7e6",
};
const tileFill = (color) => FILL[color] || color;

const SLOT_R = 10.5;
export const RUN_COLORS = ["#e6194b", "#3c5ee6", "#f58231", "#911eb4", "#0fa3a3", "#8f6b00"];

function slotOffsets(n) {
  if (n <= 1) return [[0, 0]];
  if (n === 2) return [[-SLOT_R, 0], [SLOT_R, 0]];
  const out = [];
  const radius = SLOT_R / Math.sin(Math.PI / n);
  for (let k = 0; k < n; k++) {
    const a = -Math.PI / 2 + (2 * Math.PI * k) / n;
    out.push([radius * Math.cos(a), radius * Math.sin(a)]);
  }
  return out;
}

function trackPath(d, gauge, extra = {}) {
  const g = svg("g", { class: `track track-${gauge}`, ...extra });
  g.append(svg("path", { d, class: "rail" }));
  if (gauge !== "standard") g.append(svg("path", { d, class: "rail-mark" }));
  return g;
}

function revenueBadge(x, y, value) {
  return svg("g", { class: "revenue", transform: `translate(${x} ${y})` },
    svg("circle", { r: 8 }), svg("text", { "text-anchor": "middle", dy: "3.5" }, String(value)));
}

function phaseRevenues(node, phase, x, y) {
  const byPhase = node.revenue_by_phase;
  const values = [];
  for (const [name, value] of byPhase) {
    const last = values[values.length - 1];
    if (last && last.value === value) last.names.push(name);
    else values.push({ value, names: [name] });
  }
  const width = 17;
  const g = svg("g", { class: "phase-revenues", transform: `translate(${x - (values.length * width) / 2} ${y})` });
  values.forEach((v, i) => {
    const current = v.names.includes(phase);
    g.append(svg("rect", { x: i * width, y: 0, width, height: 12, class: current ? "phase-current" : "" }));
    g.append(svg("text", { x: i * width + width / 2, y: 9.5, "text-anchor": "middle", class: current ? "phase-current" : "" }, String(v.value)));
  });
  return g;
}

/** Draw a tile drawing (one rotation) into `g`; `ctx` gives the hex's tokens and the phase. */
export function drawTile(g, drawing, color, ctx = {}) {
  const { corners, coord, tokens = {}, reserved = {}, phase, colors = {}, legalSlots = {} } = ctx;
  if (corners) {
    g.append(svg("polygon", { points: corners.map((p) => p.join(",")).join(" "), fill: tileFill(color), class: "hex-shape" }));
  }
  drawing.paths.forEach((p, i) => g.append(trackPath(p.d, p.gauge, { "data-path": i })));
  drawing.nodes.forEach((node, i) => {
    if (node.kind === "city") {
      const key = `${coord}:${i}`;
      const slots = tokens[key] || [];
      const city = svg("g", { class: "city", "data-node": i, transform: `translate(${node.x} ${node.y})` });
      const offsets = slotOffsets(node.slots);
      if (node.slots === 2) city.append(svg("rect", { x: -2 * SLOT_R, y: -SLOT_R, width: 4 * SLOT_R, height: 2 * SLOT_R, rx: SLOT_R, class: "city-body" }));
      let reservedShown = false;
      offsets.forEach(([dx, dy], s) => {
        const corp = slots[s];
        const slot = svg("g", { class: "slot", "data-slot": s, transform: `translate(${dx} ${dy})` });
        slot.append(svg("circle", { r: SLOT_R, class: "slot-circle" }));
        if (corp) {
          slot.classList.add("token");
          slot.append(svg("circle", { r: SLOT_R - 1.5, fill: colors[corp] || "#555", class: "token-disc" }));
          slot.append(svg("text", { "text-anchor": "middle", dy: "3", class: "token-text" }, corp));
        } else if (!reservedShown && reserved[key]) {
          reservedShown = true;
          slot.append(svg("text", { "text-anchor": "middle", dy: "3", class: "reserved" }, reserved[key]));
        }
        city.append(slot);
      });
      const legal = legalSlots[key];
      if (legal) {
        city.classList.add("legal-token");
        city.addEventListener("click", (e) => { e.stopPropagation(); legal(); });
      }
      g.append(city);
      if (node.revenue_by_phase) g.append(phaseRevenues(node, phase, node.x, node.y + SLOT_R + 3));
      else if (node.revenue) g.append(revenueBadge(node.x + (node.slots > 1 ? 2.4 : 1.5) * SLOT_R + 2, node.y - SLOT_R, node.revenue));
    } else if (node.kind === "town") {
      g.append(svg("circle", { cx: node.x, cy: node.y, r: 6, class: "town", "data-node": i }));
      if (node.revenue_by_phase) g.append(phaseRevenues(node, phase, node.x, node.y + 8));
      else if (node.revenue) g.append(revenueBadge(node.x + 13, node.y - 9, node.revenue));
    } else if (node.kind === "offboard") {
      if (node.revenue_by_phase) g.append(phaseRevenues(node, phase, node.x, node.y - 6));
      else g.append(revenueBadge(node.x, node.y, node.revenue));
    }
  });
  drawing.labels.forEach((label, i) => {
    g.append(svg("text", { x: -30, y: -14 + 12 * i, class: "tile-label" }, label));
  });
}

function impassableLine(corners, edge) {
  const a = corners[(edge + 5) % 6];
  const b = corners[edge];
  return svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "impassable" });
}

/** Everything a hex shows: its tile (laid, previewed or printed) and printed facts. */
function drawHex(board, hex, state, view, ui) {
  const g = svg("g", { class: `hex hex-${hex.color}`, "data-hex": hex.coord, transform: `translate(${hex.x} ${hex.y})` });
  const preview = ui.preview && ui.preview.hex === hex.coord ? ui.preview : null;
  const laid = state.map.tiles[hex.coord];
  let drawing = hex.tile;
  let color = hex.color;
  if (preview) {
    drawing = board.tiles[preview.tile].rotations[preview.rotation];
    color = board.tiles[preview.tile].color;
    g.classList.add("preview");
  } else if (laid) {
    drawing = board.tiles[laid[0]].rotations[laid[1]];
    color = board.tiles[laid[0]].color;
    g.dataset.tile = laid[0];
    g.dataset.rotation = String(laid[1]);
  }
  drawTile(g, drawing, color, {
    corners: board.corners, coord: hex.coord, tokens: state.map.tokens, reserved: view.reserved,
    phase: state.phase, colors: view.colors, legalSlots: ui.tokenSlots || {},
  });
  if (!laid && !preview) {
    if (hex.terrain_cost) {
      // A mountain with the cost beside it, at the top of the hex, clear of the stops.
      g.append(svg("g", { class: "terrain", transform: "translate(-6 -31)" },
        svg("path", { d: "M-7 5 L0 -6 L7 5 Z" }), svg("text", { x: 9, y: 4 }, String(hex.terrain_cost))));
    }
  }
  if (hex.port) g.append(svg("text", { x: 18, y: 30, class: "port", "text-anchor": "middle" }, "⚓"));
  if (hex.flood) g.append(svg("text", { x: 22, y: -22, class: "flood", "text-anchor": "middle" }, "💧"));
  hex.impassable.forEach((e) => g.append(impassableLine(board.corners, e)));
  if (hex.name) g.append(svg("text", { y: 40, "text-anchor": "middle", class: "hex-name" }, hex.name));
  g.append(svg("text", { x: -24, y: 30, class: "coord" }, hex.coord));
  if (ui.lays && ui.lays[hex.coord]) g.classList.add("legal-hex");
  if (preview) g.classList.add("selected");
  return g;
}

/** Overlay track (e.g. 1854's tunnels) is path OVERLAY_BASE + j of its hex (core track.py). */
const OVERLAY_BASE = 50;

/** The drawing of an overlay path between two edge midpoints, bending through the centre. */
function overlayPath(board, [a, b]) {
  const [ax, ay] = board.edges[a];
  const [bx, by] = board.edges[b];
  return `M ${ax} ${ay} Q 0 0 ${bx} ${by}`;
}

/** Draw the overlay track (tunnels) laid over hexes. */
function drawOverlays(board, state) {
  const byCoord = Object.fromEntries(board.hexes.map((h) => [h.coord, h]));
  const layer = svg("g", { class: "overlays" });
  for (const [coord, pairs] of Object.entries(state.map.overlays || {})) {
    const hex = byCoord[coord];
    if (!hex) continue;
    for (const pair of pairs) {
      layer.append(svg("path", { d: overlayPath(board, pair), class: "overlay", "data-hex": coord, transform: `translate(${hex.x} ${hex.y})` }));
    }
  }
  return layer;
}

/** Draw the proposed runs over the map: each run's track in its own colour. */
function drawRuns(board, state, runs) {
  const byCoord = Object.fromEntries(board.hexes.map((h) => [h.coord, h]));
  const layer = svg("g", { class: "runs" });
  runs.forEach((run, i) => {
    const color = RUN_COLORS[i % RUN_COLORS.length];
    for (const step of run.track) {
      const cut = step.lastIndexOf("-");
      const coord = step.slice(0, cut);
      const index = Number(step.slice(cut + 1));
      const hex = byCoord[coord];
      if (!hex) {
        // a long path (e.g. 1883's FS red track): a straight stretch between two hexes
        const lp = board.long_paths[coord];
        if (lp) layer.append(svg("path", { d: `M ${lp.from.join(" ")} L ${lp.to.join(" ")}`, class: "run", "data-run": i, stroke: color }));
        continue;
      }
      const laid = state.map.tiles[coord];
      const drawing = laid ? board.tiles[laid[0]].rotations[laid[1]] : hex.tile;
      const overlay = index >= OVERLAY_BASE ? (state.map.overlays || {})[coord]?.[index - OVERLAY_BASE] : null;
      const d = overlay ? overlayPath(board, overlay) : drawing.paths[index]?.d;
      if (!d) continue;
      layer.append(svg("path", { d, class: "run", "data-run": i, stroke: color, transform: `translate(${hex.x} ${hex.y})` }));
    }
  });
  return layer;
}

/** (Re)draw the whole board into `root` (an <svg>). */
export function drawBoard(root, board, state, view, ui, onHex) {
  root.replaceChildren();
  root.setAttribute("viewBox", board.viewbox.join(" "));
  const hexes = svg("g", { class: "hexes" });
  for (const hex of board.hexes) {
    const g = drawHex(board, hex, state, view, ui);
    g.addEventListener("click", () => onHex(hex.coord));
    hexes.append(g);
  }
  root.append(hexes);
  const lines = svg("g", { class: "long-paths" });
  for (const [name, lp] of Object.entries(board.long_paths)) {
    lines.append(svg("path", { d: `M ${lp.from.join(" ")} L ${lp.to.join(" ")}`, class: `long-path long-path-${lp.gauge}`, "data-name": name }));
  }
  root.append(lines);
  root.append(drawOverlays(board, state));
  if (ui.runs) root.append(drawRuns(board, state, ui.runs));
}
