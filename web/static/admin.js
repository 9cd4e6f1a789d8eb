// The operator's view: every action goes to the companion's JSON API with the page's CSRF token.
"use strict";
const TEXTS = JSON.parse(document.getElementById("texts").textContent);

function t(text) { return TEXTS[text] || text; }

async function send(path, body, done) {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": token }, body: JSON.stringify(body || {}) });
  const data = await response.json();
  document.getElementById("message").textContent = response.ok ? done : data.error;
  return response.ok;
}

function on(id, action) {
  const element = document.getElementById(id);
  if (element) element.addEventListener(element.tagName === "FORM" ? "submit" : "click", (event) => { event.preventDefault(); action(); });
}

on("login", async () => { if (await send("/admin/login", { pin: document.getElementById("pin").value }, "")) location.reload(); });
on("logout", async () => { await send("/admin/logout", {}, ""); location.reload(); });
on("new-game", () => send("/api/new-game", { variant: document.getElementById("variant").value,
  dark_player: document.getElementById("dark-player").value, light_player: document.getElementById("light-player").value },
  t("A new game is set up: put the pieces on their starting squares.")));
on("undo", () => send("/api/undo", {}, t("The last move is taken back: put the board back as it was.")));
on("position", () => {
  const value = (id) => { const field = document.getElementById(id); return field ? field.value : ""; };  // per game: throw, or part and dice
  const body = { board: document.getElementById("board").value.toUpperCase(), turn: document.getElementById("turn").value,
    throw: value("position-throw") ? Number(value("position-throw")) : null };
  if (value("position-stage")) body.stage = value("position-stage");
  if (value("position-dice")) body.dice = value("position-dice").split("+").map(Number);
  send("/api/position", body, t("The position is set."));
});
on("settings", () => send("/api/settings", { teaching: document.getElementById("teaching").checked,
  idle_reset_minutes: Number(document.getElementById("idle").value), settle_seconds: Number(document.getElementById("settle").value) },
  t("The settings are saved.")));
