// The game page: shows the companion's state as it changes and, in simulation, moves virtual pieces.
"use strict";
const TEXTS = JSON.parse(document.getElementById("texts").textContent);
let picked = null;
let last = null;

// A text in the visitor's language (the server embeds the translations), {names} filled in.
function t(text, values) {
  return (TEXTS[text] || text).replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? values[name] : whole));
}

async function post(path, body) {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": token }, body: JSON.stringify(body || {}) });
  const data = await response.json();
  if (!response.ok) { document.getElementById("status").textContent = data.error; return; }
  show(data);
}

// Sentences may start with a player's name: "dark to play" -> "Dark to play".
function sentence(text) { return text.charAt(0).toLocaleUpperCase(document.documentElement.lang) + text.slice(1); }

function squareName(square) { return square === "off" || square === 31 ? t("off") : String(square); }

// The grid games (PHARAO, RAMSES): each turn moves an own piece, then one of the opponent's.
function partLine(state) {
  const player = state.words.turn, opponent = state.words.opponent;
  if (state.stage === "place") return t("{player} places a piece on an empty unmarked square", { player: player });
  if (state.needs_throw) return t("{player} to throw the dice", { player: player });
  const part = {
    own: t("{player} moves one of their own pieces", { player: player }),
    other: t("{player} moves one of {opponent}'s pieces", { player: player, opponent: opponent }),
    rescue: t("{player} moves the piece saved from the water, 3 steps", { player: player }),
  }[state.stage];
  return state.dice ? t("dice {own} and {other}", { own: state.dice[0], other: state.dice[1] }) + " · " + part : part;
}

function statusLine(state) {
  const words = state.words;
  if (words.trouble) return words.trouble;
  if (words.winner) return state.winner === "dark" ? t("dark wins") : t("light wins");
  if (state.stage) {
    const line = partLine(state);
    if (!state.teaching || !state.moves.length) return line;
    return line + " · " + t("legal moves: {moves}", { moves: state.moves.map(m => squareName(m.from) + "-" + squareName(m.to)).join(", ") });
  }
  if (!state.started) return t("Throw the sticks: whoever throws a 1 first starts.");
  if (state.throw === null) return t("{player} to throw", { player: words.turn });
  if (!state.moves.length) return t("{player} threw {throw}: no move", { player: words.turn, throw: state.throw });
  const text = t("{player} threw {throw}", { player: words.turn, throw: state.throw });
  if (!state.teaching) return text;
  return text + " · " + t("legal moves: {moves}", { moves: state.moves.map(m => m.from + "-" + squareName(m.to)).join(", ") });
}

function show(state) {
  if (state.layout !== document.querySelector("svg.board").dataset.layout) { location.reload(); return; }  // another board
  last = state;
  const words = state.words;
  document.getElementById("variant").textContent = words.rule_system + (state.simulated ? " · " + t("simulation") : "");
  document.getElementById("rules-link").href = "/rules/" + state.variant;
  const leds = state.leds;
  for (const name of ["green", "red", "amber"]) document.getElementById("led-" + name).classList.toggle("on", leds[name]);
  const turn = document.getElementById("led-turn");
  turn.className = "led turn" + (leds.turn ? " on " + leds.turn : "");
  turn.textContent = leds.turn ? sentence(t("{player} to play", { player: words.turn })) : t("Start: throw for a 1");
  document.getElementById("status").textContent = sentence(statusLine(state));
  const shown = state.virtual_board || state.board;
  for (const cell of document.querySelectorAll(".sq")) {
    const n = Number(cell.dataset.square);
    cell.dataset.piece = shown[n - 1] === "." ? "" : shown[n - 1];
    cell.classList.toggle("picked", picked === n);
    cell.classList.toggle("target", picked !== null && state.moves.some(m => m.from === picked && m.to === n));
    cell.classList.toggle("can-move", state.teaching && picked === null && state.moves.some(m => m.from === n));  // teaching: who may move
    cell.onclick = () => pick(n, shown[n - 1]);
  }
  document.getElementById("hint").textContent = !state.simulated ? "" : state.stage === "place"
    ? t("Simulation: tap an empty square to place a piece there.")
    : t("Simulation: tap a piece, then the square to put it on (tap it again to take it off the board).");
  const odds = document.getElementById("odds");
  odds.hidden = !state.teaching || !Object.keys(state.odds).length;
  odds.textContent = t("Chances with fair sticks:");
  Object.entries(state.odds).forEach(([value, chance], index) => {  // "1: 25%" reads left to right in every language
    const bdi = document.createElement("bdi");
    bdi.dir = "ltr";
    bdi.textContent = value + ": " + Math.round(chance * 100) + "%";
    odds.append(index ? " · " : " ", bdi);
  });
  const sticks = document.getElementById("sticks");
  sticks.textContent = "";
  for (const up of leds.sticks || []) { const s = document.createElement("span"); if (up) s.className = "up"; sticks.appendChild(s); }
  showLog(state);
  const pass = document.getElementById("pass");
  if (pass) pass.hidden = !state.may_pass;
}

function showLog(state) {
  const log = document.getElementById("log");
  log.textContent = "";
  state.log.forEach((entry, index) => {
    const words = state.words.log[index];
    const item = document.createElement("li");
    item.className = entry.event;
    const title = document.createElement("strong");
    title.textContent = words.title;
    item.appendChild(title);
    const thrown = entry.dice ? entry.dice.join("+") : String(entry.throw);
    const where = entry.from ? squareName(entry.from) + "-" + squareName(entry.to) : entry.event === "throw" ? thrown : "";
    if (where) { const bdi = document.createElement("bdi"); bdi.dir = "ltr"; bdi.textContent = where; item.append(" ", bdi); }
    if (words.text) item.appendChild(document.createTextNode(": " + sentence(words.text)));
    for (const violation of entry.violations) {  // each broken rule links to its text on the rules page
      const link = document.createElement("a");
      link.href = "/rules/" + state.variant + "#" + violation.rule;
      link.textContent = violation.rule;
      link.dir = "ltr";
      item.append(" ", link);
    }
    log.appendChild(item);
  });
}

function pick(n, piece) {
  if (!last || !last.simulated) return;
  if (last.stage === "place" && picked === null && piece === ".") { post("/api/move", { from: "off", to: n }); return; }
  if (picked === null) { if (piece !== ".") { picked = n; show(last); } return; }
  const from = picked;
  picked = null;
  post("/api/move", { from: from, to: from === n ? "off" : n });
}

for (const [id, path] of [["throw", "/api/throw"], ["pass", "/api/pass"]]) {  // only where phones may play
  const button = document.getElementById(id);
  if (button) button.onclick = () => post(path);
}
const diceButton = document.getElementById("enter-dice");  // PHARAO with real dice: the players read them out
if (diceButton) diceButton.onclick = () => post("/api/dice", {
  own: Number(document.getElementById("own-die").value), other: Number(document.getElementById("other-die").value) });

// Live updates: the browser reconnects by itself after a restart or a sleeping phone. A stream the
// companion refuses (too many open: 429 or 503) closes for good, so listen again 10-20 s later.
function listen() {
  const events = new EventSource("/events");
  events.onmessage = (message) => show(JSON.parse(message.data));
  events.onerror = () => { if (events.readyState === EventSource.CLOSED) setTimeout(listen, 10000 + Math.random() * 10000); };
}
listen();
