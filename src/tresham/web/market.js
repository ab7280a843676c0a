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
      const token = svg("g", { class: "market-token", "data-corp": corp, transform: `translate(${k * 4 - 2} ${k * 5 + 5})` },
        svg("circle", { r: 10, fill: colors[corp] || "#555" }),
        svg("text", { "text-anchor": "middle", dy: "3", class: "token-text" }, corp));
      cellG.append(token);
    });
    g.append(cellG);
  }));
  root.append(g);
  root.setAttribute("viewBox", `0 0 ${maxX + 2} ${maxY + 2}`);
}
