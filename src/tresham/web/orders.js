// The table's standing orders: for each seat this browser holds, what the server should do in
// its name while its person is away (tresham/orders.py): pass whenever Pass is the only choice,
// pass on the end-of-turn private step, pass for the rest of this stock round, buy a share of a
// corporation at each stock-round turn until a holding is reached. They are read and set with
// the seat's token (only that seat sees them); the server runs them as the seat's own actions
// and the log marks those "(standing order)". The panel follows the game on its own socket.

import { api, el, loadSeats } from "./common.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2]);
const path = `/api/games/${encodeURIComponent(gameId)}`;
const $ = (id) => document.getElementById(id);
const seats = () => loadSeats(gameId); // read each time: the table adopts seats from links
let state = null; // the public state, as the game's socket last sent it
let shown = null; // {player, orders, ended} of the seat the panel shows
let loading = 0;

function buildPanel() {
  const box = el("details", { id: "orders-box", hidden: true },
    el("summary", { id: "orders-title" }, "Standing orders"),
    el("p", { class: "orders-help" }, "What the table does for you while you are away, as your own moves (the log marks them)."),
    el("label", { id: "orders-as-label", hidden: true }, "for ", el("select", { id: "orders-as", "aria-label": "standing orders of" })),
    el("label", { class: "orders-toggle" }, el("input", { type: "checkbox", id: "order-auto-pass" }),
      " Pass whenever Pass is my only choice"),
    el("label", { class: "orders-toggle" }, el("input", { type: "checkbox", id: "order-pass-privates" }),
      " Pass when my only choice is to buy a private"),
    el("label", { class: "orders-toggle" }, el("input", { type: "checkbox", id: "order-pass-round" }),
      el("span", { id: "order-pass-round-words" }, " Pass for the rest of this stock round")),
    el("form", { id: "order-buy-form" },
      "Buy a share of ", el("select", { id: "order-buy-corp", "aria-label": "corporation to buy" }),
      " each stock-round turn until I hold ",
      el("input", { id: "order-buy-percent", type: "number", min: 10, max: 100, step: 10, value: 60, "aria-label": "percent to hold" }),
      "% ", el("button", { type: "submit", id: "order-buy-add" }, "Add")),
    el("ul", { id: "orders-list" }),
    el("p", { id: "orders-note", role: "status" }));
  const actions = $("actions");
  if (actions) actions.after(box);
  else document.body.append(box);
  $("orders-as").addEventListener("change", load);
  for (const kind of ["auto-pass", "pass-privates", "pass-round"]) {
    $(`order-${kind}`).addEventListener("change", (event) => toggle(kind, event.target.checked));
  }
  $("order-buy-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const corporation = $("order-buy-corp").value;
    const percent = Number($("order-buy-percent").value);
    save([...current().filter((o) => !(o.kind === "buy-until" && o.corporation === corporation)),
      { kind: "buy-until", corporation, percent }]);
  });
}

/** The seat the panel shows: the one picked, else the only one held. */
function holder() {
  const held = Object.keys(seats());
  return held.includes($("orders-as").value) ? $("orders-as").value : held[0] || null;
}

/** The orders shown, in the form the server takes back. */
function current() {
  return (shown ? shown.orders : []).map(({ words, ...order }) => order);
}

function note(text, error = false) {
  $("orders-note").textContent = text;
  $("orders-note").className = error ? "error" : "";
}

async function toggle(kind, on) {
  const kept = current().filter((o) => o.kind !== kind);
  await save(on ? [...kept, { kind }] : kept);
}

async function load() {
  const player = holder();
  if (!player) return;
  const ticket = ++loading;
  try {
    const answer = await api(`${path}/seat/orders`, { token: seats()[player] });
    if (ticket === loading) render(answer);
  } catch (err) {
    note(err.message, true);
  }
}

async function save(orders) {
  const player = holder();
  if (!player) return;
  ++loading;
  try {
    render(await api(`${path}/seat/orders`, { method: "PUT", body: { orders }, token: seats()[player] }));
    note("");
  } catch (err) {
    note(err.message, true);
    await load();
  }
}

function render(answer) {
  shown = answer;
  const kinds = new Set(answer.orders.map((o) => o.kind));
  for (const kind of ["auto-pass", "pass-privates", "pass-round"]) $(`order-${kind}`).checked = kinds.has(kind);
  const count = answer.orders.length;
  $("orders-title").textContent = `Standing orders of ${answer.player}${count ? ` (${count} on)` : ""}`;
  const ended = answer.ended.slice(-3).reverse().map((e) =>
    el("li", { class: "order-ended" }, `Ended: ${e.order} (${e.why})`));
  $("orders-list").replaceChildren(
    ...answer.orders.map((o) => el("li", { class: "order-on", "data-kind": o.kind }, o.words, " ",
      el("button", { type: "button", class: "order-cancel", onclick: () => save(current().filter((c) =>
        !(c.kind === o.kind && c.corporation === o.corporation))) }, "Cancel"))),
    ...ended);
}

/** What the state allows: pass-round only in a stock round; the corporations to buy. */
function showForm() {
  const held = Object.keys(seats());
  const box = $("orders-box");
  box.hidden = held.length === 0 || Boolean(state && state.finished);
  if (box.hidden) return;
  $("orders-as-label").hidden = held.length < 2;
  const picked = $("orders-as").value;
  $("orders-as").replaceChildren(...held.map((p) => el("option", { value: p }, p)));
  if (held.includes(picked)) $("orders-as").value = picked;
  if (!state) return;
  const stock = state.round && state.round.kind === "stock";
  $("order-pass-round").disabled = !stock && !$("order-pass-round").checked;
  $("order-pass-round-words").textContent = stock
    ? ` Pass for the rest of stock round ${state.round.stock_round}`
    : " Pass for the rest of a stock round (in a stock round)";
  const corps = state.corporations.filter((c) => !c.closed);
  const chosen = $("order-buy-corp").value;
  $("order-buy-corp").replaceChildren(...corps.map((c) =>
    el("option", { value: c.sym, title: c.name }, c.price ? c.sym : `${c.sym} (not started)`)));
  if (corps.some((c) => c.sym === chosen)) $("order-buy-corp").value = chosen;
}

function socket() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(`${scheme}${location.host}${path}/ws`);
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (!message.state) return;
    state = message.state;
    showForm();
    if (holder()) load(); // an order may have acted, or ended
  };
  ws.onclose = (event) => {
    if (event.code < 4000) setTimeout(socket, 1500);
  };
}

async function main() {
  buildPanel();
  showForm();
  socket();
  document.addEventListener("tresham:seats", () => { // the table adopted a seat from its link
    showForm();
    load();
  });
  if (holder()) await load();
}

main().catch((err) => { if ($("orders-note")) note(err.message, true); });
