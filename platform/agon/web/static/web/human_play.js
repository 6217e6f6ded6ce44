// A human game's moves: the page polls its turn (turn.json), shows the legal moves as
// things to click, one step at a time, and sends the chosen one.
//
// A turn arrives as `steps`: for each legal action, the choices that make it, each a
// button (["pick", key, label]) or a cell of the board (["cell", a, b, label]); labels
// are indices into `labels`. Choosing narrows the actions to those that begin with the
// choices made; once one action is left it can be played. `cells` is the seat's board
// as it stands, drawn under the cells to click (hexes or squares, as the game's).
(function () {
  "use strict";

  const SVG_NS = "http://www.w3.org/2000/svg";
  const POLL_MS = 1000;
  const QUICK_POLL_MS = 150;     // just after a move: the bots' replies take a moment
  const QUICK_POLL_FOR_MS = 4000;
  const SIZE = 10;
  const MAX_SCALE = 4.5;
  const MIN_SCALE = 2.6;  // a hex or a square some 45 px across: a thumb hits it on a phone
  const SQRT3 = Math.sqrt(3);
  const HEX = Array.from({ length: 6 }, (_, k) => {
    const angle = (Math.PI / 180) * (60 * k - 30);
    return `${(SIZE * 0.96 * Math.cos(angle)).toFixed(2)},${(SIZE * 0.96 * Math.sin(angle)).toFixed(2)}`;
  }).join(" ");
  const SQUARE = `${-SIZE * 0.48},${-SIZE * 0.48} ${SIZE * 0.48},${-SIZE * 0.48} ${SIZE * 0.48},${SIZE * 0.48} ${-SIZE * 0.48},${SIZE * 0.48}`;

  const root = document.getElementById("human-turn");
  if (!root) return;
  const status = root.querySelector("#turn-status");
  const facts = root.querySelector("#turn-facts");
  const prompt = root.querySelector("#turn-prompt");
  const picks = root.querySelector("#turn-picks");
  const board = root.querySelector("#turn-board");
  const playButton = root.querySelector("#turn-play");
  const backButton = root.querySelector("#turn-back");
  const errorLine = root.querySelector("#turn-error");
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;

  let turn = null;      // the turn shown, as turn.json gave it
  let chosen = [];      // the steps chosen so far
  let sending = false;
  let deadline = 0;     // when the turn times out, on this page's clock
  let quickUntil = 0;   // poll quickly until then (a move was just sent)

  function el(tag, attrs, parent, text) {
    const node = tag.startsWith("svg:") ? document.createElementNS(SVG_NS, tag.slice(4)) : document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  function same(a, b) {
    if (a[0] !== b[0]) return false;
    return a[0] === "pick" ? a[1] === b[1] : a[1] === b[1] && a[2] === b[2];
  }

  function candidates() {
    const found = [];
    turn.steps.forEach((steps, index) => {
      if (chosen.every((step, k) => steps[k] && same(steps[k], step))) found.push(index);
    });
    return found;
  }

  function pixel(a, b) {
    if (turn.board === "hex") return [SIZE * SQRT3 * (a + b / 2), -SIZE * 1.5 * b];
    return [a * SIZE, -b * SIZE];
  }

  function say(text) { status.textContent = text; }

  function showError(text) {
    errorLine.hidden = !text;
    errorLine.textContent = text || "";
  }

  function render() {
    picks.textContent = "";
    board.textContent = "";
    facts.textContent = "";
    playButton.hidden = true;
    backButton.hidden = chosen.length === 0;
    if (!turn) {
      prompt.textContent = "";
      return;
    }
    for (const line of turn.facts) el("li", {}, facts, line);
    const left = candidates();
    const depth = chosen.length;
    const complete = left.filter((index) => turn.steps[index].length === depth);
    if (left.length === 1 && complete.length === 1) {
      prompt.textContent = `Your move: ${describe(turn.steps[left[0]])}.`;
      playButton.hidden = false;
      playButton.dataset.choice = String(left[0]);
      drawBoard([]);
      playButton.focus();
      return;
    }
    // The distinct next steps, in the order the actions come.
    const options = [];
    for (const index of left) {
      const step = turn.steps[index][depth];
      if (step && !options.some((seen) => same(seen, step))) options.push(step);
    }
    const cellOptions = options.filter((step) => step[0] === "cell");
    const pickOptions = options.filter((step) => step[0] === "pick");
    const hints = [...new Set(cellOptions.map((step) => turn.labels[step[3]]).filter(Boolean))];
    const parts = [];
    if (pickOptions.length) parts.push("choose below");
    if (cellOptions.length) parts.push(`click a highlighted ${turn.board === "hex" ? "hex" : "square"}${hints.length === 1 ? ` (${hints[0]})` : ""}`);
    prompt.textContent = `${depth ? "Then" : "Your turn"}: ${parts.join(", or ")}.`;
    for (const step of pickOptions) {
      const button = el("button", { type: "button", class: "button secondary turn-pick", "data-key": step[1] }, picks, turn.labels[step[2]]);
      button.addEventListener("click", () => choose(step));
    }
    if (cellOptions.length || turn.cells.length) drawBoard(cellOptions);
    board.scrollLeft = (board.scrollWidth - board.clientWidth) / 2;
  }

  function describe(steps) {
    return steps.map((step) => {
      if (step[0] === "pick") return turn.labels[step[2]];
      const label = turn.labels[step[3]];
      return `(${step[1]}, ${step[2]})${label ? ` ${label}` : ""}`;
    }).join(", ");
  }

  function shape(parent, a, b, attrs) {
    const [x, y] = pixel(a, b);
    const group = el("svg:g", { transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})` }, parent);
    el("svg:polygon", { points: turn.board === "hex" ? HEX : SQUARE, ...attrs }, group);
    return group;
  }

  function drawBoard(targets) {
    if (turn.board === "none") return;
    const chosenCells = chosen.filter((step) => step[0] === "cell");
    const all = [...turn.cells, ...targets.map((s) => [s[1], s[2]]), ...chosenCells.map((s) => [s[1], s[2]])];
    if (!all.length) return;
    const points = all.map(([a, b]) => pixel(a, b));
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const margin = SIZE * 1.2;
    const minX = Math.min(...xs) - margin;
    const minY = Math.min(...ys) - margin;
    const width = Math.max(...xs) - minX + margin;
    const height = Math.max(...ys) - minY + margin;
    const picture = el("svg:svg", {
      viewBox: `${minX.toFixed(1)} ${minY.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`,
      class: "turn-svg", role: "group", "aria-label": "Your board: the highlighted cells are your choices",
    }, board);
    // At most MAX_SCALE pixels a unit: a hex a thumb can hit, never a wall of colour.
    picture.style.maxWidth = `${Math.round(width * MAX_SCALE)}px`;
    // Never smaller than a thumb's target: a wide board scrolls sideways in its box.
    picture.style.minWidth = `${Math.round(width * MIN_SCALE)}px`;
    for (const [a, b, text, fill] of turn.cells) {
      const group = shape(picture, a, b, { fill, stroke: "#ffffff", "stroke-width": "0.8" });
      // The text fits its cell: smaller as it is longer ("BNK••" on a square).
      const size = Math.min(4.4, 11 / Math.max(1, [...text].length));
      if (text) el("svg:text", { "text-anchor": "middle", y: (size * 0.36).toFixed(2), "font-size": size.toFixed(2), class: "cell-text" }, group, text);
    }
    for (const step of chosenCells) shape(picture, step[1], step[2], { fill: "none", stroke: "#1c1d21", "stroke-width": "2.4" });
    for (const step of targets) {
      const group = shape(picture, step[1], step[2], { class: "turn-target" });
      const label = `${turn.board === "hex" ? "hex" : "square"} ${step[1]}, ${step[2]}${turn.labels[step[3]] ? `: ${turn.labels[step[3]]}` : ""}`;
      group.setAttribute("role", "button");
      group.setAttribute("tabindex", "0");
      group.setAttribute("aria-label", label);
      group.setAttribute("class", "turn-cell");
      group.dataset.cell = `${step[1]},${step[2]}`;
      el("svg:title", {}, group, label);
      group.addEventListener("click", () => choose(step));
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          choose(step);
        }
      });
    }
  }

  function choose(step) {
    showError("");
    chosen.push(step);
    render();
  }

  backButton.addEventListener("click", () => {
    chosen.pop();
    showError("");
    render();
  });

  playButton.addEventListener("click", async () => {
    if (sending || !turn) return;
    sending = true;
    playButton.disabled = true;
    const number = turn.number;
    try {
      const response = await fetch(root.dataset.moveUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
        body: JSON.stringify({ turn: number, choice: Number(playButton.dataset.choice) }),
        credentials: "same-origin",
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        showError(`Your move was not taken: ${answer.error || `the server answered ${response.status}`}.`);
      } else {
        turn = null;
        chosen = [];
        root.dataset.played = String(number);
        quickUntil = Date.now() + QUICK_POLL_FOR_MS;
        say("Move sent: the bots are playing…");
        render();
      }
    } catch (error) {
      showError(`Your move could not be sent (${error.message}): try again.`);
    } finally {
      sending = false;
      playButton.disabled = false;
    }
  });

  function tick() {
    if (!turn) return;
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    const minutes = Math.floor(left / 60);
    say(`Your turn (move ${turn.number + 1}): ${minutes}:${String(left % 60).padStart(2, "0")} left.`);
  }

  async function poll() {
    let data = null;
    try {
      const response = await fetch(root.dataset.turnUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) data = await response.json();
    } catch (error) {
      data = null;
    }
    if (data) {
      root.dataset.status = data.status;
      if (data.turn && (!turn || turn.number !== data.turn.number)) {
        turn = data.turn;
        chosen = [];
        deadline = Date.now() + data.turn.seconds_left * 1000;
        root.dataset.turn = String(turn.number);
        quickUntil = 0;
        showError("");
        render();
      } else if (!data.turn && turn && !sending) {
        turn = null;  // timed out, or played from another tab
        render();
      }
      if (data.status === "finished" || data.status === "failed") {
        turn = null;
        render();
        say(data.status === "finished" ? "The game is over: the result is below." : "This game could not be played to the end.");
        root.classList.add("over");
        return;
      }
      if (!turn && !sending) say(data.status === "queued" ? "Waiting for a worker to start the game…" : "The bots are playing…");
      tick();
    }
    window.setTimeout(poll, Date.now() < quickUntil ? QUICK_POLL_MS : POLL_MS);
  }

  window.setInterval(tick, 1000);
  poll();
})();
