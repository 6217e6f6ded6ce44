// The match's story under the board: each seat's chances after every move, from the
// match's analysis (GET /api/matches/{id}/analysis/, agon.analysis), drawn as an SVG
// curve per seat; the biggest drops are marked and listed, and a click on one (or
// anywhere on the chart) shows that step in the viewer. A bot's owner also sees the
// bot's own evaluations (its `agon-eval` lines) as dots beside its seat's curve.
// The chart is drawn at the width it has, in pixels, so that its text stays legible on
// a phone, and again when that width changes.
(function () {
  "use strict";

  const POLL_MS = 4000;
  const PLANNED_POLLS = 15;  // about two minutes of waiting for beat to send it
  const HEIGHT = 170;
  const PAD = { left: 40, right: 12, top: 10, bottom: 26 };

  function percent(value) { return `${Math.round(value * 100)}%`; }

  class Story {
    constructor(viewer, root) {
      this.viewer = viewer;
      this.root = root;
      this.url = root.dataset.analysisUrl;
      this.chart = root.querySelector(".story-chart");
      this.note = root.querySelector(".story-note");
      this.dropList = root.querySelector(".story-drops");
      this.legend = root.querySelector(".story-legend");
      this.analysis = null;
      this.width = 0;
      this.waits = 0;
      viewer.finalListeners.push((status) => { if (status === "finished") this.load(); });
      viewer.stepListeners.push((index) => this.mark(index));
      viewer.logListeners.push(() => this.draw());
      if (window.ResizeObserver) {
        new window.ResizeObserver(() => {
          if (this.chart.clientWidth !== this.width) this.draw();
        }).observe(this.chart);
      }
    }

    async load() {
      let data;
      try {
        const response = await fetch(this.url, { headers: { Accept: "application/json" } });
        if (!response.ok) throw new Error(`the server answered ${response.status}`);
        data = await response.json();
      } catch (error) {
        this.say(`Could not load the analysis: ${error.message}.`);
        return;
      }
      this.root.hidden = false;
      if (data.status === "done" && data.values.length) {
        this.analysis = data;
        this.say(this.describe(data));
        this.draw();
        this.listDrops();
        return;
      }
      if (data.status === "queued" || data.status === "running") {
        this.say("This match is being analysed: its story shows here in a moment.");
        window.setTimeout(() => this.load(), POLL_MS);
      } else if (data.planned && this.waits < PLANNED_POLLS) {
        this.waits += 1;
        this.say("This match will be analysed shortly, as the day's budget allows.");
        window.setTimeout(() => this.load(), POLL_MS * 2);
      } else if (data.planned) {
        this.say("This match will be analysed later, as the day's budget allows: come back to see its story.");
      } else if (data.status === "failed") {
        this.say(`This match could not be analysed: ${data.error}`);
      } else {
        this.say("Not analysed: ranked and tournament matches are, as the day's budget allows; the owner of a bot in this match may ask for it.");
      }
    }

    say(text) { this.note.textContent = text; }

    describe(data) {
      const measure = data.seats === 2
        ? "each seat's chance to win (a draw counts half)"
        : "each seat's expected share of its meetings with the others (1: first, 0: last)";
      return `After every move, ${measure}, as ${data.level}'s playouts judge it.`;
    }

    // The step nearest to a point of the chart.
    stepAt(x) {
      const steps = this.analysis.values.length;
      const plot = this.width - PAD.left - PAD.right;
      const ratio = Math.max(0, Math.min(1, (x - PAD.left) / plot));
      return Math.round(ratio * Math.max(1, steps - 1));
    }

    x(step) {
      const steps = this.analysis.values.length;
      return PAD.left + (this.width - PAD.left - PAD.right) * (steps > 1 ? step / (steps - 1) : 0);
    }

    y(value) { return PAD.top + (HEIGHT - PAD.top - PAD.bottom) * (1 - value); }

    draw() {
      if (!this.analysis) return;
      const { svg } = window.AgonViewer.helpers;
      const data = this.analysis;
      this.width = Math.max(240, this.chart.clientWidth);
      this.chart.textContent = "";
      const chart = svg("svg", {
        width: this.width, height: HEIGHT, viewBox: `0 0 ${this.width} ${HEIGHT}`,
        role: "img", "aria-labelledby": "story-title story-note", class: "story-svg",
      }, this.chart);
      for (const value of [0, 0.5, 1]) {
        svg("line", { x1: PAD.left, x2: this.width - PAD.right, y1: this.y(value), y2: this.y(value), class: value === 0.5 ? "story-even" : "story-grid" }, chart);
        svg("text", { x: PAD.left - 6, y: this.y(value) + 4, "text-anchor": "end", class: "story-axis" }, chart).textContent = percent(value);
      }
      const last = data.values.length - 1;
      const ticks = Math.max(1, Math.min(last, Math.floor((this.width - PAD.left) / 70)));
      for (const step of new Set(Array.from({ length: ticks + 1 }, (_, k) => Math.round((last * k) / ticks)))) {
        svg("text", { x: this.x(step), y: HEIGHT - 8, "text-anchor": "middle", class: "story-axis" }, chart).textContent = String(step);
      }
      for (let seat = 0; seat < data.seats; seat += 1) {
        const points = data.values.map((values, step) => `${this.x(step).toFixed(1)},${this.y(values[seat]).toFixed(1)}`);
        svg("polyline", { points: points.join(" "), class: "story-line", stroke: this.viewer.colors[seat] || "#555", "data-seat": seat }, chart);
      }
      for (const [seat, evaluations] of Object.entries(this.viewer.evaluations)) {
        const steps = this.viewer.turnSteps(Number(seat));
        evaluations.forEach((value, turn) => {
          if (value === null || steps[turn] === undefined) return;
          svg("circle", { cx: this.x(steps[turn]), cy: this.y(value), r: 3.5, class: "story-own", stroke: this.viewer.colors[seat] || "#555", "data-seat": seat }, chart);
        });
      }
      this.cursor = svg("line", { y1: PAD.top, y2: HEIGHT - PAD.bottom, class: "story-cursor" }, chart);
      data.drops.forEach((drop, number) => {
        const mark = svg("g", { class: "story-drop", tabindex: "0", role: "button", "data-step": drop.step, "aria-label": `Drop ${number + 1}: step ${drop.step}` }, chart);
        svg("circle", { cx: this.x(drop.step), cy: this.y(drop.after), r: 8, fill: this.viewer.colors[drop.seat] || "#555" }, mark);
        svg("text", { x: this.x(drop.step), y: this.y(drop.after) + 4, "text-anchor": "middle", class: "story-drop-no" }, mark).textContent = String(number + 1);
      });
      chart.addEventListener("click", (event) => {
        const mark = event.target.closest(".story-drop");
        if (mark) { this.viewer.jump(Number(mark.dataset.step)); return; }
        const box = chart.getBoundingClientRect();
        this.viewer.jump(this.stepAt(event.clientX - box.left));
      });
      chart.addEventListener("keydown", (event) => {
        const mark = event.target.closest(".story-drop");
        if (mark && (event.key === "Enter" || event.key === " ")) {
          event.preventDefault();
          this.viewer.jump(Number(mark.dataset.step));
        }
      });
      this.drawLegend();
      this.mark(this.viewer.index);
    }

    drawLegend() {
      const { html } = window.AgonViewer.helpers;
      this.legend.textContent = "";
      this.analysis.values[0].forEach((_, seat) => {
        const item = html("li", {}, this.legend);
        html("span", { class: `seat-chip seat-${seat % 6}`, "aria-hidden": "true" }, item);
        item.appendChild(document.createTextNode(`${seat} · ${this.viewer.labels[seat] || "seat " + seat}`));
        if (this.viewer.evaluations[seat]) html("span", { class: "muted" }, item, " (dots: its own evaluations, shown to you only)");
      });
    }

    listDrops() {
      const { html } = window.AgonViewer.helpers;
      const data = this.analysis;
      this.dropList.textContent = "";
      const heading = this.root.querySelector(".story-drops-title");
      heading.hidden = !data.drops.length;
      if (!data.drops.length) html("li", { class: "muted" }, this.dropList, "No move cost its mover 20 points or more.");
      data.drops.forEach((drop, number) => {
        const item = html("li", {}, this.dropList);
        const button = html("button", { type: "button", class: "link-button", "data-step": drop.step }, item);
        const who = this.viewer.labels[drop.seat] || `seat ${drop.seat}`;
        const change = data.seats === 2
          ? `${percent(drop.before)} → ${percent(drop.after)}`
          : `expected rank ${drop.expected_rank_before.toFixed(1)} → ${drop.expected_rank_after.toFixed(1)}`;
        button.textContent = `${number + 1}. step ${drop.step}: ${who}, ${change}`;
        button.addEventListener("click", () => this.viewer.jump(drop.step));
      });
    }

    mark(index) {
      if (!this.cursor || !this.analysis) return;
      const step = Math.min(index, this.analysis.values.length - 1);
      this.cursor.setAttribute("x1", this.x(step));
      this.cursor.setAttribute("x2", this.x(step));
      const values = this.analysis.values[step];
      if (values) {
        const parts = values.map((value, seat) => `${this.viewer.labels[seat] || "seat " + seat} ${percent(value)}`);
        this.root.querySelector(".story-now").textContent = `Step ${step}: ${parts.join(" · ")}`;
      }
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const root = document.getElementById("viewer-story");
    const viewer = window.AgonViewer && window.AgonViewer.instances[0];
    if (root && viewer && root.dataset.analysisUrl) window.AgonViewer.story = new Story(viewer, root);
  });
})();
