// The page: polls the companion's state and, in simulation, moves virtual pieces.
"use strict";
let picked = null;
let last = null;

async function post(path, body) {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": token }, body: JSON.stringify(body || {}) });
  const data = await response.json();
  if (!response.ok) { document.getElementById("status").textContent = data.error; return; }
  show(data);
}

function show(state) {
  last = state;
  document.getElementById("variant").textContent = state.variant + (state.simulated ? " (simulation)" : "");
  document.getElementById("rules-link").href = "/rules/" + state.variant;
  const leds = state.leds;
  for (const name of ["green", "red", "amber"]) document.getElementById("led-" + name).classList.toggle("on", leds[name]);
  const turn = document.getElementById("led-turn");
  turn.className = "led turn" + (leds.turn ? " on " + leds.turn : "");
  turn.textContent = leds.turn ? leds.turn + " to play" : "start: throw for a 1";
  const legal = state.teaching ? ": " + (state.moves.map(m => m.from + "-" + m.to).join(", ") || "no move") : "";
  let status = state.winner ? state.winner + " wins" : state.throw ? "throw " + state.throw + legal : "throw the sticks";
  if (state.trouble) status = "The camera cannot see the board: " + state.trouble;
  document.getElementById("status").textContent = status;
  const shown = state.virtual_board || state.board;
  for (const cell of document.querySelectorAll(".sq")) {
    const n = Number(cell.dataset.square);
    cell.dataset.piece = shown[n - 1] === "." ? "" : shown[n - 1];
    cell.classList.toggle("picked", picked === n);
    cell.classList.toggle("target", picked !== null && state.moves.some(m => m.from === picked && m.to === n));
    cell.classList.toggle("can-move", state.teaching && picked === null && state.moves.some(m => m.from === n));  // teaching: who may move
    cell.onclick = () => pick(n, shown[n - 1]);
  }
  document.getElementById("hint").textContent = state.simulated ? "Simulation: tap a piece, then the square to put it on (tap it again to take it off the board)." : "";
  const odds = document.getElementById("odds");
  odds.hidden = !state.teaching;
  odds.textContent = "Chances with fair sticks: " + Object.entries(state.odds).map(([value, chance]) => value + ": " + Math.round(chance * 100) + "%").join(", ");
  const sticks = document.getElementById("sticks");
  sticks.textContent = "";
  for (const up of leds.sticks || []) { const s = document.createElement("span"); if (up) s.className = "up"; sticks.appendChild(s); }
  const log = document.getElementById("log");
  log.textContent = "";
  for (const entry of state.log) {
    const item = document.createElement("li");
    item.className = entry.event;
    const where = entry.from ? " " + entry.from + "-" + (entry.to === 31 ? "off" : entry.to) : entry.event === "throw" ? " " + entry.throw : "";
    item.textContent = entry.event + where + (entry.message ? ": " + entry.message : "");
    for (const rule of entry.rules) {  // each broken rule links to its text on the rules page
      const link = document.createElement("a");
      link.href = "/rules/" + state.variant + "#" + rule;
      link.textContent = " " + rule;
      item.appendChild(link);
    }
    log.appendChild(item);
  }
}

function pick(n, piece) {
  if (!last || !last.simulated) return;
  if (picked === null) { if (piece !== ".") { picked = n; show(last); } return; }
  const from = picked;
  picked = null;
  post("/api/move", { from: from, to: from === n ? "off" : n });
}

document.getElementById("throw").onclick = () => post("/api/throw");
document.getElementById("pass").onclick = () => post("/api/pass");
document.getElementById("undo").onclick = () => post("/api/undo");

// Live updates: the browser reconnects by itself after a restart or a sleeping phone.
const events = new EventSource("/events");
events.onmessage = (message) => show(JSON.parse(message.data));
