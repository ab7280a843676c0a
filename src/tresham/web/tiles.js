// The tile sheet: every tile a game may lay, at each of its six rotations.

import { api, el, svg } from "./common.js";
import { drawTile } from "./board.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2]);

async function main() {
  const board = await api(`/api/games/${encodeURIComponent(gameId)}/board`);
  document.getElementById("status").textContent = `${board.title}: ${Object.keys(board.tiles).length} tiles`;
  const sheet = document.getElementById("sheet");
  for (const [id, tile] of Object.entries(board.tiles)) {
    const row = el("div", { class: "tile-row", "data-tile": id }, el("span", { class: "tile-id" }, id));
    tile.rotations.forEach((drawing, rotation) => {
      const root = svg("svg", { viewBox: "-52 -52 104 104", class: "mini-tile" });
      const g = svg("g", { class: "tile", "data-rotation": rotation });
      drawTile(g, drawing, tile.color, { corners: board.corners, phase: board.phases[0].name });
      root.append(g);
      row.append(root);
    });
    sheet.append(row);
  }
  document.body.dataset.ready = "1";
}

main().catch((err) => {
  document.getElementById("message").textContent = err.message;
  document.body.dataset.ready = "error";
});
