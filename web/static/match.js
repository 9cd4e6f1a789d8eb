// A kept match, step by step: the buttons, the list and the arrow keys show another step without
// reloading (without the script the same links load the page at that step).
"use strict";
const steps = [...document.querySelectorAll("#steps li")];
const counter = document.getElementById("step-number");
let current = Number(document.getElementById("match").dataset.step);

function show(step) {
  current = Math.max(0, Math.min(steps.length - 1, step));
  const item = steps[current];
  const marked = item.dataset.marked.split(",").map(Number);
  for (const cell of document.querySelectorAll(".sq")) {
    const square = Number(cell.dataset.square);
    const piece = item.dataset.board[square - 1];
    cell.dataset.piece = piece === "." ? "" : piece;
    cell.classList.toggle("picked", marked[0] === square);
    cell.classList.toggle("target", marked[1] === square);
  }
  counter.textContent = counter.dataset.template.replace("{step}", current).replace("{count}", steps.length - 1);
  document.getElementById("step-status").textContent = item.dataset.status;
  const event = document.getElementById("step-event");
  event.className = "log-entry " + item.className;
  event.innerHTML = item.querySelector(".what").innerHTML;
  steps.forEach((other, index) => { if (index === current) other.setAttribute("aria-current", "step"); else other.removeAttribute("aria-current"); });
  const targets = { first: 0, previous: Math.max(current - 1, 0), next: Math.min(current + 1, steps.length - 1), last: steps.length - 1 };
  for (const [id, target] of Object.entries(targets)) document.getElementById(id).href = "?step=" + target;
  history.replaceState(null, "", "?step=" + current);
}

function go(event, step) { event.preventDefault(); show(step); }

document.getElementById("first").onclick = (event) => go(event, 0);
document.getElementById("previous").onclick = (event) => go(event, current - 1);
document.getElementById("next").onclick = (event) => go(event, current + 1);
document.getElementById("last").onclick = (event) => go(event, steps.length - 1);
steps.forEach((item, index) => { item.querySelector("a").onclick = (event) => go(event, index); });

// Right to left, the later steps lie to the left: the arrow keys follow the buttons.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const forward = document.documentElement.dir === "rtl" ? "ArrowLeft" : "ArrowRight";
  const backward = forward === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
  const keys = { [forward]: current + 1, [backward]: current - 1, Home: 0, End: steps.length - 1 };
  if (event.key in keys) go(event, keys[event.key]);
});
