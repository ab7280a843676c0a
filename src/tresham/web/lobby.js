// The lobby: start a game (this browser keeps every seat's token, for a hotseat game; each
// seat's link can be sent to its player instead) and list recent games.

import { api, el, saveSeats } from "./common.js";

const $ = (id) => document.getElementById(id);

const names = (text) => text.split(",").map((p) => p.trim()).filter(Boolean);

/** A level to pick for each bot named in the bots field (what was picked kept as the names
 * change); `levels` is `{levels, default}` of /api/bots. */
function showBotLevels(levels) {
  const picked = {};
  for (const select of document.querySelectorAll(".bot-level")) picked[select.dataset.player] = select.value;
  const rows = [...new Set(names($("bots").value))].map((player) => {
    const select = el("select", { class: "bot-level", "data-player": player });
    for (const level of levels.levels) select.append(el("option", { value: level }, level));
    select.value = picked[player] || levels.default;
    return el("label", {}, `Level of ${player} (bot)`, select);
  });
  $("bot-levels").replaceChildren(...rows);
}

async function main() {
  const levels = await api("/api/bots");
  $("bots").addEventListener("input", () => showBotLevels(levels));
  showBotLevels(levels);
  $("new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const bots = [...document.querySelectorAll(".bot-level")].map((select) => ({ player: select.dataset.player, level: select.value }));
    const body = { title: $("title").value, players: names($("players").value), bots };
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    try {
      const game = await api("/api/games", { method: "POST", body });
      const seats = {};
      const links = el("ul", {});
      for (const s of game.seats) {
        if (s.token) seats[s.player] = s.token;
        links.append(el("li", {}, `${s.player}: `, s.url ? el("a", { href: s.url, class: "seat-link" }, s.url) : `bot (${s.level})`));
      }
      saveSeats(game.id, seats);
      $("created").replaceChildren(
        el("p", {}, el("a", { href: `/games/${encodeURIComponent(game.id)}`, id: "open-table", class: "button primary" }, "Open the table (every seat, on this device)")),
        el("p", {}, "Or send each player their seat's link:"), links);
    } catch (err) {
      $("message").textContent = err.message;
      $("message").className = "error";
    }
  });
  for (const t of await api("/api/titles")) {
    $("title").append(el("option", { value: t.title }, `${t.title} (${t.players[0]}-${t.players[1]} players)`));
  }
  for (const g of await api("/api/games")) {
    $("games").append(el("li", {}, el("a", { href: `/games/${encodeURIComponent(g.id)}` }, `${g.title} ${g.id}`),
      ` ${g.players.join(", ")}${g.finished ? " (finished)" : ""}`));
  }
  document.body.dataset.ready = "1";
}

main().catch((err) => { $("message").textContent = err.message; });
