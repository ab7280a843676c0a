// The lobby: your games (the seats this browser holds, whose turn it is in each, yours
// highlighted), a new game (every option of its title, open seats for others to join by a
// link, bots of any level), an import (a tresham save or an 18xx.games export), and the
// public games open to join or watch. At /games/<id>/join it is also that game's join page:
// its seats, a name to sit under, and for its host the start, bots and listing.
// Names and chat are only ever shown as text (el() makes text nodes), never as HTML.

import { api, el, loadSeats, saveSeats } from "./common.js";

const $ = (id) => document.getElementById(id);
const SEATS_PREFIX = "tresham.seats.";
const HOST_PREFIX = "tresham.host.";
const joinMatch = location.pathname.match(/^\/games\/([^/]+)\/join\/?$/);
const joinId = joinMatch ? decodeURIComponent(joinMatch[1]) : null;

const names = (text) => text.split(",").map((p) => p.trim()).filter(Boolean);
const tableUrl = (id) => `/games/${encodeURIComponent(id)}`;
const joinUrl = (id) => `/games/${encodeURIComponent(id)}/join`;
const hostToken = (id) => localStorage.getItem(HOST_PREFIX + id);

function setMessage(text, isError = true) {
  $("message").textContent = text;
  $("message").className = isError ? "error" : "";
}

/** The ids of the games this browser holds seats of, or hosts. */
function heldGames() {
  const ids = new Set();
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key.startsWith(SEATS_PREFIX) && Object.keys(loadSeats(key.slice(SEATS_PREFIX.length))).length) ids.add(key.slice(SEATS_PREFIX.length));
    else if (key.startsWith(HOST_PREFIX)) ids.add(key.slice(HOST_PREFIX.length));
  }
  return [...ids];
}

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

/** The title's declared options as form fields, each with its description. */
function showOptions(title) {
  const fields = title.options.map((o) => {
    const id = `option-${o.name}`;
    let input;
    if (o.type === "boolean") {
      input = el("input", { type: "checkbox", id, class: "option", "data-option": o.name, "data-type": o.type, checked: o.default === true });
      return el("label", { class: "check option-row" }, input, ` ${o.name}`, el("small", {}, ` ${o.description}`));
    }
    if (o.choices) {
      input = el("select", { id, class: "option", "data-option": o.name, "data-type": o.type });
      for (const choice of o.choices) input.append(el("option", { value: choice }, choice));
      input.value = o.default;
    } else {
      input = el("input", { id, class: "option", "data-option": o.name, "data-type": o.type, value: o.default });
    }
    return el("label", { class: "option-row" }, `${o.name} `, el("small", {}, o.description), input);
  });
  $("options").replaceChildren(el("legend", {}, `Options of ${title.title} (${title.players[0]}-${title.players[1]} players)`), ...fields);
}

/** The options picked that differ from their defaults. */
function pickedOptions(title) {
  const out = {};
  for (const o of title.options) {
    const input = $(`option-${o.name}`);
    const value = o.type === "boolean" ? input.checked : input.value;
    if (value !== o.default) out[o.name] = value;
  }
  return out;
}

/** What a created (or imported) game's answer offers: the table, each seat's link, and for a
 * game with open seats its join link. The seats' tokens and the host token are kept here. */
function showCreated(box, game) {
  const seats = {};
  const links = el("ul", {});
  for (const s of game.seats) {
    if (s.token) seats[s.player] = s.token;
    links.append(el("li", {}, `${s.player}: `, s.url ? el("a", { href: s.url, class: "seat-link" }, s.url) : `bot (${s.level})`));
  }
  saveSeats(game.id, { ...loadSeats(game.id), ...seats });
  if (game.host_token) localStorage.setItem(HOST_PREFIX + game.id, game.host_token);
  if (game.started === false) {
    const link = new URL(game.join_url, location.href).href;
    box.replaceChildren(
      el("p", {}, `${game.open_seats} seat(s) open. Send this join link to the players: `, el("a", { href: link, id: "join-link-created" }, link)),
      el("p", {}, el("a", { href: joinUrl(game.id), id: "open-waiting", class: "button primary" }, "Open the game's page")),
      links.children.length ? el("p", {}, "Seats taken:") : "", links);
  } else {
    box.replaceChildren(
      el("p", {}, el("a", { href: tableUrl(game.id), id: "open-table", class: "button primary" }, "Open the table (every seat, on this device)")),
      el("p", {}, "Or send each player their seat's link:"), links);
  }
  // what to do next in view at once, its first link ready for Enter
  box.scrollIntoView({ block: "center" });
  const next = box.querySelector("a.button.primary");
  if (next) next.focus();
  loadYourGames();
}

function gameLine(g, mine) {
  const seats = loadSeats(g.id);
  const href = g.started ? tableUrl(g.id) : joinUrl(g.id);
  const yours = g.started && !g.finished && g.acting_player && seats[g.acting_player];
  let status;
  if (g.finished) status = "finished";
  else if (!g.started) status = `waiting for players: ${g.players.length} of ${g.seats_wanted} seated`;
  else if (yours) status = `your turn (${g.acting_player})`;
  else status = g.acting_player ? `${g.acting_player}'s turn` : "";
  const held = Object.keys(seats);
  return el("li", { class: yours ? "game your-turn" : "game", "data-game": g.id },
    el("a", { href }, `${g.title} ${g.id}`), " ",
    el("span", { class: "game-players" }, g.players.join(", ")), " ",
    el("span", { class: "game-status" }, status),
    mine && held.length ? el("span", { class: "game-seats" }, ` (you: ${held.join(", ")})`) : null,
    mine && hostToken(g.id) ? el("span", { class: "game-seats" }, " (host)") : null,
    !mine && !g.started ? el("a", { href, class: "button" }, `Join (${g.open} open)`) : null);
}

async function loadYourGames() {
  const ids = heldGames();
  const games = ids.length ? await api("/api/games/mine", { method: "POST", body: { ids } }) : [];
  games.sort((a, b) => Number(Boolean(b.acting_player && loadSeats(b.id)[b.acting_player])) - Number(Boolean(a.acting_player && loadSeats(a.id)[a.acting_player])));
  $("your-games").replaceChildren(...games.map((g) => gameLine(g, true)));
  $("your-none").hidden = games.length > 0;
}

async function loadPublicGames() {
  const games = await api("/api/games");
  $("games").replaceChildren(...games.map((g) => gameLine(g, false)));
  $("games-none").hidden = games.length > 0;
}

// ------------------------------------------------------------------ a game's join page
let seatingShown = null;

async function showSeating() {
  const seating = await api(`/api/games/${encodeURIComponent(joinId)}/seating`);
  seatingShown = seating;
  const seats = loadSeats(joinId);
  const host = hostToken(joinId);
  $("join-title").textContent = `${seating.title} ${seating.id}`;
  const open = seating.seats_wanted - seating.seats.length;
  const rows = seating.seats.map((s) => el("li", { class: seats[s.player] ? "mine" : "" },
    s.player, s.bot ? ` (bot, ${s.level})` : "", seats[s.player] ? " (you)" : "",
    !seating.started && seats[s.player] ? el("button", { type: "button", class: "leave", onclick: () => leave(s.player) }, "Leave") : null));
  for (let i = 0; i < (seating.started ? 0 : open); i++) rows.push(el("li", { class: "open-seat" }, "open seat"));
  $("join-seats").replaceChildren(...rows);
  const held = Object.keys(seats);
  const [min] = seating.players_range;
  $("join-state").textContent = seating.started
    ? (seating.finished ? "The game is over." : "The game has started.")
    : `Waiting for players: ${seating.seats.length} of ${seating.seats_wanted} seated (${seating.title} starts with ${min} or more).`;
  $("join-form").hidden = seating.started || open === 0;
  $("join-held").hidden = held.length === 0;
  $("join-held").textContent = held.length ? `You sit here as ${held.join(", ")}.` : "";
  $("host-box").hidden = !host;
  if (host) {
    const link = new URL(joinUrl(joinId), location.href).href;
    $("join-link").href = link;
    $("join-link").textContent = link;
    $("start").hidden = seating.started;
    $("start").disabled = seating.seats.length < min;
    $("bot-form").hidden = seating.started || open === 0;
    $("host-public").checked = seating.public;
    $("host-spectator-chat").checked = seating.spectator_chat;
  }
  $("join-table").hidden = !seating.started;
  $("join-table").href = tableUrl(joinId);
  $("join-table").textContent = held.length ? "Open the table" : "Watch the table";
  if (seating.started && held.length && !seating.finished) location.assign(tableUrl(joinId));
  document.body.dataset.seating = seating.started ? "started" : "waiting";
}

async function leave(player) {
  const seats = loadSeats(joinId);
  try {
    await api(`/api/games/${encodeURIComponent(joinId)}/leave`, { method: "POST", token: seats[player] });
    delete seats[player];
    saveSeats(joinId, seats);
    await showSeating();
  } catch (err) {
    setMessage(err.message);
  }
}

async function hostRequest(path, body) {
  try {
    await api(`/api/games/${encodeURIComponent(joinId)}/${path}`, { method: "POST", body, token: hostToken(joinId) });
    setMessage("", false);
    await showSeating();
  } catch (err) {
    setMessage(err.message);
  }
}

function setupJoinPage(levels) {
  $("join-box").hidden = false;
  $("new-box").hidden = true;
  $("import-box").hidden = true;
  for (const level of levels.levels) $("bot-level").append(el("option", { value: level }, level));
  $("bot-level").value = levels.default;
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const seat = await api(`/api/games/${encodeURIComponent(joinId)}/join`, { method: "POST", body: { name: $("join-name").value.trim() } });
      saveSeats(joinId, { ...loadSeats(joinId), [seat.player]: seat.token });
      setMessage("", false);
      $("join-name").value = "";
      await showSeating();
    } catch (err) {
      setMessage(err.message);
    }
  });
  $("start").addEventListener("click", () => hostRequest("start"));
  $("bot-form").addEventListener("submit", (event) => {
    event.preventDefault();
    hostRequest("bots", { player: $("bot-name").value.trim(), level: $("bot-level").value });
  });
  $("host-public").addEventListener("change", () => hostRequest("listing", { public: $("host-public").checked }));
  $("host-spectator-chat").addEventListener("change", () => hostRequest("listing", { spectator_chat: $("host-spectator-chat").checked }));
  setInterval(() => {
    if (!seatingShown || !seatingShown.started) showSeating().catch((err) => setMessage(err.message));
  }, 1500);
}

// ------------------------------------------------------------------ import
function setupImport() {
  $("import-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = $("import-file").files[0];
    if (!file) return;
    const response = await fetch("/api/games/import", { method: "POST", headers: { "Content-Type": "application/json" }, body: await file.text() });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      setMessage(data.error || `${response.status} ${response.statusText}`);
      return;
    }
    setMessage("", false);
    showCreated($("imported"), data);
  });
}

async function main() {
  const [levels, titles] = await Promise.all([api("/api/bots"), api("/api/titles")]);
  $("bots").addEventListener("input", () => showBotLevels(levels));
  showBotLevels(levels);
  const titleOf = (name) => titles.find((t) => t.title === name);
  $("new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const bots = [...document.querySelectorAll(".bot-level")].map((select) => ({ player: select.dataset.player, level: select.value }));
    const title = titleOf($("title").value);
    const body = {
      title: title.title, players: names($("players").value), bots, options: pickedOptions(title),
      open_seats: Number($("open-seats").value || 0), public: $("public").checked, spectator_chat: $("spectator-chat").checked, hints: $("hints").checked,
    };
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    $("create-error").textContent = "";
    try {
      showCreated($("created"), await api("/api/games", { method: "POST", body }));
      setMessage("", false);
    } catch (err) {
      // said beside the button that was pressed, as well as at the top
      $("create-error").textContent = err.message;
      setMessage(err.message);
    }
  });
  for (const t of titles) $("title").append(el("option", { value: t.title }, `${t.title} (${t.players[0]}-${t.players[1]} players)`));
  $("title").addEventListener("change", () => showOptions(titleOf($("title").value)));
  showOptions(titles[0]);
  setupImport();
  if (joinId) {
    setupJoinPage(levels);
    await showSeating();
  }
  await Promise.all([loadYourGames(), loadPublicGames()]);
  setInterval(() => loadYourGames().catch(() => {}), 5000);
  document.body.dataset.ready = "1";
}

main().catch((err) => setMessage(err.message));
