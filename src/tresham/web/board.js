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

// ------------------------------------------------------------------ placing what a hex prints
// Labels, revenue badges, terrain and markers go where nothing else is: a Placer knows the
// discs already taken (samples of the track, the stops, what it placed) and picks, from a
// list of candidate spots in order of preference, the first that is clear (else the clearest).

/** Points along a tile path's `d` ("M x y L x y" or "M x y A r r 0 0 sweep x y"). */
function pathSamples(d, step = 3) {
  const nums = (d.match(/-?\d*\.?\d+(?:e-?\d+)?/gi) || []).map(Number);
  const [x0, y0] = nums;
  const out = [];
  if (/A/i.test(d) && nums.length >= 9) {
    const [r, , , , sweep, x1, y1] = nums.slice(2);
    const mx = (x0 - x1) / 2;
    const my = (y0 - y1) / 2;
    const h2 = mx * mx + my * my;
    const coef = Math.sqrt(Math.max(0, (r * r - h2) / h2)) * (sweep ? 1 : -1);
    const cx = coef * my + (x0 + x1) / 2;
    const cy = -coef * mx + (y0 + y1) / 2;
    const a0 = Math.atan2(y0 - cy, x0 - cx);
    let da = Math.atan2(y1 - cy, x1 - cx) - a0;
    if (sweep && da < 0) da += 2 * Math.PI;
    if (!sweep && da > 0) da -= 2 * Math.PI;
    const n = Math.max(2, Math.ceil(Math.abs(da * r) / step));
    for (let i = 0; i <= n; i++) out.push([cx + r * Math.cos(a0 + (da * i) / n), cy + r * Math.sin(a0 + (da * i) / n)]);
  } else if (nums.length >= 4) {
    const [x1, y1] = nums.slice(nums.length - 2);
    const n = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / step));
    for (let i = 0; i <= n; i++) out.push([x0 + ((x1 - x0) * i) / n, y0 + ((y1 - y0) * i) / n]);
  }
  return out;
}

class Placer {
  constructor(inner = 43.3) {
    this.inner = inner; // how far from the centre a placed disc may reach
    this.taken = [];
  }

  take(x, y, r) { this.taken.push([x, y, r]); }

  /** How clear a disc of radius r at (x, y) is (negative: it overlaps something). */
  clearance(x, y, r) {
    let best = this.inner - (Math.hypot(x, y) + r);
    for (const [tx, ty, tr] of this.taken) best = Math.min(best, Math.hypot(x - tx, y - ty) - tr - r);
    return best;
  }

  /** The first clear spot of `candidates` for a disc of radius r (else the clearest); taken. */
  place(candidates, r) {
    let best = null;
    let bestScore = -Infinity;
    for (const [x, y] of candidates) {
      const score = this.clearance(x, y, r);
      if (score >= 0.5) { best = [x, y]; break; }
      if (score > bestScore) { best = [x, y]; bestScore = score; }
    }
    this.take(best[0], best[1], r);
    return best;
  }
}

/** Spots on a circle of `radius` around (x, y), `n` of them starting at `start` degrees. */
function ring(x, y, radius, start, n = 12) {
  const out = [];
  for (let i = 0; i < n; i++) {
    // alternate either side of the preferred angle: start, start+30, start-30, ...
    const step = Math.ceil(i / 2) * (i % 2 ? 1 : -1) * (360 / n);
    const a = ((start + step) * Math.PI) / 180;
    out.push([x + radius * Math.cos(a), y + radius * Math.sin(a)]);
  }
  return out;
}

/** Shrink a text to `width` when it is longer (e.g. a five-letter name in a token). */
function fitText(node, text, width) {
  if (text.length >= 4) {
    node.setAttribute("textLength", String(width));
    node.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  return node;
}

// ------------------------------------------------------------------ markers, drawn as SVG
/** A terrain sign of `kind` (mountain, hill, river, water) with the cost beside it. */
function terrainSign(kind, cost, x, y) {
  const g = svg("g", { class: `terrain terrain-${kind}`, "data-terrain": kind, transform: `translate(${x} ${y})` });
  if (kind === "river" || kind === "water") {
    const wave = (dy) => `M-9 ${dy} q2.25 -3 4.5 0 t4.5 0 t4.5 0 t4.5 0`;
    g.append(svg("path", { d: `${wave(-2.5)} ${wave(2.5)}`, class: "terrain-waves" }));
  } else if (kind === "hill") {
    g.append(svg("path", { d: "M-9 4 Q-4.5 -7 0 -2 Q4.5 -7 9 4 Z", class: "terrain-shape" }));
  } else {
    g.append(svg("path", { d: "M-9 5 L-2 -7 L2 -1 L4 -4 L10 5 Z", class: "terrain-shape" }));
    g.append(svg("path", { d: "M-4.3 -3 L-2 -7 L0.3 -3.6 Z", class: "terrain-snow" }));
  }
  g.append(svg("text", { x: 0, y: 15, "text-anchor": "middle", class: "terrain-cost" }, String(cost)));
  return g;
}

/** A port's anchor. */
function anchorSign(x, y) {
  return svg("g", { class: "port", "data-marker": "port", transform: `translate(${x} ${y})` },
    svg("circle", { r: 8.5, class: "marker-back" }),
    svg("path", { class: "anchor", d: "M0 -4.2 V5.5 M-3.2 -1.8 H3.2 M-5 1.5 Q-4.5 5.6 0 5.8 Q4.5 5.6 5 1.5" }),
    svg("circle", { cy: -5.3, r: 1.5, class: "anchor-ring" }));
}

/** A flood hex's water drop (1883). */
function dropSign(x, y) {
  return svg("g", { class: "flood", "data-marker": "flood", transform: `translate(${x} ${y})` },
    svg("circle", { r: 8.5, class: "marker-back" }),
    svg("path", { class: "drop", d: "M0 -6.5 C2.5 -3 5 -0.5 5 2.2 A5 5 0 0 1 -5 2.2 C-5 -0.5 -2.5 -3 0 -6.5 Z" }),
    svg("path", { class: "drop-shine", d: "M-2.4 1.8 A2.6 2.6 0 0 0 -0.4 4.3" }));
}

/** 1854's medium-sized city on a laid tile: "a white marker with a black dot" (§5.3). */
function mediumCitySign(x, y) {
  return svg("g", { class: "medium-city", "data-marker": "medium-city", transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})` },
    svg("circle", { r: 7, fill: "#fff", stroke: "#1b1b1b", "stroke-width": 1.4 }),
    svg("circle", { r: 3, fill: "#1b1b1b" }));
}

/** 1854's permission shield (§5.3): a small shield with the guarding company's symbol. */
function shieldSign(sym, color, x, y) {
  return svg("g", { class: "shield", "data-marker": "shield", "data-company": sym, transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})` },
    svg("path", { d: "M-8.5 -9 H8.5 V-1 Q8.5 6.5 0 10.5 Q-8.5 6.5 -8.5 -1 Z", fill: "#fff", stroke: color || "#1b1b1b", "stroke-width": 2 }),
    fitText(svg("text", { "text-anchor": "middle", y: 2.6, "font-size": 7.5, "font-weight": "bold", fill: "#1b1b1b" }, sym), sym, 13));
}

/** A customs sign (1854 §5.6): a border barrier, red and white, on a round plate. */
function customsSign(x, y) {
  return svg("g", { class: "customs", "data-marker": "customs", transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})` },
    svg("circle", { r: 8.5, fill: "#fff", stroke: "#c62828", "stroke-width": 1.6 }),
    svg("rect", { x: -6, y: -2, width: 12, height: 4, fill: "#c62828" }),
    svg("path", { d: "M-2 -2 h2 v4 h-2 Z M2 -2 h2 v4 h-2 Z", fill: "#fff" }));
}

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

const BADGE_R = 9;

function revenueBadge(x, y, value, extra = "") {
  return svg("g", { class: `revenue ${extra}`.trim(), transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})` },
    svg("circle", { r: BADGE_R }), svg("text", { "text-anchor": "middle", dy: "3.6" }, String(value)));
}

const PHASE_W = 19;
const PHASE_H = 13;

function phaseRevenues(node, phase, x, y) {
  const byPhase = node.revenue_by_phase;
  const values = [];
  for (const [name, value] of byPhase) {
    const last = values[values.length - 1];
    if (last && last.value === value) last.names.push(name);
    else values.push({ value, names: [name] });
  }
  const width = Math.min(PHASE_W, 78 / values.length);
  const g = svg("g", { class: "phase-revenues", transform: `translate(${x - (values.length * width) / 2} ${y})` });
  values.forEach((v, i) => {
    const current = v.names.includes(phase);
    g.append(svg("rect", { x: i * width, y: 0, width, height: PHASE_H, class: current ? "phase-current" : "" }));
    g.append(svg("text", { x: i * width + width / 2, y: 10, "text-anchor": "middle", class: current ? "phase-current" : "" }, String(v.value)));
  });
  return { g, width: values.length * width };
}

/** The radius a city of `slots` slots takes. */
function cityRadius(slots) {
  if (slots <= 1) return SLOT_R;
  if (slots === 2) return 2 * SLOT_R;
  return SLOT_R / Math.sin(Math.PI / slots) + SLOT_R;
}

/** Draw a tile drawing (one rotation) into `g`; `ctx` gives the hex's tokens and the phase.
 * Returns the Placer holding what was drawn (for what the hex adds: terrain, markers). */
export function drawTile(g, drawing, color, ctx = {}) {
  const { corners, coord, tokens = {}, reserved = {}, phase, colors = {}, legalSlots = {} } = ctx;
  const placer = new Placer(ctx.inner || 42);
  if (corners) {
    g.append(svg("polygon", { points: corners.map((p) => p.join(",")).join(" "), fill: tileFill(color), class: "hex-shape" }));
  }
  drawing.paths.forEach((p, i) => {
    g.append(trackPath(p.d, p.gauge, { "data-path": i }));
    for (const [x, y] of pathSamples(p.d)) placer.take(x, y, 5.5);
  });
  // a customs stop (1854 §5.6: a sign on the track, worth -10, not a station) draws no dot
  const customs = (node) => ctx.customs && node.kind === "town" && node.revenue < 0;
  for (const node of drawing.nodes) {
    if (node.kind === "city") {
      if (node.slots === 2 && node.angle) {
        const a = (node.angle * Math.PI) / 180;
        for (const s of [-1, 0, 1]) placer.take(node.x + s * SLOT_R * Math.cos(a), node.y + s * SLOT_R * Math.sin(a), SLOT_R + 0.5);
      } else placer.take(node.x, node.y, cityRadius(node.slots) + 0.5);
    } else if (node.kind === "town" && !customs(node)) placer.take(node.x, node.y, 6.5);
  }
  if (ctx.keepClear) for (const [x, y, r] of ctx.keepClear) placer.take(x, y, r);
  // One revenue for a tile whose stops all earn the same (e.g. Wien's three cities).
  const earning = drawing.nodes.filter((n) => (n.kind === "city" || n.kind === "town") && n.revenue && !n.revenue_by_phase);
  const shared = earning.length > 1 && earning.every((n) => n.revenue === earning[0].revenue);
  const badges = [];
  drawing.nodes.forEach((node, i) => {
    if (node.kind === "city") {
      const key = `${coord}:${i}`;
      const slots = tokens[key] || [];
      const city = svg("g", { class: "city", "data-node": i, transform: `translate(${node.x} ${node.y})` });
      // a two-slot city off the centre of a tile with several stops lies across its direction
      const turn = node.slots === 2 && node.angle ? node.angle : 0;
      const offsets = slotOffsets(node.slots).map(([dx, dy]) => {
        const a = (turn * Math.PI) / 180;
        return [dx * Math.cos(a) - dy * Math.sin(a), dx * Math.sin(a) + dy * Math.cos(a)];
      });
      if (node.slots === 2) {
        const body = svg("rect", { x: -2 * SLOT_R, y: -SLOT_R, width: 4 * SLOT_R, height: 2 * SLOT_R, rx: SLOT_R, class: "city-body" });
        if (turn) body.setAttribute("transform", `rotate(${turn})`);
        city.append(body);
      }
      let reservedShown = false;
      offsets.forEach(([dx, dy], s) => {
        const corp = slots[s];
        const slot = svg("g", { class: "slot", "data-slot": s, transform: `translate(${dx.toFixed(2)} ${dy.toFixed(2)})` });
        slot.append(svg("circle", { r: SLOT_R, class: "slot-circle" }));
        if (corp) {
          slot.classList.add("token");
          slot.append(svg("circle", { r: SLOT_R - 1.5, fill: colors[corp] || "#555", class: "token-disc" }));
          slot.append(fitText(svg("text", { "text-anchor": "middle", dy: "2.8", class: "token-text" }, corp), corp, 15));
        } else if (!reservedShown && reserved[key]) {
          reservedShown = true;
          slot.append(fitText(svg("text", { "text-anchor": "middle", dy: "2.6", class: "reserved" }, reserved[key]), reserved[key], 16));
        }
        city.append(slot);
      });
      const legal = legalSlots[key];
      if (legal) {
        city.classList.add("legal-token");
        city.addEventListener("click", (e) => { e.stopPropagation(); legal(); });
      }
      g.append(city);
      if (node.revenue_by_phase) {
        const { g: row, width } = phaseRevenues(node, phase, node.x, node.y + SLOT_R + 3);
        g.append(row);
        placer.take(node.x, node.y + SLOT_R + 3 + PHASE_H / 2, width / 2);
      } else if (node.revenue && !shared) badges.push({ node, around: cityRadius(node.slots) });
    } else if (customs(node)) {
      const [x, y] = placer.place([...ring(node.x, node.y, 15, -90, 12), ...ring(node.x, node.y, 22, -90, 12)], 8.5);
      const sign = customsSign(x, y);
      sign.dataset.node = String(i);
      g.append(sign);
      badges.push({ node: { ...node, x, y }, around: 8.5 });
    } else if (node.kind === "town") {
      g.append(svg("circle", { cx: node.x, cy: node.y, r: 6, class: "town", "data-node": i }));
      if (node.revenue_by_phase) {
        const { g: row, width } = phaseRevenues(node, phase, node.x, node.y + 8);
        g.append(row);
        placer.take(node.x, node.y + 8 + PHASE_H / 2, width / 2);
      } else if (node.revenue && !shared) badges.push({ node, around: 6 });
    } else if (node.kind === "offboard") {
      if (node.revenue_by_phase) {
        const { g: row, width } = phaseRevenues(node, phase, node.x, node.y - 6);
        g.append(row);
        placer.take(node.x - width / 4, node.y, width / 4 + 2);
        placer.take(node.x + width / 4, node.y, width / 4 + 2);
      } else {
        // an off-board value sits on the stop itself, where its track ends
        g.append(revenueBadge(node.x, node.y, node.revenue, "at-stop"));
        placer.take(node.x, node.y, BADGE_R);
      }
    }
  });
  // Badges beside their stops (up and to the right first), clear of track and other stops.
  for (const { node, around } of badges) {
    const [x, y] = placer.place(ring(node.x, node.y, around + BADGE_R + 1, -45, 16), BADGE_R);
    g.append(revenueBadge(x, y, node.revenue));
  }
  if (shared) {
    const cx = earning.reduce((a, n) => a + n.x, 0) / earning.length;
    const cy = earning.reduce((a, n) => a + n.y, 0) / earning.length;
    const spots = [[cx, cy], ...ring(cx, cy, 14, -45, 12), ...ring(0, 0, 26, -45, 16)];
    const [x, y] = placer.place(spots, BADGE_R);
    g.append(revenueBadge(x, y, earning[0].revenue));
  }
  // Labels (e.g. Palermo's "P", "OO", 1883's "FS") in a free corner, up and to the left first.
  drawing.labels.forEach((label) => {
    const r = 5 + 3.5 * label.length;
    const [x, y] = placer.place([...ring(0, 0, 29, -150, 12), ...ring(0, 0, 18, -150, 12)], r);
    g.append(svg("text", { x: x.toFixed(2), y: (y + 4.5).toFixed(2), "text-anchor": "middle", class: "tile-label" }, label));
  });
  return placer;
}

function impassableLine(corners, edge) {
  const a = corners[(edge + 5) % 6];
  const b = corners[edge];
  return svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "impassable" });
}

/** Where a hex's name goes (flat: along the bottom edge; pointy: low, above the corner). */
const NAME_Y = { flat: 40, pointy: 39 };

/** A hex's name as lines of at most ~12 letters, broken at spaces, "&" and "/". */
function nameLines(name) {
  const words = name.replace(/\//g, "/ ").split(/\s+/).filter(Boolean);
  const lines = [];
  for (const word of words) {
    const last = lines[lines.length - 1];
    if (last !== undefined && (last + " " + word).length <= 12 && !last.endsWith("/")) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length > 2 ? [lines.slice(0, Math.ceil(lines.length / 2)).join(" "), lines.slice(Math.ceil(lines.length / 2)).join(" ")] : lines;
}

/** The font size of the names in drawing units at `upp` units per CSS pixel (table.css's
 * `.hex-name` clamp), and about how wide a character of it is. */
const NAME_FONT = { min: 7.5, perPixel: 9.5, max: 24, charWidth: 0.6 };

/** Squeeze each line of every name that would be wider than its hex at the current zoom (at
 * "fit" the names reach their largest size in drawing units and would run into their
 * neighbours'), and leave the others as they are. */
export function fitNames(root, board) {
  const upp = Number(root.style.getPropertyValue("--upp")) || 1;
  const font = Math.min(NAME_FONT.max, Math.max(NAME_FONT.min, NAME_FONT.perPixel * upp));
  const apothem = Math.hypot(...board.edges[0]);
  // pointy hexes put their neighbours' names on the same line: leave a gap between them
  const room = (board.layout === "pointy" ? 1.64 : 2.2) * apothem;
  for (const line of root.querySelectorAll(".hex-name tspan")) {
    line.removeAttribute("textLength");
    // measured where the browser has laid the name out, else estimated from its letters
    const wide = (root.isConnected && line.getComputedTextLength()) || line.textContent.length * NAME_FONT.charWidth * font;
    if (wide > room) {
      line.setAttribute("textLength", room.toFixed(1));
      line.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
}

/** A hex's name, its last line on the hex's lower edge (the names are drawn over every hex). */
function hexName(board, hex) {
  const lines = nameLines(hex.name);
  const text = svg("text", { x: hex.x, y: hex.y + (NAME_Y[board.layout] || 40), "text-anchor": "middle", class: "hex-name", "data-name-of": hex.coord });
  lines.forEach((line, i) => {
    const dy = i === 0 ? `${-1.05 * (lines.length - 1)}em` : "1.05em";
    text.append(svg("tspan", { x: hex.x, dy }, line));
  });
  return text;
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
  const nameY = NAME_Y[board.layout] || 40;
  const placer = drawTile(g, drawing, color, {
    corners: board.corners, coord: hex.coord, tokens: state.map.tokens, reserved: view.reserved,
    phase: state.phase, colors: view.colors, legalSlots: ui.tokenSlots || {},
    inner: board.layout === "pointy" ? 40 : 42, customs: hex.customs,
    // keep the name's place (the lower edge) and the coordinate's clear
    keepClear: hex.name ? [[0, nameY - 3, 9], [-13, nameY - 3, 7], [13, nameY - 3, 7]] : [],
  });
  // the coordinate's corner (drawn last) stays clear of what follows
  const [cx, cy] = board.layout === "pointy" ? [-27, 14] : [-30, 10];
  placer.take(cx, cy - 2.5, 6);
  // The printed terrain stays until a tile is laid (a preview shows what it would cost).
  if (!laid && hex.terrain_cost) {
    const kind = hex.terrain || "mountain";
    const [x, y] = placer.place([[0, -27], [-14, -25], [14, -25], ...ring(0, 0, 26, -90, 12), ...ring(0, 0, 16, -90, 12)], 10);
    g.append(terrainSign(kind, hex.terrain_cost, x, y - 3));
  }
  // 1854's medium-sized city (§5.3): printed, a black dot in a ring; built on, a white marker
  // with a black dot beside the tile's stop
  if (hex.medium_city) {
    const stop = drawing.nodes.find((n) => n.kind === "city" || n.kind === "town") || { x: 0, y: 0 };
    if (!laid && !preview) {
      g.append(svg("circle", { cx: stop.x, cy: stop.y, r: 10, fill: "none", stroke: "#1b1b1b", "stroke-width": 2, class: "medium-city-ring", "data-medium-city": hex.coord }));
      placer.take(stop.x, stop.y, 11.5);
    } else {
      const around = stop.kind === "city" ? cityRadius(stop.slots) : 6;
      const [x, y] = placer.place([...ring(stop.x, stop.y, around + 9, 135, 12), ...ring(0, 0, 28, 135, 12)], 7);
      const sign = mediumCitySign(x, y);
      sign.dataset.mediumCity = hex.coord;
      g.append(sign);
    }
  }
  // 1854's permission shield (§5.3): the guarding company's symbol, until a tile is laid
  if (hex.shield && !laid) {
    const [x, y] = placer.place([[-20, -22], [20, -22], ...ring(0, 0, 27, -120, 12), ...ring(0, 0, 18, -120, 12)], 10);
    g.append(shieldSign(hex.shield, (view.colors || {})[hex.shield], x, y));
  }
  if (hex.port) {
    const [x, y] = placer.place([[20, 24], ...ring(0, 0, 28, 40, 12)], 8.5);
    g.append(anchorSign(x, y));
  }
  if (hex.flood) {
    const [x, y] = placer.place([[22, -20], ...ring(0, 0, 28, -40, 12)], 8.5);
    g.append(dropSign(x, y));
  }
  hex.impassable.forEach((e) => g.append(impassableLine(board.corners, e)));
  g.append(svg("text", { x: cx, y: cy, class: "coord", "text-anchor": "middle" }, hex.coord));
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

/** A title's own tokens on the map (`state.markers`: 1883's port and bus tokens), each a disc in
 * its owner's colour beside the hex's centre, its meaning in its tooltip. */
function drawMarkers(board, state, view) {
  const byCoord = Object.fromEntries(board.hexes.map((h) => [h.coord, h]));
  const layer = svg("g", { class: "markers" });
  const seen = {};
  for (const m of state.markers || []) {
    const hex = byCoord[m.hex];
    if (!hex) continue;
    const k = seen[m.hex] = (seen[m.hex] || 0) + 1;
    const g = svg("g", { class: `map-marker marker-${m.kind}`, "data-hex": m.hex, "data-owner": m.owner, "data-kind": m.kind,
      transform: `translate(${hex.x - 26 + 13 * k} ${hex.y + 22})` },
    svg("title", {}, m.text),
    // the size of a station token's disc, ringed in black: told from the printed port sign
    svg("circle", { r: 9.5, fill: (view.colors || {})[m.owner] || "#555", class: "marker-disc" }));
    if (m.kind === "port") {
      g.append(svg("path", { class: "anchor marker-anchor", transform: "scale(1.3)", d: "M0 -3.6 V4.6 M-2.7 -1.5 H2.7 M-4.2 1.3 Q-3.8 4.8 0 5 Q3.8 4.8 4.2 1.3" }));
    } else {
      g.append(svg("text", { "text-anchor": "middle", y: 3.5, "font-size": 10, "font-weight": "bold", class: "marker-letter" }, m.kind[0].toUpperCase()));
    }
    layer.append(g);
  }
  return layer;
}

/** Show the tunnel `a` (a build_tunnel action: its hex and two edges) over the map, dashed, as
 * a player weighs it; null clears it. */
export function showTunnel(root, board, a) {
  root.querySelectorAll(".tunnel-preview").forEach((n) => n.remove());
  if (!a) return;
  const hex = board.hexes.find((h) => h.coord === a.hex);
  if (!hex) return;
  const g = svg("g", { class: "tunnel-preview", "data-hex": a.hex, transform: `translate(${hex.x} ${hex.y})` },
    svg("path", { d: overlayPath(board, [a.a, a.b]), class: "overlay-preview" }));
  const names = root.querySelector(".hex-names");
  root.insertBefore(g, names);
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

/** A hint's hex (a suggested lay or station) outlined over the map. */
function drawHintMark(board, coord) {
  const hex = board.hexes.find((h) => h.coord === coord);
  const layer = svg("g", { class: "hint-mark", "data-hex": coord });
  if (!hex) return layer;
  const points = board.corners.map(([x, y]) => `${hex.x + x},${hex.y + y}`).join(" ");
  layer.append(svg("polygon", { points, class: "hint-outline" }));
  return layer;
}

/** (Re)draw the whole board into `root` (an <svg>). Its extent goes to `data-extent`; the
 * viewBox too unless panzoom.js looks after it (`data-panzoom`). */
export function drawBoard(root, board, state, view, ui, onHex) {
  root.replaceChildren();
  if (root.dataset.panzoom !== "on") root.setAttribute("viewBox", board.viewbox.join(" "));
  root.setAttribute("data-extent", board.viewbox.join(" "));
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
  root.append(drawMarkers(board, state, view));
  if (ui.runs) root.append(drawRuns(board, state, ui.runs));
  if (ui.hint) root.append(drawHintMark(board, ui.hint));
  // The names over everything (a neighbour drawn later would hide a name on the hex's edge).
  const names = svg("g", { class: "hex-names" });
  for (const hex of board.hexes) if (hex.name) names.append(hexName(board, hex));
  root.append(names);
  fitNames(root, board);
}
