// The lobby: start a game (this browser keeps every seat's token, for a hotseat game; each
// seat's link can be sent to its player instead) and list recent games.

import { api, el, saveSeats } from "./common.js";

const $ = (id) => document.getElementById(id);

async function main() {
  $("new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const names = (text) => text.split(",").map((p) => p.trim()).filter(Boolean);
    const body = { title: $("title").value, players: names($("players").value), bots: names($("bots").value) };
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    try {
      const game = await api("/api/games", { method: "POST", body });
      const seats = {};
      const links = el("ul", {});
      for (const s of game.seats) {
        if (s.token) seats[s.player] = s.token;
        links.append(el("li", {}, `${s.player}: `, s.url ? el("a", { href: s.url, class: "seat-link" }, s.url) : "bot"));
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
