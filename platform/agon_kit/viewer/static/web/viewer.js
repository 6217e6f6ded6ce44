// Agon's replay viewer: one set of controls for every game, one renderer per game.
//
// The page's <section class="viewer"> names the timeline URL (see agon/matches/timeline.py).
// Every step's view arrives as a patch of the step before; all views are rebuilt once
// (unchanged parts shared between steps), so moving to any step only asks the renderer
// to draw one view, and renderers update the SVG nodes they already have.
// A running match is polled every 1.5 s for the steps it does not have yet.
// The boards zoom and pan (zoom.js); the address follows the step (?step=N); a finished
// match can be seen as one seat saw it, and the owner of a bot reads its log beside each
// of its turns.
(function () {
  "use strict";

  const SVG_NS = "http://www.w3.org/2000/svg";
  const POLL_MS = 1500;
  const SPEEDS = [0.5, 1, 2, 4, 8, 16];
  const ADDRESS_DELAY_MS = 150;  // the address follows the step once stepping pauses this long
  const renderers = {};

  // --- helpers shared with the renderers ---------------------------------------------

  function applyPatch(before, patch) {
    if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return patch;
    if ("$set" in patch) return patch.$set;
    if ("$len" in patch) {
      const items = (before || []).slice(0, patch.$len);
      for (const [key, value] of Object.entries(patch.$i)) {
        const index = Number(key);
        items[index] = applyPatch(items[index], value);
      }
      return items;
    }
    const merged = Object.assign({}, before);
    for (const [key, value] of Object.entries(patch)) merged[key] = applyPatch(before ? before[key] : undefined, value);
    return merged;
  }

  function svg(tag, attrs, parent) {
    const node = document.createElementNS(SVG_NS, tag);
    if (attrs) for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    if (parent) parent.appendChild(node);
    return node;
  }

  function html(tag, attrs, parent, text) {
    const node = document.createElement(tag);
    // A style goes through the CSSOM: the Content-Security-Policy refuses style attributes.
    if (attrs) for (const [name, value] of Object.entries(attrs)) {
      if (name === "style") node.style.cssText = value;
      else node.setAttribute(name, value);
    }
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  // Set an attribute or text only when it changes: cheap redraws, no layout for nothing.
  function setAttr(node, name, value) {
    const text = String(value);
    if (node.getAttribute(name) !== text) node.setAttribute(name, text);
  }
  function setText(node, value) {
    const text = String(value);
    if (node.textContent !== text) node.textContent = text;
  }

  // A bot's name that wraps between its words and cuts a word too long for its box with an
  // ellipsis, never in the middle; the whole name shows as a tooltip.
  function nameLabel(parent, text, className) {
    const label = html("span", { class: `bot-name${className ? ` ${className}` : ""}`, title: text }, parent);
    for (const part of text.split(/(\s+)/)) {
      if (!part) continue;
      if (!part.trim()) {
        label.appendChild(document.createTextNode(" "));
        continue;
      }
      // "owner/name": a line may break after the slash too.
      part.split(/(?<=\/)/).forEach((word, k) => {
        if (k) html("wbr", {}, label);
        html("span", { class: "word" }, label, word);
      });
    }
    return label;
  }

  // The players' cards above a board: name, score, a line of facts, who is to move.
  class PlayersPanel {
    constructor(container, ctx) {
      this.root = html("div", { class: "players" }, container);
      this.cards = ctx.labels.map((label, seat) => {
        const card = html("div", { class: "player", "data-seat": seat }, this.root);
        card.style.setProperty("--seat-color", ctx.colors[seat]);
        const name = html("div", { class: "name" }, card, `${seat} · `);
        nameLabel(name, label);
        const score = html("div", { class: "score", "data-score-seat": seat }, card, "0");
        const facts = html("div", { class: "facts" }, card, "");
        return { card, score, facts };
      });
    }
    update(view, facts) {
      this.cards.forEach((entry, seat) => {
        const scores = view.scores || [];
        setText(entry.score, scores[seat] === undefined ? "–" : scores[seat]);
        setText(entry.facts, facts ? facts(seat) : "");
        entry.card.classList.toggle("to-move", view.current === seat);
      });
    }
  }

  // --- the viewer --------------------------------------------------------------------

  class Viewer {
    constructor(root) {
      this.root = root;
      this.timelineUrl = root.dataset.timelineUrl;
      this.pageUrl = root.dataset.pageUrl;
      this.final = !["queued", "running"].includes(root.dataset.status);
      this.status = root.dataset.status;  // the summary's; refreshed when the match's moves on
      this.labels = JSON.parse(document.getElementById("seat-labels").textContent);
      const style = getComputedStyle(document.documentElement);
      this.colors = this.labels.map((_, seat) => style.getPropertyValue(`--seat-${seat % 6}`).trim());
      this.steps = [];
      this.views = [];
      this.index = 0;
      this.playing = false;
      this.speed = 2;
      this.renderTimes = [];
      this.frameGaps = [];
      this.board = root.querySelector("#viewer-board");
      this.statusLine = root.querySelector("#viewer-status");
      this.scrub = root.querySelector("#viewer-scrub");
      this.position = root.querySelector("#viewer-position");
      this.speedSelect = root.querySelector("#viewer-speed");
      this.playButton = root.querySelector("[data-action=play]");
      this.moves = root.querySelector("#viewer-moves");
      this.stepLink = root.querySelector("#viewer-step-link");
      this.fullscreenButton = root.querySelector("[data-view=fullscreen]");
      this.asSelect = root.querySelector("#viewer-as");
      this.seatView = root.querySelector("#viewer-seat-view");
      this.logPanel = root.querySelector("#viewer-log");
      this.zooms = [];
      this.ownLogs = JSON.parse((document.getElementById("own-logs") || { textContent: "{}" }).textContent);
      this.turnLogs = {};  // seat -> what it wrote on each of its turns (its owner's only)
      this.evaluations = {};  // seat -> its own evaluation of each of its turns (its owner's only)
      this.stepListeners = [];  // told of every step shown (the match's story, story.js)
      this.logListeners = [];  // told once the owner's logs are in
      this.finalListeners = [];  // told once the match is over and all its steps are in
      this.seatTurns = [];  // step -> which turn of its seat it was
      this.turnsPlayed = {};  // seat -> its steps so far
      this.observations = null;  // what the chosen seat saw at each step
      const asked = Number(new URLSearchParams(window.location.search).get("step"));
      if (Number.isInteger(asked) && asked > 0) this.pendingIndex = asked;
      this.caption = html("p", { class: "viewer-caption", id: "viewer-caption", "aria-live": "polite" });
      this.board.before(this.caption);
      this.zoomNote = html("p", { class: "zoom-note muted", id: "viewer-zoom-note" });
      this.board.before(this.zoomNote);
      const factory = renderers[root.dataset.renderer] || renderers.text;
      this.renderer = factory(this.board, {
        labels: this.labels,
        colors: this.colors,
        players: this.labels.length,
        zoom: (element, options) => {
          const view = new window.AgonZoom.ZoomView(element, { ...options, onChange: () => this.noteZoom() });
          this.zooms.push(view);
          return view;
        },
        nameLabel,
      });
      this.bind();
      this.load(0);
    }

    bind() {
      const actions = {
        start: () => this.go(0),
        back: () => this.go(this.index - 1),
        play: () => this.toggle(),
        forward: () => this.go(this.index + 1),
        end: () => this.go(this.views.length - 1),
      };
      this.root.querySelectorAll("[data-action]").forEach((button) => {
        button.addEventListener("click", () => {
          if (button.dataset.action !== "play") this.pause();
          actions[button.dataset.action]();
        });
      });
      this.scrub.addEventListener("input", () => {
        this.pause();
        this.go(Number(this.scrub.value));
      });
      this.speedSelect.addEventListener("change", () => { this.speed = Number(this.speedSelect.value); });
      this.moves.addEventListener("click", (event) => {
        const button = event.target.closest("button[data-step]");
        if (!button) return;
        this.pause();
        this.go(Number(button.dataset.step));
      });
      document.addEventListener("keydown", (event) => this.onKey(event));
      this.root.querySelectorAll("[data-zoom]").forEach((button) => {
        button.addEventListener("click", () => this.zoomAll(button.dataset.zoom));
      });
      this.fullscreenButton.addEventListener("click", () => this.toggleFullscreen());
      document.addEventListener("fullscreenchange", () => this.showFullscreen(document.fullscreenElement === this.root));
      this.stepLink.addEventListener("click", (event) => {
        event.preventDefault();
        this.copyStepLink();
      });
      this.asSelect.addEventListener("change", () => this.viewAs(this.asSelect.value));
    }

    // --- the board's view: zoom, full screen, links ------------------------------------------

    zoomAll(how) {
      for (const view of this.zooms) {
        if (how === "in") view.zoomBy(1.5);
        else if (how === "out") view.zoomBy(1 / 1.5);
        else view.reset();
      }
      const level = this.zooms.length ? this.zooms[0].zoom : 1;
      this.say(how === "fit" ? "The board fits its panel." : `Zoom: ${Math.round(level * 100)}%`);
    }

    // A board shown in part (zoomed in) says how to see the rest.
    noteZoom() {
      const part = this.zooms.some((view) => view.zoom > 1.001);
      setText(this.zoomNote, part ? "Part of the board is shown: drag or pinch to move it, − to zoom out to the whole board." : "");
    }

    toggleFullscreen() {
      const on = !this.root.classList.contains("viewer-fullscreen");
      // The Fullscreen API where there is one (not on every phone): else the page's own.
      if (on && this.root.requestFullscreen) {
        this.root.requestFullscreen().catch(() => this.showFullscreen(true));
      } else if (!on && document.fullscreenElement) {
        document.exitFullscreen();
      } else {
        this.showFullscreen(on);
      }
    }

    showFullscreen(on) {
      this.root.classList.toggle("viewer-fullscreen", on);
      this.fullscreenButton.setAttribute("aria-pressed", String(on));
      this.fullscreenButton.setAttribute("aria-label", on ? "Leave full screen" : "Full screen");
      for (const view of this.zooms) view.update(false);
    }

    stepUrl(index) {
      const url = new URL(window.location.href);
      url.searchParams.set("step", String(index));
      return url;
    }

    followInAddress() {
      const link = this.stepUrl(this.index);
      setAttr(this.stepLink, "href", `${link.pathname}${link.search}${link.hash}`);
      const url = new URL(link);
      if (this.index === 0) url.searchParams.delete("step");  // the page's own address
      // The address follows once the steps pause: a history entry rewritten on every step
      // of a held arrow key costs the browser more than drawing the step.
      window.clearTimeout(this.addressTimer);
      this.addressTimer = window.setTimeout(() => {
        if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url);
      }, ADDRESS_DELAY_MS);
    }

    async copyStepLink() {
      const url = this.stepUrl(this.index).href;
      try {
        await navigator.clipboard.writeText(url);
        this.say(`Copied the link to step ${this.index}.`);
      } catch (error) {
        this.say(`The link to step ${this.index}: ${url}`);
      }
    }

    // --- what a seat saw, and the owner's log --------------------------------------------

    async viewAs(value) {
      if (value === "") {
        this.observations = null;
        this.showAside();
        return;
      }
      const seat = Number(value);
      try {
        const response = await fetch(`${this.timelineUrl}?seat=${seat}`, { headers: { Accept: "application/json" } });
        if (!response.ok) throw new Error(`the server answered ${response.status}`);
        const data = await response.json();
        let observation;
        const observations = data.steps.map((step) => (observation = applyPatch(observation, step.observation_patch)));
        if (this.asSelect.value !== value) return;  // chosen again meanwhile
        this.observations = { seat, steps: observations };
      } catch (error) {
        this.say(`Could not load what seat ${seat} saw: ${error.message}.`);
        this.observations = null;
      }
      this.showAside();
    }

    async loadLogs() {
      for (const [seat, url] of Object.entries(this.ownLogs)) {
        try {
          const response = await fetch(url, { headers: { Accept: "application/json" } });
          if (!response.ok) continue;
          const data = await response.json();
          // A match played before the referee noted the turns has its whole log only.
          if (Array.isArray(data.turn_logs) && data.turn_logs.length) this.turnLogs[seat] = data.turn_logs;
          if (Array.isArray(data.evaluations) && data.evaluations.some((value) => value !== null)) this.evaluations[seat] = data.evaluations;
        } catch (error) {
          // Without its log the replay is still worth watching.
        }
      }
      this.markLogs();
      this.showAside();
      for (const listener of this.logListeners) listener();
    }

    // The step at which each of a seat's turns was played: its own evaluations' places.
    turnSteps(seat) {
      const found = [];
      this.steps.forEach((step, index) => {
        if (step.seat === seat) found[this.seatTurns[index]] = index;
      });
      return found;
    }

    markLogs() {
      this.steps.forEach((step, index) => {
        const text = this.turnLog(index);
        if (!text) return;
        const button = this.moves.querySelector(`li[data-step="${index}"] button`);
        if (button && !button.querySelector(".has-log")) html("span", { class: "has-log", title: "Your bot wrote to its log on this turn" }, button, " log");
      });
    }

    turnLog(index) {
      const step = this.steps[index];
      if (!step || step.seat === null || step.seat === undefined) return null;
      const logs = this.turnLogs[step.seat];
      if (!logs) return null;
      const text = logs[this.seatTurns[index]];
      return text === undefined ? null : text;
    }

    showAside() {
      const index = this.index;
      const seen = this.observations;
      this.seatView.hidden = !seen;
      if (seen && seen.steps[index] !== undefined) {
        setText(this.seatView.querySelector("h3"), `What seat ${seen.seat} (${this.labels[seen.seat]}) was shown at step ${index}`);
        setText(this.seatView.querySelector("pre"), JSON.stringify(seen.steps[index], null, 1));
      }
      const step = this.steps[index];
      const owned = step && step.seat !== null && step.seat !== undefined && this.turnLogs[step.seat];
      this.logPanel.hidden = !owned;
      if (owned) {
        const text = this.turnLog(index);
        const turn = this.seatTurns[index];
        setText(this.logPanel.querySelector("h3"), `Your bot's log, seat ${step.seat}, its turn ${turn} (step ${index})`);
        setText(this.logPanel.querySelector("pre"), text === null
          ? "(no log for this turn: a stand-in played it for your bot)"
          : text || "(nothing written on this turn)");
      }
    }

    onKey(event) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target;
      const tag = target && target.tagName;
      // Keys belong to the viewer unless a control or link elsewhere on the page has them.
      const interactive = target && target.closest && target.closest("a, button, input, select, textarea, summary, [contenteditable]");
      if (interactive && !this.root.contains(interactive)) return;
      if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && target.type !== "range")) return;
      const key = event.key;
      if ((tag === "BUTTON" || tag === "A") && (key === " " || key === "Enter")) return;  // the native click
      if (tag === "INPUT" && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"].includes(key)) return;  // the range's own keys
      const handlers = {
        " ": () => this.toggle(),
        k: () => this.toggle(),
        ArrowLeft: () => { this.pause(); this.go(this.index - 1); },
        j: () => { this.pause(); this.go(this.index - 1); },
        ArrowRight: () => { this.pause(); this.go(this.index + 1); },
        l: () => { this.pause(); this.go(this.index + 1); },
        Home: () => { this.pause(); this.go(0); },
        End: () => { this.pause(); this.go(this.views.length - 1); },
        ">": () => this.changeSpeed(1),
        "<": () => this.changeSpeed(-1),
        "+": () => this.zoomAll("in"),
        "=": () => this.zoomAll("in"),
        "-": () => this.zoomAll("out"),
        "_": () => this.zoomAll("out"),
        "0": () => this.zoomAll("fit"),
        f: () => this.toggleFullscreen(),
        Escape: () => { if (this.root.classList.contains("viewer-fullscreen") && !document.fullscreenElement) this.showFullscreen(false); },
      };
      const handler = handlers[key];
      if (!handler) return;
      event.preventDefault();
      handler();
    }

    changeSpeed(direction) {
      const at = SPEEDS.indexOf(this.speed);
      const next = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (at < 0 ? 2 : at) + direction))];
      this.speed = next;
      this.speedSelect.value = String(next);
      this.say(`Speed: ${next} step${next === 1 ? "" : "s"} per second`);
    }

    say(text) { setText(this.statusLine, text); }

    // Show a step, from outside the viewer's own controls (the story's drops).
    jump(index) {
      this.pause();
      this.go(index);
    }

    // --- data ----------------------------------------------------------------------------

    async load(since) {
      let data;
      try {
        const response = await fetch(`${this.timelineUrl}?since=${since}`, { headers: { Accept: "application/json" } });
        if (!response.ok) throw new Error(`the server answered ${response.status}`);
        data = await response.json();
      } catch (error) {
        this.say(`Could not load the match: ${error.message}. Trying again…`);
        window.setTimeout(() => this.load(this.views.length), POLL_MS * 2);
        return;
      }
      const wasFinal = this.final;
      this.final = data.final;
      if (data.status !== this.status) this.refreshSummary();
      this.status = data.status;
      if (this.final && !wasFinal && since > 0) {
        // The finished match's views show what was hidden while it ran: take them all,
        // still at the newest move if the viewer was following the match.
        this.following = this.index >= this.views.length - 1;
        this.load(0);
        return;
      }
      try {
        if (since === 0 && this.views.length) this.reset();
        if (data.total > this.views.length && data.since === this.views.length) this.append(data.steps);
      } finally {
        // Whatever drawing a step threw, the status line counts the steps the scrubber has,
        // and a live match keeps coming in.
        this.describeStatus(data);
        if (this.final) this.whenFinal(data.status);
        else window.setTimeout(() => this.load(this.views.length), POLL_MS);
      }
    }

    // Once the match is over: what each seat saw (a finished match's), and the owner's logs.
    whenFinal(status) {
      if (this.finalShown) return;
      this.finalShown = true;
      // Offered once the match is over, where there are seats to choose (not offline).
      if (status === "finished" && this.asSelect.options.length > 1) {
        this.root.querySelector(".control-as").hidden = false;
      }
      if (Object.keys(this.ownLogs).length) this.loadLogs();
      for (const listener of this.finalListeners) listener(status);
    }

    reset() {
      const at = this.index;
      this.steps = [];
      this.views = [];
      this.seatTurns = [];
      this.turnsPlayed = {};
      this.moves.textContent = "";
      this.index = Math.min(at, 0);
      this.pendingIndex = this.following ? Infinity : at;
      this.following = false;
    }

    append(steps) {
      const atEnd = this.views.length === 0 || this.index === this.views.length - 1;
      let view = this.views.length ? this.views[this.views.length - 1] : undefined;
      const fragment = document.createDocumentFragment();
      for (const step of steps) {
        view = applyPatch(view, step.view_patch);
        const index = this.views.length;
        this.views.push(view);
        this.steps.push(step);
        const seat = step.seat;
        if (seat === null || seat === undefined) {
          this.seatTurns.push(null);
        } else {
          this.seatTurns.push(this.turnsPlayed[seat] || 0);
          this.turnsPlayed[seat] = (this.turnsPlayed[seat] || 0) + 1;
        }
        fragment.appendChild(this.moveItem(step, index));
      }
      this.moves.appendChild(fragment);
      if (this.renderer.prepare) this.renderer.prepare(this.views);
      setAttr(this.scrub, "max", Math.max(0, this.views.length - 1));
      let target = this.index;
      if (this.pendingIndex !== undefined) {
        target = Math.min(this.pendingIndex, this.views.length - 1);
        this.pendingIndex = undefined;
      } else if (!this.final && atEnd) {
        target = this.views.length - 1;  // a live match: follow the newest move
      }
      this.go(target, true);
    }

    moveItem(step, index) {
      const item = html("li", { "data-step": index });
      const button = html("button", { type: "button", "data-step": index, tabindex: "-1" }, item);
      html("span", { class: "step-no" }, button, String(index));
      if (step.seat !== null && step.seat !== undefined) {
        const who = html("span", { class: "who" }, button);
        const chip = html("span", { class: `seat-chip seat-${step.seat % 6}`, "aria-hidden": "true" }, who);
        chip.textContent = "";
        nameLabel(who, this.labels[step.seat] || `seat ${step.seat}`);
        button.appendChild(document.createTextNode(" "));
      }
      for (const fault of step.faults || []) {
        html("span", { class: "fault" }, button, `⚠ ${fault.kind}: ${fault.detail}; a stand-in plays this seat from here: `);
      }
      button.appendChild(document.createTextNode(step.text));
      const before = this.views[index - 1];
      const after = this.views[index];
      if (before && after && before.scores && after.scores && step.seat !== null) {
        const gain = after.scores[step.seat] - before.scores[step.seat];
        if (gain) html("span", { class: "gain" }, button, ` ${gain > 0 ? "+" : "−"}${Math.abs(gain)}`);
      }
      return item;
    }

    describeStatus(data) {
      if (data.error) {
        this.say(data.error);
      } else if (data.caption) {
        this.say(data.caption);
      } else if (data.status === "queued") {
        this.say("This match is waiting for a worker; it will show here as soon as it starts.");
      } else if (data.status === "running") {
        this.say(`Live: ${Math.max(0, this.views.length - 1)} moves so far; new moves appear as they are played.`);
      } else if (data.status === "finished") {
        this.say(`Finished: ${this.views.length - 1} moves.`);
      } else {
        this.say("This match did not finish.");
      }
    }

    async refreshSummary() {
      try {
        const response = await fetch(this.pageUrl);
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const fresh = page.getElementById("match-summary");
        const current = document.getElementById("match-summary");
        if (fresh && current) {
          const adopted = document.importNode(fresh, true);
          current.replaceWith(adopted);
          if (window.agonLocalTimes) window.agonLocalTimes(adopted);
        }
        const controls = this.root.querySelector(".viewer-extras");
        const link = page.querySelector(".replay-link");
        if (link && !controls.querySelector(".replay-link")) controls.appendChild(document.importNode(link, true));
      } catch (error) {
        // The summary stays as it was; a reload shows the result.
      }
    }

    // --- moving ----------------------------------------------------------------------------

    go(index, force) {
      if (!this.views.length) return;
      const target = Math.max(0, Math.min(this.views.length - 1, index));
      if (target === this.index && !force && this.drawn) return;
      const previous = this.moves.querySelector(`li[data-step="${this.index}"]`);
      this.index = target;
      const started = performance.now();
      this.renderer.render(this.views[target], this.steps[target], target, this.views[target - 1]);
      this.renderTimes.push(performance.now() - started);
      if (this.renderTimes.length > 5000) this.renderTimes.shift();
      this.drawn = true;
      this.scrub.value = String(target);
      setAttr(this.scrub, "aria-valuetext", `step ${target} of ${this.views.length - 1}`);
      setText(this.position, `${target} / ${this.views.length - 1}`);
      const step = this.steps[target];
      const who = step.seat === null || step.seat === undefined ? "" : `${this.labels[step.seat] || "seat " + step.seat}: `;
      const faults = (step.faults || []).map((fault) => `⚠ ${fault.kind}: ${fault.detail}; a stand-in plays this seat from here. `).join("");
      setText(this.caption, `Step ${target}: ${who}${faults}${step.text}`);
      if (previous) {
        previous.removeAttribute("aria-current");
        const button = previous.querySelector("button");
        if (button) button.setAttribute("tabindex", "-1");
      }
      const item = this.moves.querySelector(`li[data-step="${target}"]`);
      if (item) {
        item.setAttribute("aria-current", "step");
        item.querySelector("button").setAttribute("tabindex", "0");
        this.keepVisible(item);
      }
      if (!this.playing) this.followInAddress();
      this.showAside();
      this.noteZoom();
      for (const listener of this.stepListeners) listener(target);
    }

    keepVisible(item) {
      const list = this.moves;
      const top = item.offsetTop;
      const bottom = top + item.offsetHeight;
      if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }

    toggle() { if (this.playing) this.pause(); else this.play(); }

    play() {
      if (!this.views.length) return;
      if (this.index >= this.views.length - 1 && this.final) this.go(0);
      this.playing = true;
      this.caption.removeAttribute("aria-live");
      this.playButton.querySelector(".icon-play").setAttribute("hidden", "");
      this.playButton.querySelector(".icon-pause").removeAttribute("hidden");
      this.playButton.setAttribute("aria-label", "Pause");
      this.lastStep = performance.now();
      this.lastFrame = undefined;
      const tick = (now) => {
        if (!this.playing) return;
        if (this.lastFrame !== undefined) {
          this.frameGaps.push(now - this.lastFrame);
          if (this.frameGaps.length > 5000) this.frameGaps.shift();
        }
        this.lastFrame = now;
        if (now - this.lastStep >= 1000 / this.speed) {
          this.lastStep = now;
          if (this.index < this.views.length - 1) this.go(this.index + 1);
          else if (this.final) { this.pause(); return; }
        }
        window.requestAnimationFrame(tick);
      };
      window.requestAnimationFrame(tick);
    }

    pause() {
      if (!this.playing) return;
      this.playing = false;
      this.caption.setAttribute("aria-live", "polite");
      this.playButton.querySelector(".icon-pause").setAttribute("hidden", "");
      this.playButton.querySelector(".icon-play").removeAttribute("hidden");
      this.playButton.setAttribute("aria-label", "Play");
      this.followInAddress();
    }
  }

  window.AgonViewer = {
    register(name, factory) { renderers[name] = factory; },
    helpers: { applyPatch, svg, html, setAttr, setText, PlayersPanel, nameLabel },
    instances: [],
  };

  // The fallback: the game's own text picture of the table.
  // It zooms like the boards: the text is fitted to its frame, growing with the longest
  // text seen so far and never blown up past twice its size.
  window.AgonViewer.register("text", (container, ctx) => {
    const frame = html("div", { class: "board-frame" }, container);
    const pre = html("pre", { class: "board-text", tabindex: "0" }, frame);
    const zoom = ctx.zoom(frame, { content: pre });
    let largest = [0, 0];
    return {
      render(view, step, index) {
        setText(pre, view.text || JSON.stringify(view, null, 1));
        if (index === 0) largest = [0, 0];
        largest = [Math.max(largest[0], pre.offsetWidth), Math.max(largest[1], pre.offsetHeight)];
        const width = Math.max(largest[0] + 16, frame.clientWidth / 2);
        const height = Math.max(largest[1] + 16, frame.clientHeight / 2);
        zoom.fit([largest[0] / 2 - width / 2, largest[1] / 2 - height / 2, width, height]);
      },
    };
  });

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("section.viewer[data-timeline-url]").forEach((root) => {
      window.AgonViewer.instances.push(new Viewer(root));
    });
  });
})();
