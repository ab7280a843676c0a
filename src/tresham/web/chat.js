// The table's chat and turn news: a chat panel beside the log (the seats this browser holds
// write in it, spectators too where the host allows), the page title's "(your turn)" while a
// seat held here is to act, with the user's permission a browser notification when the turn
// comes to one of them while the page is in the background, and a seat's own webhook (a
// Discord or Slack incoming webhook the server calls on that seat's turns; the server checks
// the URL, and only the seat's token reads it back). It follows the game on its own sockets
// (the game's, for whose turn it is; the chat's), so the table's code needs nothing from it.
// Chat is only ever shown as text.

import { api, el, loadSeats } from "./common.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2]);
const path = `/api/games/${encodeURIComponent(gameId)}`;
const $ = (id) => document.getElementById(id);
const drawn = new Set(); // the chat lines shown, by number
let seating = null; // the game's seating and hosting (/seating)
let baseTitle = document.title;
let wasMine = false;
let hooked = null; // the seat whose webhook the webhook form shows

const seats = () => loadSeats(gameId); // read each time: the table adopts seats from links

function socket(where, onMessage) {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(`${scheme}${location.host}${where}`);
  ws.onmessage = (event) => onMessage(JSON.parse(event.data));
  ws.onclose = (event) => {
    if (event.code < 4000) setTimeout(() => socket(where, onMessage), 1500);
  };
}

function buildPanel() {
  const box = el("section", { id: "chat-box", "aria-label": "chat" },
    el("h2", {}, "Chat"),
    el("ol", { id: "chat-lines", "aria-live": "polite" }),
    el("form", { id: "chat-form", hidden: true },
      el("select", { id: "chat-as", "aria-label": "write as" }),
      el("input", { id: "chat-name", placeholder: "your name", maxlength: 40, "aria-label": "your name" }),
      el("input", { id: "chat-text", maxlength: 500, placeholder: "say something", autocomplete: "off", "aria-label": "chat line" }),
      el("button", { type: "submit", id: "chat-send" }, "Send")),
    el("p", { id: "chat-note" }),
    el("p", {}, el("button", { type: "button", id: "notify-me", hidden: !("Notification" in window) }, "Notify me of my turns")),
    el("details", { id: "webhook-box", hidden: true },
      el("summary", { id: "webhook-title" }, "Turn webhook (Discord, Slack)"),
      el("form", { id: "webhook-form", novalidate: true },
        el("input", { id: "webhook-url", type: "url", maxlength: 2000, autocomplete: "off", spellcheck: "false",
          placeholder: "https://discord.com/api/webhooks/…", "aria-label": "webhook URL" }),
        el("button", { type: "submit", id: "webhook-save" }, "Save"),
        el("button", { type: "button", id: "webhook-clear" }, "Clear")),
      el("p", { id: "webhook-note", role: "status" })));
  const aside = document.querySelector("aside");
  if ($("log-box") && $("log-box").parentNode === aside) aside.insertBefore(box, $("log-box"));
  else (aside || document.body).append(box);
  $("chat-form").addEventListener("submit", send);
  $("chat-as").addEventListener("change", loadWebhook);
  $("webhook-box").addEventListener("toggle", loadWebhook);
  $("webhook-form").addEventListener("submit", (event) => {
    event.preventDefault();
    saveWebhook($("webhook-url").value.trim());
  });
  $("webhook-clear").addEventListener("click", () => saveWebhook(null));
  $("notify-me").addEventListener("click", async () => {
    const answer = await Notification.requestPermission();
    $("notify-me").textContent = answer === "granted" ? "Turn notifications on" : "Notifications refused by the browser";
  });
}

/** Who may write here: the seats held (a choice of them for a hotseat), or a named
 * spectator where the host allows; nobody else. */
function showForm() {
  const held = Object.keys(seats());
  const spectator = held.length === 0;
  const allowed = !spectator || Boolean(seating && seating.spectator_chat);
  $("chat-form").hidden = !allowed;
  $("chat-note").textContent = allowed ? "" : "Only the players may chat in this game.";
  $("chat-name").hidden = !spectator;
  $("chat-as").hidden = held.length < 2;
  const picked = $("chat-as").value;
  $("chat-as").replaceChildren(...held.map((p) => el("option", { value: p }, p)));
  if (held.includes(picked)) $("chat-as").value = picked;
  $("webhook-box").hidden = spectator;
  $("webhook-title").textContent = `Turn webhook of ${writer() || "your seat"} (Discord, Slack)`;
  if (writer() !== hooked) loadWebhook();
}

/** The seat this browser writes and sets a webhook for: the one picked, else its only one. */
function writer() {
  const held = Object.keys(seats());
  return held.includes($("chat-as").value) ? $("chat-as").value : held[0] || null;
}

function webhookNote(text, error = false) {
  $("webhook-note").textContent = text;
  $("webhook-note").className = error ? "error" : "";
}

/** Show the webhook of the seat written as (read with its token: only that seat sees it). */
async function loadWebhook() {
  const player = writer();
  if (!player || !$("webhook-box").open) return;
  hooked = player;
  try {
    const answer = await api(`${path}/seat/webhook`, { token: seats()[player] });
    if (hooked !== player) return;
    $("webhook-url").value = answer.webhook || "";
    webhookNote(answer.webhook ? `${player}'s turns are sent there.` : `No webhook: ${player}'s turns are sent nowhere.`);
  } catch (err) {
    webhookNote(err.message, true);
  }
}

/** Set (a URL) or clear (null) the webhook of the seat written as; the server checks it. */
async function saveWebhook(url) {
  const player = writer();
  if (!player) return;
  try {
    const answer = await api(`${path}/seat/webhook`, { method: "PUT", body: { url }, token: seats()[player] });
    hooked = player;
    $("webhook-url").value = answer.webhook || "";
    webhookNote(answer.webhook ? `Saved: ${player}'s turns are sent there.` : `Cleared: ${player}'s turns are sent nowhere.`);
  } catch (err) {
    webhookNote(err.message, true);
  }
}

function addLines(lines) {
  const list = $("chat-lines");
  for (const line of lines) {
    if (drawn.has(line.index)) continue;
    drawn.add(line.index);
    list.append(el("li", { class: line.spectator ? "chat-line spectator" : "chat-line", "data-index": line.index },
      el("span", { class: "chat-who" }, line.player + (line.spectator ? " (spectator)" : "")), " ",
      el("span", { class: "chat-text" }, line.text), " ",
      el("span", { class: "chat-at", title: "the log entry it was written at" }, `#${line.at}`)));
  }
  list.scrollTop = list.scrollHeight;
  // the table's log shows the lines too, each after the entry it was written at
  document.dispatchEvent(new CustomEvent("tresham:chat", { detail: lines }));
}

async function send(event) {
  event.preventDefault();
  const held = seats();
  const text = $("chat-text").value;
  const as = Object.keys(held).length ? ($("chat-as").value || Object.keys(held)[0]) : null;
  const body = as ? { text } : { text, name: $("chat-name").value.trim() };
  try {
    addLines([await api(`${path}/chat`, { method: "POST", body, token: as ? held[as] : undefined })]);
    $("chat-text").value = "";
    $("chat-note").textContent = "";
  } catch (err) {
    $("chat-note").textContent = err.message;
    $("chat-note").className = "error";
  }
}

/** The page title and the notification, from the state the game's socket sent. */
function onState(state) {
  baseTitle = `${state.title} ${gameId} · tresham`;
  const acting = state.acting_player;
  const mine = Boolean(!state.finished && acting && seats()[acting]);
  document.title = mine ? `(your turn) ${baseTitle}` : baseTitle;
  document.documentElement.dataset.yourTurn = mine ? acting : "";
  const away = document.hidden || !document.hasFocus();
  if (mine && !wasMine && away && "Notification" in window && Notification.permission === "granted") {
    new Notification(`Your turn: ${acting}`, { body: `${state.title} ${gameId}`, tag: `tresham-${gameId}` });
  }
  wasMine = mine;
  showForm();
}

async function main() {
  buildPanel();
  seating = await api(`${path}/seating`);
  showForm();
  socket(`${path}/chat/ws`, (message) => { if (message.type === "chat") addLines(message.lines); });
  socket(`${path}/ws`, (message) => { if (message.state) onState(message.state); });
  // the host may open the chat to spectators at any time
  setInterval(async () => { seating = await api(`${path}/seating`).catch(() => seating); showForm(); }, 5000);
}

main().catch((err) => { if ($("chat-note")) $("chat-note").textContent = err.message; });
