// A finished game's review (server/review.py): each player's decisions where the search's
// choice would have gained most. The first visit starts the review; the page shows how far
// it is, asking again every second, then the decisions, one table per player.

import { api, el } from "./common.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2]);
const $ = (id) => document.getElementById(id);

function playerSection(player, missed) {
  const rows = missed.map((m) => el("tr", { class: "review-row" },
    el("td", {}, el("a", { href: `/games/${encodeURIComponent(gameId)}?at=${m.entry - 1}` }, `entry ${m.entry}`)),
    el("td", {}, m.round + (m.entity !== player ? ` (for ${m.entity})` : "")),
    el("td", { class: "review-chosen" }, m.chosen),
    el("td", { class: "review-best" }, m.best),
    el("td", { class: "num review-gain" }, `+${m.gain_text}`)));
  return el("section", { class: "review-player", "data-player": player },
    el("h2", {}, player),
    missed.length
      ? el("table", {}, el("thead", {}, el("tr", {}, ...["Decision", "Round", "Chosen", "The search's choice", "Gain"].map((h) => el("th", {}, h)))), el("tbody", {}, ...rows))
      : el("p", { class: "note" }, "No decision where the search's choice plays out better."));
}

async function poll() {
  let answer;
  try {
    answer = await api(`/api/games/${encodeURIComponent(gameId)}/review`);
  } catch (err) {
    $("message").textContent = err.message;
    $("message").className = "error";
    $("review-progress").hidden = true;
    return;
  }
  if (answer.status === "working") {
    $("review-bar").max = Math.max(1, answer.total);
    $("review-bar").value = answer.done;
    $("review-count").textContent = `reviewing: ${answer.done} of ${answer.total} entries`;
    setTimeout(poll, 1000);
    return;
  }
  $("review-progress").hidden = true;
  if (answer.status === "failed") {
    $("message").textContent = answer.error;
    $("message").className = "error";
    return;
  }
  const review = answer.review;
  $("status").textContent = `review: ${review.decisions} decisions`;
  $("review-players").replaceChildren(...Object.entries(review.players).map(([p, m]) => playerSection(p, m)));
}

$("table-link").href = `/games/${encodeURIComponent(gameId)}`;
poll();
