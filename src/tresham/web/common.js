// Shared helpers of the table's pages: the API, the seats this browser holds, DOM building.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** Set one attribute; a `style` through the CSS object model (the pages' Content-Security-Policy
 * refuses style attributes set as markup). */
function attribute(node, k, v) {
  if (k === "style") node.style.cssText = v;
  else node.setAttribute(k, v);
}

/** An SVG element with attributes (and children). */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) attribute(node, k, String(v));
  }
  for (const child of children) node.append(child);
  return node;
}

/** An HTML element with attributes (and children: nodes or text). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else attribute(node, k, v === true ? "" : String(v));
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** GET or POST JSON; throws an Error carrying the API's message. */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

const seatsKey = (gameId) => `tresham.seats.${gameId}`;

/** The seat tokens this browser holds for a game: {player: token}. */
export function loadSeats(gameId) {
  try {
    return JSON.parse(localStorage.getItem(seatsKey(gameId)) || "{}");
  } catch {
    return {};
  }
}

export function saveSeats(gameId, seats) {
  localStorage.setItem(seatsKey(gameId), JSON.stringify(seats));
}

const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
  "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939"];

/** A colour for entity number `i` when the title data gives none. */
export const paletteColor = (i) => PALETTE[i % PALETTE.length];

/** The colour of each corporation: the title's, else one of the palette. */
export function corpColors(board, state) {
  const out = {};
  state.corporations.forEach((c, i) => {
    out[c.sym] = board.corporation_colors[c.sym] || paletteColor(i);
  });
  return out;
}

/** Whether `a` is the seller's answer to the pending offer `offer` (the state's `offer`). */
export function answersOffer(a, offer) {
  return Boolean(offer) && a.type === "choose" && a.entity === offer.seller
    && (a.choice === "accept" || a.choice === "decline");
}
