// The stock market as SVG: a 2-D grid or a hex grid (each row half a cell right of the row
// below), every cell's price and zone, and the corporations' tokens stacked in arrival order.

import { svg } from "./common.js";

const W = 40;
const H = 40;

function zoneClass(tags) {
  const names = [];
  for (const t of tags) {
    const base = t.split(":")[0];
    names.push(`zone-${base}`);
    if (t.includes(":")) names.push(`zone-${t.replace(":", "-")}`);
  }
  return names.join(" ");
}

function hexPoints() {
  const r = W / Math.sqrt(3);
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 90);
    pts.push(`${(r * Math.cos(a)).toFixed(2)},${(r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

/** The token of `corp`, `k`-th from the top of a stack of `n`: one alone is a disc; a stack
 * is a column of labelled bars, the top one highest, so that none hides another. */
function marketToken(corp, k, n, hex, colors) {
  const fill = colors[corp] || "#555";
  const label = (x, y, size, width) => {
    const text = svg("text", { x, y, "text-anchor": "middle", class: "token-text", style: `font-size: ${size}px` }, corp);
    if (corp.length >= 4) {
      text.setAttribute("textLength", String(width));
      text.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    return text;
  };
  if (n === 1) {
    return svg("g", { class: "market-token", "data-corp": corp, transform: "translate(0 5)" },
      svg("circle", { r: 10, fill }), label(0, 3, 7.5, 16));
  }
  const top = hex ? -3 : -6; // below the price
  const room = hex ? 20 : 25;
  const h = Math.min(10, room / n);
  const w = hex ? 30 : 34;
  const y = top + k * h;
  return svg("g", { class: "market-token market-bar", "data-corp": corp, transform: `translate(0 ${y.toFixed(2)})` },
    svg("rect", { x: -w / 2, y: 0, width: w, height: h - 0.6, rx: Math.min(4, h / 2), style: `fill: ${fill}; stroke: #fff; stroke-width: .6` }),
    label(0, h * 0.5 + Math.min(7.5, h * 0.85) * 0.36, Math.min(7.5, h * 0.85).toFixed(2), Math.min(w - 6, 22)));
}

/** (Re)draw the market into `root` (an <svg>). */
export function drawMarket(root, market, state, colors) {
  root.replaceChildren();
  const rows = market.rows;
  const hex = market.geometry === "hex";
  const rowStep = hex ? (W / Math.sqrt(3)) * 1.5 : H;
  const place = (r, c) => hex
    ? [c * W + ((rows.length - 1 - r) * W) / 2 + W / 2, r * rowStep + W / Math.sqrt(3)]
    : [c * W + W / 2, r * H + H / 2];
  const stacks = {};
  for (const s of state.market.stacks) stacks[s.pos.join(",")] = s.corps;
  let maxX = 0;
  let maxY = 0;
  const g = svg("g", {});
  rows.forEach((row, r) => row.forEach((cell, c) => {
    if (!cell) return;
    const [x, y] = place(r, c);
    maxX = Math.max(maxX, x + W / 2);
    maxY = Math.max(maxY, y + rowStep / 2 + (hex ? W / Math.sqrt(3) - rowStep / 2 : 0));
    const cellG = svg("g", { class: `cell ${zoneClass(cell.tags)}`, "data-cell": `${r},${c}`, transform: `translate(${x} ${y})` });
    cellG.append(hex
      ? svg("polygon", { points: hexPoints() })
      : svg("rect", { x: -W / 2, y: -H / 2, width: W, height: H }));
    cellG.append(svg("text", { "text-anchor": "middle", y: hex ? -8 : -H / 2 + 11, class: "price" }, String(cell.price)));
    const stack = stacks[`${r},${c}`] || [];
    // Top of the stack first: draw from the bottom up so the top one is in front.
    [...stack].reverse().forEach((corp, i) => {
      const k = stack.length - 1 - i;
      cellG.append(marketToken(corp, k, stack.length, hex, colors));
    });
    g.append(cellG);
  }));
  root.append(g);
  root.setAttribute("viewBox", `0 0 ${maxX + 2} ${maxY + 2}`);
}
