// The browser table of one game: follows the game live over the websocket, draws the board,
// market, players, corporations, the spreadsheet, trains, privates and the whole log, and lets
// the seats this browser holds take their legal actions (and undo their own). Any past
// position can be looked at (the timeline in the header, or a click on a log entry): it is
// fetched with ?at=N and drawn like the present, with acting off, until "Back to the present".

import { answersOffer, api, corpColors, el, loadSeats, paletteColor, saveSeats, svg } from "./common.js";
import { drawBoard, drawTile, fitNames, RUN_COLORS, showTunnel } from "./board.js";
import { drawMarket } from "./market.js";
import { lineChart } from "./charts.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2]);
const $ = (id) => document.getElementById(id);

let board = null;
let zoom = null; // the board's pan and zoom (panzoom.js), once set up
let state = null; // the position drawn: the present, or the past one looked at
let present = null; // the latest state the server sent
let viewAt = null; // the log position looked at (null: the present)
let pastAsked = 0; // the latest past position asked for (a later click wins)
let pastWanted = null; // that position while its answer is on the way
let legal = { index: -1, actions: [] };
let seats = loadSeats(gameId);
let ui = freshUi();
let historyShown = -1;
// Hints (server/hints.py): whether the game's creator allows them, and the hint shown
// ({index, data}: the log position it is for, the server's answer), drawn on the map too.
let hintsAllowed = false;
let hintShown = null;
let hintAsked = false;
const LOG_PAGE = 50;
// The whole log: the set-up's event lines, every entry ({index, entry, seat, round, said, lines, own}),
// and the page shown (null: the last, following new entries).
const gameLog = { start: [], entries: [], page: null, scrolledFor: "", chat: new Map(), notes: new Map() };

// Chat lines (web/chat.js) join the log after the entry they were written at; they are
// words between players, never entries of the game.
document.addEventListener("tresham:chat", (event) => {
  for (const line of event.detail) {
    const at = gameLog.chat.get(line.at) || [];
    if (!at.some((l) => l.index === line.index)) at.push(line);
    gameLog.chat.set(line.at, at);
  }
  if (state) renderLog();
});

/** The chat lines written when the log had `n` entries, as log items. */
function chatItems(n) {
  return (gameLog.chat.get(n) || []).map((line) => el("li", { class: "log-chat", "data-chat": line.index },
    el("span", { class: "chat-who" }, `${line.player}${line.spectator ? " (spectator)" : ""}: `),
    el("span", { class: "chat-text" }, line.text)));
}

/** The hint notes ("Ann asked for a hint") of the position after `n` entries, as log items:
 * every player sees who asked; a hint is never an entry of the game. */
function noteItems(n) {
  return (gameLog.notes.get(n) || []).map((note) => el("li", { class: "log-note", "data-note": note.index }, note.text));
}

/** Add hint notes (from `/hints` or the websocket), each once. */
function addNotes(notes) {
  for (const note of notes) {
    const at = gameLog.notes.get(note.at) || [];
    if (!at.some((n) => n.index === note.index)) at.push(note);
    gameLog.notes.set(note.at, at);
  }
}

// ------------------------------------------------------------------ hints
/** Whether this browser may ask for a hint now: hints allowed, the present, its seat's turn. */
function mayAskHint() {
  return hintsAllowed && viewAt === null && !state.finished && Boolean(actingToken());
}

async function askHint() {
  hintAsked = true;
  renderActions(byHex(legal.actions.filter((a) => a.type === "lay_tile")));
  try {
    const answer = await api(`/api/games/${encodeURIComponent(gameId)}/hint`, { token: actingToken() });
    if (answer.note) addNotes([answer.note]);
    hintShown = answer.index === state.index ? { index: answer.index, data: answer.hint } : null;
  } catch (err) {
    setMessage(err.message, true);
  }
  hintAsked = false;
  render();
}

/** The Hint button, or the hint shown: its suggestion in words, with its evaluation, and the
 * next best choices. */
function hintPanel() {
  if (!mayAskHint()) return null;
  if (!hintShown || hintShown.index !== state.index) {
    return el("div", { id: "hint-box" }, el("button", { id: "hint-button", onclick: askHint, disabled: hintAsked,
      title: "what the search (hard) would do here; every player sees that you asked" }, hintAsked ? "Thinking…" : "Hint"));
  }
  const h = hintShown.data;
  const said = (c) => c.value === null ? c.text : `${c.text} (${c.value_text})`;
  return el("div", { id: "hint-box", class: "hint" },
    el("p", { class: "hint-suggestion" }, el("strong", {}, "Hint: "), said(h.suggestion)),
    h.alternatives.length ? el("p", { class: "hint-next" }, "Next best:") : null,
    h.alternatives.length ? el("ol", { class: "hint-alternatives" }, ...h.alternatives.map((c) => el("li", {}, said(c)))) : null,
    el("button", { class: "hint-close", onclick: () => { hintShown = null; render(); } }, "Hide the hint"));
}

/** What the hint shown draws on the map: a suggested lay as a preview of the tile, a station
 * or lay marked on its hex, suggested runs as runs are drawn; null when none. */
function hintOnMap() {
  if (!hintShown || hintShown.index !== state.index || viewAt !== null) return null;
  const a = hintShown.data.suggestion.action;
  if (a.type === "lay_tile") return { mark: a.hex, preview: { hex: a.hex, tile: a.tile, rotation: a.rotation } };
  if (a.type === "place_token" || a.type === "build_tunnel") return { mark: a.hex };
  if (a.type === "run_routes") return { runs: a.runs.map(({ train, stops, track }) => ({ train, stops, track })) };
  return null;
}

/** The choices being made on the map: a hex, a tile and its rotation; trains left idle; the
 * tunnel a tap chose (drawn until built, on a touch screen); amounts typed in the actions
 * panel (by row, kept while the table is drawn again at the same point of the game). */
function freshUi(amounts = {}) {
  return { hex: null, tile: null, rot: 0, dropped: new Set(), picked: {}, tunnel: null, amounts };
}

let messageTimer = null;

/** A line for the player; an error clears itself after a while (or at the next message). */
function setMessage(text, isError = false) {
  const box = $("message");
  box.textContent = text;
  box.className = isError ? "error" : "";
  clearTimeout(messageTimer);
  if (isError) messageTimer = setTimeout(() => { if (box.textContent === text) setMessage(""); }, 12000);
}

// ------------------------------------------------------------------ acting
function actingToken() {
  return viewAt === null && state && state.acting_player ? seats[state.acting_player] : undefined;
}

async function post(action, token = actingToken(), index = legal.index) {
  setMessage("");
  try {
    await api(`/api/games/${encodeURIComponent(gameId)}/actions`, { method: "POST", body: { index, action }, token });
    ui = freshUi();
    await refresh();
  } catch (err) {
    setMessage(err.message, true);
  }
}

async function takeBack(kind) {
  const player = kind === "undo" ? state.undo : state.redo;
  await post({ type: kind }, seats[player], state.index);
}

async function refresh() {
  const fresh = await api(`/api/games/${encodeURIComponent(gameId)}`);
  if (!present || fresh.index >= present.index) await show(fresh);
}

/** The prices one may name for a listed action instead of its own ([lowest, highest]), or
 * null: the server's `ranges`. */
function rangeOf(a) {
  const i = legal.actions.indexOf(a);
  return (legal.ranges && legal.ranges[i]) || null;
}

/** The words of a legal action (sent with it by the server: tresham/words.py): `text`, the
 * `effects` it would have, its `warnings` (what it would close or end for good), and where
 * its price is picked or named apart, its `label` (the words without it) and `detail` (the
 * words it adds); `buys`: a bid that is a purchase. */
function wordsOf(a) {
  return legal.choices[legal.actions.indexOf(a)];
}

/** All a choice would do, its warnings first (marked), as sentences. */
function saidOf(a) {
  const { effects, warnings } = wordsOf(a);
  return [...warnings.map((w) => `\u26a0 ${w}`), ...effects];
}

/** The effects of a choice as a small line under it ("" when none). */
function effectsLine(effects, attrs = {}) {
  return effects.length ? el("p", { class: "effects", ...attrs }, effects.join(" · ")) : null;
}

/** A button for a legal action: its words, what it would close or end (in red, first), and
 * what else it would do below them. */
function actionButton(a, extraClass = "") {
  const { text, effects, warnings } = wordsOf(a);
  const grave = warnings.length ? " act-grave" : "";
  const weighed = a.type === "build_tunnel";
  const button = el("button", { class: `act act-${a.type}${extraClass}${grave}`, onclick: weighed ? null : () => post(a), title: [...warnings, ...effects].join("\n") || null },
    el("span", { class: "act-text" }, text),
    ...warnings.map((w) => el("strong", { class: "act-warning" }, `\u26a0 ${w}`)),
    effects.length ? el("small", { class: "act-effects" }, effects.join(" · ")) : null);
  if (weighed) tunnelButton(button, a);
  return button;
}

/** Bring hex `coord` into view when the map is zoomed away from it. */
function revealHex(coord) {
  const hex = board.hexes.find((h) => h.coord === coord);
  if (hex && zoom) zoom.reveal(hex.x, hex.y);
}

/** 1854 §5.3.1: a tunnel's button draws the tunnel on the map while it is pointed at or
 * focused, moving the map to its hex when that is out of view (zoomed in, a phone). A touch
 * screen points at nothing: there the first tap chooses the tunnel (`ui.tunnel`: drawn, and
 * the button says so, until another is chosen or the position changes) and a second builds
 * it. A mouse click or the keyboard builds it at once (it was drawn while pointed at). */
function tunnelButton(button, a) {
  const show = () => { showTunnel($("board"), board, a); revealHex(a.hex); };
  const hide = () => showTunnel($("board"), board, ui.tunnel);
  for (const [on, f] of [["mouseenter", show], ["focus", show], ["mouseleave", hide], ["blur", hide]]) button.addEventListener(on, f);
  let pointer = ""; // the kind of the pointer pressed on it (a click may not carry it)
  button.addEventListener("pointerdown", (e) => { pointer = e.pointerType; });
  button.addEventListener("click", (e) => {
    const touched = ["touch", "pen"].includes(e.pointerType || pointer);
    pointer = "";
    if (!touched || ui.tunnel === a) {
      post(a);
      return;
    }
    ui.tunnel = a;
    render();
    revealHex(a.hex);
  });
  if (ui.tunnel === a) {
    button.classList.add("chosen");
    button.setAttribute("aria-pressed", "true");
    button.append(el("small", { class: "act-chosen" }, "Drawn on the map: tap again to build it"));
  }
}

async function loadLegal() {
  const token = actingToken();
  if (!token || state.finished || viewAt !== null) {
    legal = { index: state.index, actions: [] };
    return;
  }
  try {
    legal = await api(`/api/games/${encodeURIComponent(gameId)}/legal`, { token });
  } catch (err) {
    legal = { index: state.index, actions: [] };
    setMessage(err.message, true);
  }
}

// ------------------------------------------------------------------ choices on the map
function byHex(actions) {
  const out = {};
  for (const a of actions) (out[a.hex] ||= []).push(a);
  return out;
}

function tileChoices(lays) {
  const tiles = [];
  for (const a of lays) if (!tiles.includes(a.tile)) tiles.push(a.tile);
  return tiles;
}

function selectedLay(lays) {
  if (!ui.hex || !lays[ui.hex]) return null;
  const options = lays[ui.hex].filter((a) => a.tile === ui.tile);
  return options.length ? options[ui.rot % options.length] : null;
}

function onHex(coord) {
  const lays = byHex(legal.actions.filter((a) => a.type === "lay_tile"));
  if (!lays[coord]) {
    if (ui.hex) { ui = freshUi(ui.amounts); render(); }
    return;
  }
  if (ui.hex === coord && ui.tile) ui.rot += 1;
  else ui = { ...freshUi(ui.amounts), hex: coord, tile: lays[coord][0].tile };
  render();
}

function miniTile(tileId, rotation) {
  const root = svg("svg", { viewBox: "-52 -52 104 104", class: "mini-tile" });
  const g = svg("g", {});
  drawTile(g, board.tiles[tileId].rotations[rotation], board.tiles[tileId].color, { corners: board.corners, phase: state.phase });
  root.append(g);
  return root;
}

// ------------------------------------------------------------------ the actions panel
function amountRow(label, group, make, buttonText, id, preferred = null) {
  const range = group.length === 1 ? rangeOf(group[0]) : null; // one listed price of a range
  const prices = range || group.map((a) => a.price);
  const lo = Math.min(...prices);
  const hi = Math.max(...prices);
  const typed = ui.amounts[id];
  const value = typed !== undefined ? typed : preferred === null ? lo : Math.min(hi, Math.max(lo, preferred));
  const input = el("input", { type: "number", min: lo, max: prices.length > 1 ? hi : null, value, class: "amount", "aria-label": `${label}: amount` });
  input.addEventListener("input", () => { ui.amounts[id] = input.value; });
  const span = prices.length > 1 ? `${money(lo)}–${money(hi)}` : `from ${money(lo)}`;
  return el("div", { class: "action-row", "data-group": id },
    el("span", {}, `${label} (${span})`), input,
    el("button", { onclick: () => post(make(Number(input.value))) }, buttonText));
}

function groupBy(actions, keyOf) {
  const groups = new Map();
  for (const a of actions) {
    const key = keyOf(a);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(a);
  }
  return groups;
}

function renderActions(lays) {
  const box = $("actions");
  box.replaceChildren();
  const held = Object.keys(seats);
  const hinted = hintPanel();
  if (hinted) box.append(hinted);
  if (viewAt !== null) {
    const then = state.finished ? "The game was over." : `${state.acting_player} was to act${state.active_entity !== state.acting_player ? ` for ${state.active_entity}` : ""}.`;
    box.append(el("p", { class: "past-note" }, `This is the position after entry ${viewAt} (${state.round.label}). ${then} Nothing can be done here.`),
      el("button", { class: "primary", onclick: () => toPresent() }, "Back to the present"));
    return;
  }
  if (state.finished) {
    box.append(el("p", {}, "The game is over."));
    return;
  }
  const who = state.active_entity === state.acting_player ? state.acting_player : `${state.active_entity} (${state.acting_player})`;
  const offer = state.offer;
  if (offer) {
    box.append(offerPanel(offer, legal.actions.filter((a) => answersOffer(a, offer))));
  } else if (!actingToken()) {
    const asked = state.pending.length && state.pending[0].asked ? ` ${state.pending[0].asked}.` : "";
    box.append(el("p", { class: "waiting" }, held.length ? `Waiting for ${who}.${asked}` : `${who} to act.${asked} You are watching.`));
  }
  if (!offer && actingToken()) {
    box.append(el("p", { class: "turn" }, `${who} to act${legal.step ? `: ${legal.step}` : ":"}`));
  }
  const auction = auctionPanel();
  if (auction) box.append(auction);
  const actions = legal.actions.filter((a) => !answersOffer(a, offer));
  const forced = forcedPurchase(actions);
  if (forced) box.append(forced);
  const rest = [];
  const byType = groupBy(actions, (a) => a.type);
  for (const [type, group] of byType) {
    if (type === "lay_tile") {
      box.append(layPanel(lays));
    } else if (type === "place_token") {
      const row = el("div", { class: "action-row" }, el("span", {}, "Place a station: click a highlighted city, or "));
      for (const a of group) row.append(actionButton(a, " token-choice"));
      box.append(row);
    } else if (type === "run_routes") {
      box.append(runsPanel(group[0]));
    } else if (type === "par") {
      for (const [corp, options] of groupBy(group, (a) => a.corporation)) {
        const select = el("select", { "aria-label": `par price of ${corp}`, class: "par-price" });
        options.forEach((a, i) => select.append(el("option", { value: i }, wordsOf(a).detail ?? wordsOf(a).text)));
        const effects = el("p", { class: "effects" });
        const explain = () => { effects.textContent = saidOf(options[Number(select.value)]).join(" · "); };
        select.addEventListener("change", explain);
        explain();
        box.append(el("div", { class: "action-row par", "data-corp": corp }, el("span", {}, `Start ${corp} at`), select,
          el("button", { onclick: () => post(options[Number(select.value)]) }, "Start"), effects));
      }
    } else if (type === "bid") {
      for (const [company, options] of groupBy(group, (a) => a.company)) {
        if (wordsOf(options[0]).buys) rest.push(options[0]);
        else box.append(amountRow(`Bid on ${company}`, options, (price) => ({ ...options[0], price }), "Bid", `bid-${company}`));
      }
    } else if (type === "buy_train" || type === "buy_company") {
      // one row per seller and train type (its trains are alike), or per private; the amount
      // starts at face value, within the legal range
      for (const [key, all] of groupBy(group, (a) => (a.company ? a.company : `${trainOwner(a.train)}|${trainName(a.train)}|${a.variant || ""}`))) {
        const options = all.filter((a) => a.train === all[0].train);
        if (options.length === 1 && !rangeOf(options[0])) rest.push(options[0]);
        else box.append(amountRow(wordsOf(options[0]).label ?? wordsOf(options[0]).text, options, (price) => ({ ...options[0], price }), "Buy", key, faceValue(options[0])));
      }
    } else {
      rest.push(...group);
    }
  }
  const buttons = el("div", { class: "buttons" });
  for (const a of rest.filter((a) => a.type !== "pass").concat(rest.filter((a) => a.type === "pass"))) {
    buttons.append(actionButton(a));
  }
  box.append(buttons);
}

/** A train purchase that cannot be passed (the corporation has none): what it has, what
 * the cheapest costs, and who pays what is missing; each choice then says what it costs
 * whom. Null when the purchase is not forced. */
function forcedPurchase(actions) {
  const buys = actions.filter((a) => a.type === "buy_train");
  if (!buys.length || actions.some((a) => a.type === "pass")) return null;
  const corp = state.corporations.find((c) => c.sym === state.active_entity);
  if (!corp) return null;
  const cheapest = Math.min(...buys.map((a) => a.price));
  const missing = cheapest - corp.cash;
  const text = missing > 0
    ? `${corp.sym} has no train and must buy one now. It has ${money(corp.cash)}; the cheapest here costs ${money(cheapest)}, so ${corp.president} must pay the ${money(missing)} missing from their own cash (selling shares if need be).`
    : `${corp.sym} has no train and must buy one now (it has ${money(corp.cash)}).`;
  return el("p", { id: "forced-purchase", class: "forced", role: "status", "data-missing": Math.max(0, missing) }, text);
}

/** A deal waiting for the seller's answer, shown to everyone; the seat that answers for the
 * seller gets its two legal answers as buttons. */
function offerPanel(offer, answers) {
  const president = offer.asked === offer.seller ? "" : `, ${offer.seller}'s president,`;
  const panel = el("div", { id: "offer", class: "offer-panel", role: "status", "data-buyer": offer.buyer, "data-seller": offer.seller, "data-item": offer.item },
    el("p", { class: "offer-head" }, "Offer"),
    el("p", { class: "offer-text" }, offer.text));
  if (!answers.length) {
    panel.append(el("p", { class: "waiting" }, `Waiting for ${offer.asked}${president} to accept or decline.`));
    return panel;
  }
  panel.append(el("p", { class: "turn" }, offer.asked === offer.seller ? `${offer.asked}, your answer:` : `${offer.asked}, you answer for ${offer.seller}:`));
  const buttons = el("div", { class: "buttons" });
  for (const a of answers) {
    buttons.append(actionButton(a, ` offer-${a.choice}${a.choice === "accept" ? " primary" : ""}`));
  }
  panel.append(buttons);
  return panel;
}

function layPanel(lays) {
  const panel = el("div", { class: "lay-panel" });
  if (!ui.hex) {
    panel.append(el("p", {}, `Lay track: click a highlighted hex (${Object.keys(lays).length} possible); its cost shows before you lay.`));
    return panel;
  }
  panel.append(el("p", {}, `Tiles for ${townOf(ui.hex, true)} (click the hex again to rotate):`));
  const strip = el("div", { class: "tile-strip" });
  for (const tile of tileChoices(lays[ui.hex])) {
    const first = lays[ui.hex].find((a) => a.tile === tile);
    const shown = tile === ui.tile ? selectedLay(lays).rotation : first.rotation;
    const left = state.map.supply ? state.map.supply[tile] : undefined;
    const button = el("button", { class: `tile-choice${tile === ui.tile ? " chosen" : ""}`, "data-tile": tile, title: `tile ${tile}${left === undefined ? "" : `: ${left} left`}`, onclick: () => { ui.tile = tile; ui.rot = 0; render(); } },
      miniTile(tile, shown), el("span", {}, left === undefined ? tile : `${tile} (${left} left)`));
    strip.append(button);
  }
  panel.append(strip);
  const chosen = selectedLay(lays);
  const count = lays[ui.hex].filter((a) => a.tile === ui.tile).length;
  panel.append(el("div", { class: "buttons" },
    el("button", { id: "rotate-tile", onclick: () => { ui.rot += 1; render(); }, disabled: count < 2 }, `Rotate (${(ui.rot % count) + 1}/${count})`),
    el("button", { id: "lay-tile", class: "primary", onclick: () => post(chosen) }, wordsOf(chosen).text),
    el("button", { onclick: () => { ui = freshUi(ui.amounts); render(); } }, "Cancel")));
  const effects = saidOf(chosen);
  panel.append(el("p", { id: "lay-cost", class: "effects" }, effects.length ? effects.join(" · ") : "No cost."));
  return panel;
}

/** The trains that may run: those of the proposal, then any other with runs to choose. */
function runTrains(action) {
  const trains = action.runs.map((run) => run.train);
  const alts = legal.routes ? legal.routes.alternatives : {};
  const others = Object.keys(alts).filter((t) => alts[t].length);
  return trains.concat(others.filter((t) => !trains.includes(t)));
}

/** Each train's chosen run, `{train, stops, track, revenue}` (null: idle): the proposal's, or
 * the alternative picked in its list. */
function chosenRun(action, train) {
  if (ui.dropped.has(train)) return null;
  const picked = ui.picked[train];
  if (picked !== undefined && picked >= 0) {
    const alt = legal.routes.alternatives[train][picked];
    return alt ? { train, ...alt } : null;
  }
  const run = action.runs.find((r) => r.train === train);
  if (!run) return null;
  return { ...run, revenue: legal.routes ? legal.routes.runs[train] : null };
}

function chosenRuns(action) {
  return chosenRunsOf(runTrains(action).map((train) => chosenRun(action, train)).filter((run) => run !== null));
}

/** Runs as the action carries them (train, stops, track). */
function chosenRunsOf(runs) {
  return runs.map(({ train, stops, track }) => ({ train, stops, track }));
}

/** The engine's answer on a set of runs the player composed (`/check`, asked once per set and
 * position): {legal, error}; null while it is asked. The proposal itself is the engine's own. */
const runChecks = new Map();
function runsCheck(action, runs) {
  const key = `${legal.index}:${JSON.stringify(runs)}`;
  if (!runChecks.has(key)) {
    runChecks.set(key, null);
    api(`/api/games/${encodeURIComponent(gameId)}/check`, { method: "POST", body: { index: legal.index, action: { ...action, runs } }, token: actingToken() })
      .then((answer) => { runChecks.set(key, answer); render(); })
      .catch((err) => { runChecks.set(key, { legal: false, error: err.message }); render(); });
  }
  return runChecks.get(key);
}

function runsPanel(action) {
  const earns = legal.routes;
  const panel = el("div", { class: "runs-panel" }, el("p", {}, "Proposed runs (the best the engine finds), drawn on the map; pick another run for a train, or untick it to leave it idle:"));
  const list = el("ul", { class: "run-list" });
  runTrains(action).forEach((train, i) => {
    const proposed = action.runs.find((r) => r.train === train);
    const box = el("input", { type: "checkbox", checked: !ui.dropped.has(train), "data-train": train, "aria-label": `run ${train}` });
    box.addEventListener("change", () => {
      if (box.checked) ui.dropped.delete(train);
      else ui.dropped.add(train);
      render();
    });
    const select = el("select", { class: "run-choice", "data-train": train, "aria-label": `run of ${train}` });
    select.append(el("option", { value: -1 }, proposed
      ? `${stopsText(proposed.stops)}${earns ? ` (${money(earns.runs[train])})` : ""} — proposed`
      : "— (idle in the proposal)"));
    (earns ? earns.alternatives[train] || [] : []).forEach((alt, j) => {
      select.append(el("option", { value: j }, `${stopsText(alt.stops)} (${money(alt.revenue)})`));
    });
    const picked = ui.picked[train];
    select.value = String(picked !== undefined ? picked : -1);
    select.addEventListener("change", () => {
      ui.picked[train] = Number(select.value);
      render();
    });
    list.append(el("li", { style: `color:${RUN_COLORS[i % RUN_COLORS.length]}` },
      el("label", {}, box, ` ${trainName(train)}: `), select));
  });
  panel.append(list);
  const runs = chosenRuns(action);
  const own = JSON.stringify(runs) === JSON.stringify(chosenRunsOf(action.runs));
  const check = own ? { legal: true } : runsCheck(action, runs);
  const refused = check !== null && !check.legal;
  if (earns) {
    const total = runTrains(action)
      .map((train) => chosenRun(action, train))
      .filter((run) => run !== null)
      .reduce((sum, run) => sum + run.revenue, 0);
    panel.append(el("p", { id: "run-revenue", "data-revenue": total, class: refused ? "refused" : "" },
      refused ? `Revenue: ${money(total)} if these runs could be run together` : `Revenue: ${money(total)}`));
  }
  if (refused) {
    // the engine's own reason (two trains on the same track, a city twice...), before Run
    panel.append(el("p", { id: "run-conflict", class: "error", role: "alert" }, `These runs cannot be run: ${check.error}`));
  }
  panel.append(el("button", { id: "run-routes", class: "primary", disabled: check === null || refused, onclick: () => post({ ...action, runs }) },
    runs.length === action.runs.length ? "Run these routes" : `Run ${runs.length} train${runs.length === 1 ? "" : "s"}`));
  return panel;
}

// ------------------------------------------------------------------ panels
function cell(text, attrs = {}) {
  return el("td", attrs, text === null || text === undefined ? "" : String(text));
}

function chip(sym, colors) {
  return el("span", { class: "chip", style: `background:${colors[sym] || "#555"}` }, sym);
}

/** A player's name, with its bot's level if the server plays it: "Cid (bot, medium)". */
function playerLabel(player) {
  const seat = state.seats.find((s) => s.player === player);
  return seat && seat.bot ? `${player} (bot, ${seat.level})` : player;
}

function renderPlayers() {
  // loans (1849's L.500 loan) only once someone has one: the column is the first a phone cuts
  const loans = state.players.some((p) => p.loans);
  const rows = state.players.map((p) => el("tr", { "data-player": p.name, class: p.name === state.acting_player ? "acting" : "" },
    cell(p.name === state.priority ? "P" : "", { title: "priority deal" }),
    cell(playerLabel(p.name) + (p.bankrupt ? " (out)" : "") + (seats[p.name] ? " •" : ""), { class: "player-name" }),
    cell(money(p.cash), { class: "num" }),
    cell(Object.entries(p.shares).map(([s, v]) => `${s} ${v}%`).join(", ")),
    ...companyGroups().map((group) => cell(inGroup(p.companies, group).join(", "), { "data-group": group })),
    ...(loans ? [cell(p.loans)] : [])));
  $("players").replaceChildren(table(["", "player", "cash", "certificates", ...companyGroups(), ...(loans ? ["loans"] : [])], rows));
}

/** The headings private certificates are listed under: "privates", then a title's own kinds
 * (1854's "Local Railways": Title.company_group). */
function companyGroups() {
  const groups = new Set(state.companies.map((c) => c.group));
  return ["privates", ...[...groups].filter((g) => g !== "privates")].filter((g) => groups.has(g));
}

/** The private certificates among `syms` listed under heading `group`. */
function inGroup(syms, group) {
  return syms.filter((sym) => (state.companies.find((c) => c.sym === sym) || {}).group === group);
}

function table(head, rows) {
  return el("table", {}, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))), el("tbody", {}, ...rows));
}

/** Trains by name, alike ones counted: "3×4H 6H". */
function trainsText(names) {
  const counts = new Map();
  for (const name of names) counts.set(name, (counts.get(name) || 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${n}×${name}` : name)).join(" ");
}

/** A private by its name and symbol ("Ferrovia Casalecchio Vignola (FCV)"). */
function privateName(sym) {
  const co = state.companies.find((c) => c.sym === sym);
  return co && co.name ? `${co.name} (${sym})` : sym;
}

function renderCorporations(colors) {
  // narrow enough for the side column at 1366 px (the spreadsheet has every figure)
  const shown = state.corporations.filter((c) => c.parred || c.floated);
  // what a corporation holds besides trains and shares (its privates, 1854's mail contracts:
  // Title.corporation_holds), on a line of its own under its row: a column would take the
  // width the table does not have at 1366 px; a warning (1883's last round to fulfil a
  // concession: "⚠ …") on a line of its own, in red
  const holds = (c) => {
    const held = [...(c.companies.length ? [`Privates: ${c.companies.map(privateName).join(", ")}`] : []), ...(c.holds || [])];
    const lines = held.map((text) => el("div", { class: text.startsWith("⚠") ? "holds-warning" : "" }, text));
    return held.length
      ? [el("tr", { class: "holds-row", "data-holds-of": c.sym }, el("td", {}), el("td", { colspan: 6 }, ...lines))]
      : [];
  };
  const rows = shown.flatMap((c) => [el("tr", { "data-corp": c.sym, class: c.closed ? "closed" : "" },
    el("td", { title: c.name }, chip(c.sym, colors)),
    cell(c.president),
    cell(c.price === null ? "" : money(c.price), { class: "num", title: `share price (par ${money(c.par_price)})` }),
    cell(money(c.cash), { class: "num" }),
    cell(trainsText(c.train_names), { class: "trains" }),
    cell(`${c.placed.length}/${c.tokens}`),
    cell(`${c.treasury}% · ${c.pool}%`, { class: "num", title: "in the IPO (treasury) · in the pool" })), ...holds(c)]);
  const waiting = state.to_start;
  $("corporations").replaceChildren(
    el("div", { class: "scroll" }, table(["", "president", "price", "cash", "trains", "tokens", "IPO · pool"], rows)),
    el("p", { class: "note" }, waiting.length ? `Not started: ${waiting.join(", ")}` : ""));
}

function renderDepot() {
  const forSale = new Set(state.trains_for_sale.map((t) => t.kind));
  const noted = state.depot.some((t) => t.note);
  const trains = state.depot.map((t) => el("tr", { "data-train": t.kind, class: forSale.has(t.kind) ? "acting" : "" },
    cell((t.name || t.kind) + (t.variants.length ? ` / ${t.variants.join(" / ")}` : "")),
    cell(money(t.price), { class: "num" }),
    cell(`${t.left}/${t.count}`, { class: "num" }),
    cell(t.pool || "", { class: "num" }),
    cell(t.rusts_on || ""),
    ...(noted ? [cell(t.note, { class: "ability" })] : [])));
  const phases = board.phases.map((p) => el("tr", { class: p.name === state.phase ? "acting" : "" },
    cell(p.name), cell(p.on || ""), cell(p.train_limit, { class: "num" }), cell(p.tiles.join(", ")), cell(p.operating_rounds, { class: "num" })));
  $("depot").replaceChildren(
    el("p", {}, `Phase ${state.phase}; bank ${state.bank.text}`),
    table(["train", "price", "left", "pool", "rusts on", ...(noted ? ["what it does"] : [])], trains),
    table(["phase", "from", "train limit", "tiles", "ORs"], phases));
}

function renderPrivates() {
  // one table a heading: the privates, then a title's own kinds under theirs
  $("privates").replaceChildren(...companyGroups().flatMap((group) => {
    const rows = state.companies.filter((c) => c.group === group).map((c) => el("tr", { class: c.closed ? "closed" : "", "data-company": c.sym },
      cell(c.sym), cell(c.name), cell(money(c.value), { class: "num" }), cell(money(c.revenue), { class: "num" }),
      cell(c.closed ? "closed" : c.owner || "—"), cell(c.ability, { class: "ability" })));
    const listed = table(["", group === "privates" ? "private" : "name", "value", "revenue", "owner", "what it does"], rows);
    listed.dataset.group = group;
    return group === "privates" ? [listed] : [el("h3", {}, group), listed];
  }));
}

// ------------------------------------------------------------------ the spreadsheet
/** The latest operating round (the current one, or the last played), if any. */
function latestOperatingRound() {
  const rounds = state.operating_rounds;
  return rounds.length ? rounds[rounds.length - 1] : null;
}

/** A price move as a player reads it: "▲8", "▼10", "0" ("" when unknown). */
function moveText(delta) {
  if (delta === null || delta === undefined) return "";
  return delta > 0 ? `▲${delta}` : delta < 0 ? `▼${-delta}` : "0";
}

const OR_STATUS = { done: "done", operating: "now", "to come": "to come" };

function renderSheet(colors) {
  const started = state.corporations.filter((c) => c.parred || c.floated);
  const latest = latestOperatingRound();
  // players: cash, certificates against the limit, shares of each started corporation,
  // privates, worth; then the shares left in the IPO and the pool
  const shareCols = started.map((c) => el("th", { class: "num", title: c.name }, chip(c.sym, colors)));
  const playerRows = state.players.map((p) => {
    const over = p.certificate_limit !== null && p.certificates > p.certificate_limit;
    return el("tr", { "data-player": p.name, class: p.name === state.acting_player ? "acting" : "" },
      cell(p.name === state.priority ? "P" : "", { title: "priority deal" }),
      cell(playerLabel(p.name) + (p.bankrupt ? " (out)" : ""), { class: "name" }),
      cell(money(p.cash), { class: "num cash" }),
      cell(p.certificate_limit === null ? `${p.certificates}` : `${p.certificates}/${p.certificate_limit}`,
        { class: `num certs${over ? " over" : ""}`, title: "certificates held / the limit" }),
      ...started.map((c) => {
        const pct = p.shares[c.sym] || 0;
        const president = c.president === p.name;
        return cell(pct ? `${pct}%` : "", { class: `num share${president ? " president" : ""}`, "data-corp": c.sym, title: president ? `${p.name} is ${c.sym}'s president` : null });
      }),
      ...companyGroups().map((group) => cell(inGroup(p.companies, group).join(", "), { class: group === "privates" ? "privates" : "company-group", "data-group": group })),
      cell(money(p.worth), { class: "num worth", title: "what the player would score now" }));
  });
  const holders = [["IPO", "treasury"], ["Pool", "pool"]].map(([label, key]) => el("tr", { class: "holder", "data-holder": key },
    cell(""), cell(label), cell(""), cell(""),
    ...started.map((c) => cell(c[key] ? `${c[key]}%` : "", { class: "num share", "data-corp": c.sym })),
    ...companyGroups().map(() => cell("")), cell("")));
  const players = table(["", "player", "cash", "certs", ...started.map(() => ""), ...companyGroups(), "worth"], [...playerRows, ...holders]);
  players.querySelectorAll("thead th").forEach((th, i) => {
    if (i >= 4 && i < 4 + started.length) th.replaceWith(shareCols[i - 4]);
  });
  players.id = "sheet-players";
  // corporations: president, price and its move in the latest OR, treasury, trains, tokens,
  // whether it has operated in this OR, the revenue of every OR so far (the latest first)
  const newestFirst = [...state.operating_rounds].reverse();
  const inOr = state.round.kind === "operating" && !state.finished;
  const corpRows = started.map((c) => {
    const before = latest && latest.prices_before[c.sym];
    const after = latest && latest.prices[c.sym];
    const move = before !== undefined && before !== null && after !== undefined && after !== null ? after - before : null;
    return el("tr", { "data-corp": c.sym, class: `${c.closed ? "closed" : ""}${c.or_status === "operating" ? " acting" : ""}` },
      el("td", { title: c.name }, chip(c.sym, colors)),
      cell(c.president || "", { class: "president" }),
      cell(c.par_price || "", { class: "num par" }),
      cell(c.price === null ? "" : c.price, { class: "num price" }),
      cell(moveText(move), { class: `num move${move > 0 ? " up" : move < 0 ? " down" : ""}`, "data-move": move === null ? "" : move }),
      cell(money(c.cash), { class: "num treasury" }),
      cell(c.train_names.join(" "), { class: "trains" }),
      cell(`${c.placed.length}/${c.tokens}`, { class: "num tokens" }),
      cell(inOr ? OR_STATUS[c.or_status] || "" : "", { class: "or-status" }),
      ...newestFirst.map((r) => cell(r.revenue[c.sym] === undefined ? "" : r.revenue[c.sym], { class: `num revenue${r.done ? "" : " current"}`, "data-or": r.number })));
  });
  const moveHead = latest ? `move OR ${latest.name}` : "move";
  const corps = table(["", "president", "par", "price", moveHead, "treasury", "trains", "tokens", "this OR",
    ...newestFirst.map((r) => `OR ${r.name}${r.done ? "" : " (now)"}`)], corpRows);
  corps.id = "sheet-corporations";
  const waiting = state.to_start;
  const ordered = Array.isArray(state.extra.order);
  $("sheet").replaceChildren(
    el("div", { class: "scroll" }, players),
    el("div", { class: "scroll" }, corps),
    el("p", { id: "to-start", class: "note" }, waiting.length
      ? `${ordered ? "Still to start, in this order" : "Not started yet"}: ${waiting.join(", ")}`
      : "Every corporation has started."));
}

/** The title's own facts as the server words them (`state.tables`: who holds which 1883
 * concession, 1854's mail contracts...), one table each, with the note that says what follows. */
function renderTitleTables() {
  const shown = (state.tables || []).filter((t) => t.rows.length);
  $("title-tables").replaceChildren(...shown.map((t) => el("div", { class: "title-table scroll", "data-table": t.key },
    el("h3", {}, t.title),
    table(t.head, t.rows.map((row) => el("tr", {}, ...row.map((v) => cell(v))))),
    t.note ? el("p", { class: "note" }, t.note) : "")));
}

/** An amount of money in the title's currency, as its players write it ("L.100", "100 G"). */
function money(value) {
  if (value === null || value === undefined) return "";
  const c = state && state.currency ? state.currency : { before: "", after: "" };
  return `${c.before}${value}${c.after}`;
}

/** A hex by its town's name ("Palermo"), with its coordinate if asked ("Palermo (C1)"). */
function townOf(coord, withCoord = false) {
  const h = board.hexes.find((x) => x.coord === coord);
  const name = h && h.name ? h.name : "";
  if (!name) return coord;
  return withCoord ? `${name} (${coord})` : name;
}

/** A run's stops ("C1-0") by their towns' names. */
function stopsText(stops) {
  return stops.map((s) => townOf(s.slice(0, s.lastIndexOf("-")))).join(" – ");
}

/** A train by its name ("4H"), from the corporations' trains in the state. */
/** Who holds train `tid`: a corporation's symbol, else "bank" (the depot or the pool). */
function trainOwner(tid) {
  const c = state.corporations.find((corp) => corp.trains.includes(tid));
  return c ? c.sym : "bank";
}

/** The face value of what a purchase buys: a private's value, a train type's price. */
function faceValue(a) {
  if (a.company) return (state.companies.find((c) => c.sym === a.company) || {}).value ?? null;
  const name = trainName(a.train);
  const kind = (state.depot.find((t) => t.kind === name || t.name === name || t.variants.includes(name)) || {});
  return kind.price ?? null;
}

/** A train's name: as its corporation's row names it, else its type's (a train for sale). */
function trainName(tid) {
  for (const c of state.corporations) {
    const i = c.trains.indexOf(tid);
    if (i >= 0) return c.train_names[i];
  }
  const sale = state.trains_for_sale.find((t) => t.id === tid);
  const kind = sale ? state.depot.find((t) => t.kind === sale.kind) : null;
  return kind ? kind.name : tid;
}

/** The auction as every seat sees it: each private's bids, the leader, committed cash. */
function auctionPanel() {
  const r = state.round;
  if (!r || !r.bids || !r.unsold) return null;
  const rows = [];
  const committed = {};
  for (const company of r.unsold) {
    const bids = Object.entries(r.bids[company] || {}).sort((a, b) => b[1] - a[1]);
    for (const [player, price] of bids) committed[player] = (committed[player] || 0) + price;
    const info = state.companies.find((c) => c.sym === company);
    const lead = bids.length ? `${bids[0][0]} leads with ${money(bids[0][1])}` : "no bids";
    const others = bids.slice(1).map(([p, v]) => `${p} ${money(v)}`).join(", ");
    rows.push(el("tr", { "data-company": company, class: r.auctioning === company ? "acting" : "" },
      el("td", { title: info ? info.ability : "" }, el("b", {}, company), info ? el("div", { class: "ability" }, `${info.name}: ${info.ability}`) : null),
      cell(info ? money(info.value) : "", { class: "num" }),
      cell(lead + (others ? `; ${others}` : ""), { class: "bids" })));
  }
  const cash = Object.entries(committed).map(([p, v]) => `${p} ${money(v)}`).join(", ");
  return el("div", { id: "auction", class: "auction-panel" },
    el("p", { class: "offer-head" }, r.auctioning ? `Auction of ${r.auctioning}` : "Private auction"),
    table(["private", "price", "bids"], rows),
    el("p", { class: "note" }, cash ? `Committed in bids: ${cash}` : "No cash committed in bids."));
}

// ------------------------------------------------------------------ the whole log
/** What each undo and redo of the log takes back or brings again: {entry index: entry index}. */
function takeBackTargets(entries) {
  const inForce = [];
  const undone = [];
  const targets = {};
  for (const e of entries) {
    if (e.entry.type === "undo") {
      const k = inForce.pop();
      undone.push(k);
      targets[e.index] = k;
    } else if (e.entry.type === "redo") {
      const k = undone.pop();
      inForce.push(k);
      targets[e.index] = k;
    } else {
      inForce.push(e.index);
      undone.length = 0;
    }
  }
  return targets;
}

function logPages() {
  return Math.max(1, Math.ceil(gameLog.entries.length / LOG_PAGE));
}

/** The first entry of log page `page`: pages of LOG_PAGE entries are counted back from the
 * newest, so the page being played is always full and the first page holds what is left. */
function pageStart(page) {
  return Math.max(0, gameLog.entries.length - (logPages() - page) * LOG_PAGE);
}

function shownLogPage() {
  if (viewAt !== null && gameLog.page === null) {
    const total = gameLog.entries.length;
    return Math.max(0, logPages() - 1 - Math.floor((total - Math.max(viewAt, 1)) / LOG_PAGE));
  }
  return gameLog.page === null ? logPages() - 1 : Math.min(gameLog.page, logPages() - 1);
}

function atLink(position, ...children) {
  return el("a", { href: `?at=${position}`, class: "at-link", "data-at": position,
    onclick: (event) => { event.preventDefault(); goTo(position); } }, ...children);
}

/** A log entry (the server's facts of it: `lines`, the event lines to show, the first
 * `own` of them written by its action; `said`, its action in words): headed by the first
 * line its action wrote, else by its words; the lines that followed below. */
function logEntry(e, target) {
  const a = e.entry;
  const n = e.index + 1;
  let head;
  let lines = e.lines;
  if (a.type === "undo" || a.type === "redo") {
    head = `${a.entity} ${a.type === "undo" ? "undoes" : "redoes"} entry ${target + 1}`;
    if (a.type === "undo") lines = [];
  } else if (e.own) {
    head = lines[0];
    lines = lines.slice(1);
  } else {
    head = `${a.entity}: ${e.said}`;
  }
  if (e.order) head = `${head} (standing order)`;
  const current = viewAt === null ? n === gameLog.entries.length : n === viewAt;
  const item = el("li", { value: n, class: `entry entry-${a.type}${current ? " current" : ""}`, "data-entry": e.index },
    atLink(n, el("span", { class: "entry-head" }, head)));
  if (lines.length) item.append(el("ul", { class: "entry-lines" }, ...lines.map((line) => el("li", {}, line))));
  return item;
}

function renderLog() {
  const list = $("log");
  const pages = logPages();
  const page = shownLogPage();
  const from = pageStart(page);
  const entries = gameLog.entries.slice(from, page === pages - 1 ? gameLog.entries.length : pageStart(page + 1));
  const targets = takeBackTargets(gameLog.entries);
  const items = [];
  const heading = (text) => el("li", { class: "round-heading" }, text);
  if (page === 0) {
    items.push(heading("Start"));
    items.push(el("li", { value: 0, class: `entry entry-start${viewAt === 0 ? " current" : ""}`, "data-entry": -1 },
      atLink(0, el("span", { class: "entry-head" }, "The game is set up")),
      gameLog.start.length ? el("ul", { class: "entry-lines" }, ...gameLog.start.map((line) => el("li", {}, line))) : null));
    items.push(...noteItems(0));
    items.push(...chatItems(0));
  }
  // the rounds' headings, as the server marks them: after the entry that began each round
  // (one entry may begin several, where nothing could be done in the first), and atop a
  // page or after a take-back, wherever the round's number is not the one last headed
  let round = null;
  for (const e of entries) {
    if (e.round_number !== round) items.push(heading(e.round));
    items.push(logEntry(e, targets[e.index]));
    items.push(...e.headings.map(heading));
    round = e.round_number + e.headings.length;
    items.push(...noteItems(e.index + 1));
    items.push(...chatItems(e.index + 1));
  }
  list.replaceChildren(...items);
  const total = gameLog.entries.length;
  const turn = (p) => () => { gameLog.page = p >= pages - 1 ? null : p; renderLog(); };
  $("log-pager").replaceChildren(
    el("button", { class: "log-first", onclick: turn(0), disabled: page === 0, "aria-label": "the first page of the log" }, "«"),
    el("button", { class: "log-back", onclick: turn(page - 1), disabled: page === 0, "aria-label": "the page before" }, "‹"),
    el("span", { class: "log-range" }, total ? `${from + 1}–${from + entries.length} of ${total}` : "no entries yet"),
    el("button", { class: "log-next", onclick: turn(page + 1), disabled: page >= pages - 1, "aria-label": "the page after" }, "›"),
    el("button", { class: "log-last", onclick: turn(pages - 1), disabled: page >= pages - 1, "aria-label": "the last page of the log" }, "»"));
  list.dataset.page = String(page);
  // the entry shown is scrolled to when it changes (not while someone reads the page)
  const key = `${viewAt}:${total}:${page}`;
  const mark = list.querySelector(".entry.current");
  if (mark && key !== gameLog.scrolledFor && (viewAt !== null || gameLog.page === null)) {
    list.scrollTop = mark.offsetTop - list.clientHeight / 2;
  }
  gameLog.scrolledFor = key;
}

/** Fetch the log entries this table has not got yet. */
async function syncLog() {
  const data = await api(`/api/games/${encodeURIComponent(gameId)}/log?since=${gameLog.entries.length}`);
  gameLog.start = data.start_events;
  for (const e of data.entries) if (e.index === gameLog.entries.length) gameLog.entries.push(e);
}

/** New entries from the websocket (`index`: the log's length after them). */
async function addLogEntries(index, entries) {
  if (index - entries.length > gameLog.entries.length) {
    await syncLog();
    return;
  }
  for (const e of entries) if (e.index === gameLog.entries.length) gameLog.entries.push(e);
}

function renderStatus() {
  const r = present.round;
  $("status").textContent = `${present.title} · ${r.label} · phase ${present.phase} · entry ${present.index}`;
  $("status").dataset.index = String(present.index);
  const tb = $("takebacks");
  tb.replaceChildren();
  if (viewAt === null && state.undo && seats[state.undo]) tb.append(el("button", { id: "undo", onclick: () => takeBack("undo") }, "Undo"));
  // an action that revealed hidden information (a card drawn, a die cast) cannot be undone: say so
  const gone = state.undo_gone;
  if (viewAt === null && gone && seats[gone.player]) tb.append(el("span", { id: "undo-gone", class: "note" }, `No undo: ${gone.why}.`));
  if (viewAt === null && state.redo && seats[state.redo]) tb.append(el("button", { id: "redo", onclick: () => takeBack("redo") }, "Redo"));
  renderTimeline();
}

// ------------------------------------------------------------------ the past
function renderTimeline() {
  const total = present.index;
  const at = viewAt === null ? total : viewAt;
  $("at-first").disabled = at === 0;
  $("at-back").disabled = at === 0;
  $("at-next").disabled = viewAt === null;
  $("at-last").disabled = viewAt === null;
  const input = $("at-input");
  input.max = String(total);
  if (document.activeElement !== input) input.value = String(at);
  $("at-total").textContent = `of ${total}`;
  const banner = $("past-banner");
  banner.hidden = viewAt === null;
  document.body.classList.toggle("past", viewAt !== null);
  document.body.dataset.at = viewAt === null ? "" : String(viewAt);
  if (viewAt !== null) {
    const where = viewAt === 0 ? "the start of the game" : `the position after entry ${viewAt} of ${total}`;
    const yours = !present.finished && seats[present.acting_player] ? ` It is ${present.acting_player}'s turn now.` : "";
    $("past-text").textContent = `Looking at the past: ${where} (${state.round.label}). Acting is off.${yours}`;
  }
}

/** Show the position after `position` log entries (the present at or beyond the end). */
async function goTo(position) {
  const target = Math.max(0, Math.floor(Number(position)));
  if (!present || Number.isNaN(target)) return;
  if (target >= present.index) {
    toPresent();
    return;
  }
  const asked = ++pastAsked;
  pastWanted = target;
  try {
    const past = await api(`/api/games/${encodeURIComponent(gameId)}?at=${target}`);
    if (asked !== pastAsked) return;
    pastWanted = null;
    setMessage("");
    viewAt = target;
    gameLog.page = null;
    state = past;
    ui = freshUi();
    legal = { index: -1, actions: [] };
    history.replaceState(null, "", `${location.pathname}?at=${target}`);
    render();
  } catch (err) {
    if (asked === pastAsked) pastWanted = null;
    setMessage(err.message, true);
  }
}

/** Back to the present position, where the seats act. */
async function toPresent() {
  pastAsked += 1;
  pastWanted = null;
  if (viewAt === null) return;
  viewAt = null;
  gameLog.page = null;
  history.replaceState(null, "", location.pathname);
  state = present;
  ui = freshUi();
  await loadLegal();
  render();
}

function setupTimeline() {
  // the position last asked for: quick clicks step on from it, not from the one shown
  const at = () => pastWanted ?? (viewAt === null ? present.index : viewAt);
  $("at-first").addEventListener("click", () => goTo(0));
  $("at-back").addEventListener("click", () => goTo(at() - 1));
  $("at-next").addEventListener("click", () => goTo(at() + 1));
  $("at-last").addEventListener("click", () => toPresent());
  $("to-present").addEventListener("click", () => toPresent());
  $("at-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("at-input").blur();
    goTo($("at-input").value);
  });
}

async function renderGameOver() {
  const box = $("gameover");
  if (!state.finished) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (historyShown === state.index) return;
  historyShown = state.index;
  const scores = Object.entries(state.scores).sort((a, b) => b[1] - a[1]);
  const list = el("ol", { id: "scores" }, ...scores.map(([name, score]) => el("li", {}, `${name}: ${money(score)}`)));
  box.replaceChildren(el("h2", {}, `Game over: ${state.end_words || state.end_reason}`), list,
    el("p", {}, el("a", { id: "review-link", href: `/games/${encodeURIComponent(gameId)}/review` }, "Review the game: where the search would have chosen otherwise")));
  box.append(await chartsOfHistory());
}

/** The share prices, the players' worth and the revenues, one point per operating round
 * played (`/history`): at the game's end and, while it is played, in the Charts box. */
async function chartsOfHistory() {
  const hist = await api(`/api/games/${encodeURIComponent(gameId)}/history`);
  const labels = hist.points.map((p) => p.label);
  const prices = {};
  for (const corp of hist.corporations) {
    const values = hist.points.map((p) => (corp in p.prices ? p.prices[corp] : null));
    if (values.some((v) => v !== null)) prices[corp] = values;
  }
  const worth = {};
  const playerColors = {};
  hist.players.forEach((name, i) => {
    worth[name] = hist.points.map((p) => p.worth[name]);
    playerColors[name] = paletteColor(i);
  });
  const revenue = {};
  for (const corp of hist.corporations) {
    const values = hist.points.map((p) => (corp in p.revenue ? p.revenue[corp] : null));
    if (values.some((v) => v !== null)) revenue[corp] = values;
  }
  return el("div", { class: "charts" },
    lineChart("Share prices", labels, prices, corpColors(board, state)),
    lineChart("Player worth", labels, worth, playerColors),
    lineChart("Revenue per OR", labels, revenue, corpColors(board, state)));
}

/** The charts while the game is played, drawn when the box is open and again after each
 * operating round (the game-over box has them once the game ends). */
let liveChartsFor = null;
async function renderLiveCharts() {
  const area = $("charts-area");
  area.hidden = state.finished || viewAt !== null;
  const played = state.operating_rounds.filter((r) => r.done).length;
  if (area.hidden || !area.open || liveChartsFor === played) return;
  liveChartsFor = played;
  $("live-charts").replaceChildren(played ? await chartsOfHistory() : el("p", { class: "note" }, "The charts begin after the first operating round."));
}

/** The runs the operating corporation has just made (its latest log entry, with no undo or
 * redo since), so that they stay on the map while it decides on the dividend; null else. */
function runJustMade() {
  if (viewAt !== null || !state.round || state.round.kind !== "operating") return null;
  for (let i = gameLog.entries.length - 1; i >= 0; i--) {
    const { entry } = gameLog.entries[i];
    if (entry.type === "undo" || entry.type === "redo" || entry.entity !== state.active_entity) return null;
    if (entry.type === "run_routes") return entry.runs.map(({ train, stops, track }) => ({ train, stops, track }));
  }
  return null;
}

function render() {
  const colors = corpColors(board, state);
  const reserved = {};
  for (const [corp, keys] of Object.entries(state.map.reservations)) {
    for (const [hex, node] of keys) reserved[`${hex}:${node}`] = corp;
  }
  const lays = byHex(legal.actions.filter((a) => a.type === "lay_tile"));
  const tokenSlots = {};
  for (const a of legal.actions.filter((x) => x.type === "place_token")) tokenSlots[`${a.hex}:${a.city}`] = () => post(a);
  const chosen = selectedLay(lays);
  const runAction = legal.actions.find((a) => a.type === "run_routes");
  const view = { colors, reserved };
  const hinted = hintOnMap();
  const mapUi = {
    lays,
    tokenSlots,
    preview: chosen ? { hex: chosen.hex, tile: chosen.tile, rotation: chosen.rotation } : (hinted && hinted.preview) || null,
    runs: hinted && hinted.runs ? hinted.runs : runAction ? chosenRuns(runAction) : runJustMade(),
    hint: hinted && hinted.mark ? hinted.mark : null,
  };
  drawBoard($("board"), board, state, view, mapUi, onHex);
  showTunnel($("board"), board, ui.tunnel);
  offscreenHint();
  drawMarket($("market"), board.market, state, colors);
  renderStatus();
  renderActions(lays);
  renderPlayers();
  renderCorporations(colors);
  renderSheet(colors);
  renderTitleTables();
  renderLiveCharts().catch((err) => setMessage(err.message, true));
  renderDepot();
  renderPrivates();
  renderLog();
  renderGameOver().catch((err) => setMessage(err.message, true));
}

/** A new present from the server: drawn at once, unless the past is being looked at (then
 * only the header and the log follow it). */
async function show(fresh) {
  const changed = !present || fresh.index !== present.index;
  present = fresh;
  if (viewAt !== null) {
    renderStatus();
    renderLog();
    return;
  }
  state = fresh;
  if (changed) {
    ui = freshUi();
    hintShown = null;
    await loadLegal();
  }
  render();
}

// ------------------------------------------------------------------ start
function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(`${scheme}${location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
  let queue = Promise.resolve();
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    queue = queue.then(async () => {
      if (message.type === "note") {
        addNotes([message.note]);
        renderLog();
        return;
      }
      if (message.type === "log") await addLogEntries(message.index, message.entries);
      else await syncLog();
      if (!present || message.state.index >= present.index) await show(message.state);
      else renderLog();
      // the table is drawn from the live state (the first message redraws what the page
      // loaded): what a test waits for before it clicks
      document.body.dataset.synced = "1";
    }).catch((err) => setMessage(err.message, true));
  };
  ws.onopen = () => {
    const lost = document.body.dataset.live === "0";
    setConnection(true);
    // back after a loss: whatever happened meanwhile is read again, and the errors of the
    // lost connection go
    if (lost) resync().catch((err) => setMessage(err.message, true));
  };
  ws.onclose = () => {
    setConnection(false);
    setTimeout(connect, 1500);
  };
}

/** Show whether the live connection is up ("Connection lost: reconnecting…" while not). */
function setConnection(live) {
  document.body.dataset.live = live ? "1" : "0";
  $("connection").hidden = live;
}

/** After a reconnection: the log, the state and the legal actions as the server has them. */
async function resync() {
  setMessage("");
  await syncLog();
  addNotes((await api(`/api/games/${encodeURIComponent(gameId)}/hints`)).notes);
  const fresh = await api(`/api/games/${encodeURIComponent(gameId)}`);
  present = null;
  await show(fresh);
}

async function adoptSeatFromLink() {
  const match = location.hash.match(/seat=([^&]+)/);
  if (!match) return;
  const token = decodeURIComponent(match[1]);
  try {
    const { player } = await api(`/api/games/${encodeURIComponent(gameId)}/seat`, { token });
    seats[player] = token;
    saveSeats(gameId, seats);
    document.dispatchEvent(new CustomEvent("tresham:seats", { detail: player })); // orders.js
  } catch (err) {
    setMessage(err.message, true);
  }
  history.replaceState(null, "", location.pathname + location.search);
}

async function setupZoom() {
  // Pan and zoom of the board by its viewBox (panzoom.js): wheel, drag, pinch, the buttons;
  // it starts fitted to its area, and the "fit" button returns there.
  const { panZoom } = await import("./panzoom.js");
  let fit = $("zoom-fit");
  if (!fit) {
    fit = el("button", { id: "zoom-fit", "aria-label": "fit the board", title: "fit the whole board" }, "fit");
    $("zoom-in").after(fit);
  }
  zoom = panZoom($("board"), { zoomIn: $("zoom-in"), zoomOut: $("zoom-out"), fit });
  $("offscreen-show").addEventListener("click", () => zoom.fit());
  new MutationObserver(() => {
    offscreenHint();
    if (board) fitNames($("board"), board);
  }).observe($("board"), { attributes: true, attributeFilter: ["viewBox"] });
}

/** After a zoom or a pan, say how many of the hexes the seat may lay on are out of view, with
 * a button that shows the whole board again (nothing when they are all in view). */
function offscreenHint() {
  const hint = $("offscreen-hint");
  const view = ($("board").getAttribute("viewBox") || "").split(/\s+/).map(Number);
  const legalHexes = [...document.querySelectorAll("#board g.hex.legal-hex")];
  const out = view.length === 4 ? legalHexes.filter((g) => {
    const m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(g.getAttribute("transform") || "");
    if (!m) return false;
    const [x, y] = [Number(m[1]), Number(m[2])];
    return x < view[0] || y < view[1] || x > view[0] + view[2] || y > view[1] + view[3];
  }).length : 0;
  hint.hidden = out === 0;
  hint.querySelector("span").textContent = out === 0 ? "" : `${out} of the ${legalHexes.length} hexes you may lay on ${out === 1 ? "is" : "are"} out of view.`;
}

async function main() {
  await setupZoom();
  await adoptSeatFromLink();
  board = await api(`/api/games/${encodeURIComponent(gameId)}/board`);
  document.body.classList.add(`layout-${board.layout}`);
  $("tiles-link").href = `/games/${encodeURIComponent(gameId)}/tiles`;
  const held = Object.keys(seats);
  $("seats").textContent = held.length ? `Your seats: ${held.join(", ")}` : "Watching (no seat)";
  setupTimeline();
  $("charts-area").addEventListener("toggle", () => renderLiveCharts().catch((err) => setMessage(err.message, true)));
  await syncLog();
  const [seating, notes] = await Promise.all([
    api(`/api/games/${encodeURIComponent(gameId)}/seating`),
    api(`/api/games/${encodeURIComponent(gameId)}/hints`),
  ]);
  hintsAllowed = Boolean(seating.hints);
  addNotes(notes.notes);
  await refresh();
  const asked = new URLSearchParams(location.search).get("at");
  if (asked !== null && /^[0-9]+$/.test(asked)) await goTo(Number(asked));
  connect();
}

main().catch((err) => setMessage(err.message, true));
