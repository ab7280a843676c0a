// Line charts (SVG) of a game's history: one line per series over the history's points.

import { svg } from "./common.js";

/** A chart of `series` ({name: [value per point]}) over `labels`, coloured by `colors`. */
export function lineChart(title, labels, series, colors) {
  const width = 560;
  const height = 260;
  const left = 46;
  const bottom = 30;
  const top = 24;
  const right = 90;
  const values = Object.values(series).flat().filter((v) => v !== null);
  const max = Math.max(1, ...values);
  const min = Math.min(0, ...values);
  const x = (i) => left + (i * (width - left - right)) / Math.max(1, labels.length - 1);
  const y = (v) => top + ((max - v) * (height - top - bottom)) / (max - min || 1);
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": title });
  root.append(svg("text", { x: left, y: 15, class: "chart-title" }, title));
  for (let k = 0; k <= 4; k++) {
    const v = min + ((max - min) * k) / 4;
    root.append(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid" }));
    root.append(svg("text", { x: left - 4, y: y(v) + 3, "text-anchor": "end", class: "axis" }, String(Math.round(v))));
  }
  const every = Math.max(1, Math.ceil(labels.length / 8));
  labels.forEach((label, i) => {
    const last = i === labels.length - 1;
    if (last || (i % every === 0 && labels.length - 1 - i >= every)) {
      root.append(svg("text", { x: x(i), y: height - 10, "text-anchor": "middle", class: "axis" }, label));
    }
  });
  const legends = [];
  for (const [name, points] of Object.entries(series)) {
    let d = "";
    points.forEach((v, i) => {
      if (v === null) return;
      d += `${d ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)} `;
    });
    if (!d) continue;
    root.append(svg("path", { d, class: "series", stroke: colors[name], "data-series": name }));
    const last = points.filter((v) => v !== null).pop();
    legends.push({ name, at: y(last) + 3 });
  }
  // Legends beside each line's last point, pushed apart so that none overlaps another.
  legends.sort((a, b) => a.at - b.at);
  legends.forEach((item, i) => {
    if (i > 0) item.at = Math.max(item.at, legends[i - 1].at + 12);
    root.append(svg("text", { x: width - right + 4, y: item.at, class: "legend", fill: colors[item.name] }, item.name));
  });
  return root;
}
