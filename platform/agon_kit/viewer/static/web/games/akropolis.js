// Akropolis: every player's city as SVG hexes, the Construction Site, stones and scores.
//
// A hex of the view is [q, r, level, code, tile]: code H M B T G for districts (house,
// market, barracks, temple, garden), lower case for plazas, Q for quarries. Each city
// keeps one <g> per occupied cell and changes it only when that cell changes; the tile
// just placed is outlined by an overlay of three hexes.
(function () {
  "use strict";
  const { svg, html, setAttr, setText, PlayersPanel, nameLabel } = window.AgonViewer.helpers;
  const { growingFits, boundsOf } = window.AgonZoom;

  const SIZE = 10;
  const SQRT3 = Math.sqrt(3);
  const CORNERS = Array.from({ length: 6 }, (_, k) => {
    const angle = (Math.PI / 180) * (60 * k - 30);
    return `${(SIZE * Math.cos(angle)).toFixed(2)},${(SIZE * Math.sin(angle)).toFixed(2)}`;
  }).join(" ");
  const INNER = Array.from({ length: 6 }, (_, k) => {
    const angle = (Math.PI / 180) * (60 * k - 30);
    return `${(SIZE * 0.72 * Math.cos(angle)).toFixed(2)},${(SIZE * 0.72 * Math.sin(angle)).toFixed(2)}`;
  }).join(" ");
  const DIRECTIONS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
  const COLOR_OF = { H: "house", M: "market", B: "barracks", T: "temple", G: "garden" };
  const FILL = { house: "#2f66c9", market: "#e5b31c", barracks: "#cf3a2b", temple: "#7a4bc8", garden: "#2f9a4c", quarry: "#a3a6ad" };
  const INK = { house: "#ffffff", market: "#1c1d21", barracks: "#ffffff", temple: "#ffffff", garden: "#ffffff", quarry: "#1c1d21" };
  const LETTERS = { house: "H", market: "M", barracks: "B", temple: "T", garden: "G" };

  function pixel(q, r) {
    return [SIZE * SQRT3 * (q + r / 2), -SIZE * 1.5 * r];
  }

  function describe(code) {
    if (code === "Q") return { kind: "quarry", color: "quarry" };
    const upper = code.toUpperCase();
    return { kind: code === upper ? "district" : "plaza", color: COLOR_OF[upper] };
  }

  function stars(count) { return "★".repeat(count); }
  function plural(count, word) { return `${count} ${word}${count === 1 ? "" : "s"}`; }

  // One hex group: its outline, an inner ring for plazas, a label (level or stars) and
  // for plazas the level below the stars.
  function makeHex(parent) {
    const group = svg("g", { class: "hex" }, parent);
    const shape = svg("polygon", { points: CORNERS, "stroke-linejoin": "round" }, group);
    const ring = svg("polygon", { points: INNER, fill: "none", "stroke-width": "1.2" }, group);
    const label = svg("text", { "text-anchor": "middle", "font-size": "7", "font-weight": "700" }, group);
    const sub = svg("text", { "text-anchor": "middle", "font-size": "4.6", y: "7" }, group);
    return { group, shape, ring, label, sub, signature: "" };
  }

  function drawHex(node, hex, plazaStars) {
    const [q, r, level, code, tile] = hex;
    const signature = `${q},${r},${level},${code},${tile}`;
    if (node.signature === signature) return;
    node.signature = signature;
    const [x, y] = pixel(q, r);
    const info = describe(code);
    setAttr(node.group, "transform", `translate(${x.toFixed(2)} ${y.toFixed(2)})`);
    setAttr(node.group, "data-q", q);
    setAttr(node.group, "data-r", r);
    setAttr(node.group, "data-level", level);
    setAttr(node.group, "data-code", code);
    setAttr(node.shape, "fill", FILL[info.color]);
    setAttr(node.shape, "stroke", level > 1 ? "#1c1d21" : "#ffffff");
    setAttr(node.shape, "stroke-width", level > 1 ? String(0.6 + 0.7 * (level - 1)) : "0.8");
    const ink = INK[info.color];
    if (info.kind === "plaza") {
      setAttr(node.ring, "stroke", ink);
      setAttr(node.ring, "visibility", "visible");
      setAttr(node.label, "font-size", "5.4");
      setAttr(node.label, "y", "1.2");
      setText(node.label, stars(plazaStars[info.color] || 1));
      setText(node.sub, String(level));
      setAttr(node.sub, "y", "7");
    } else {
      setAttr(node.ring, "visibility", "hidden");
      setAttr(node.label, "font-size", "7.5");
      setAttr(node.label, "y", "4.2");
      setText(node.label, String(level));
      setText(node.sub, info.kind === "quarry" ? "" : LETTERS[info.color]);
      setAttr(node.sub, "y", "-3.6");
    }
    setAttr(node.label, "fill", ink);
    setAttr(node.sub, "fill", ink);
  }

  class City {
    constructor(parent, seat, ctx) {
      this.card = html("div", { class: "board-card", "data-city": seat }, parent);
      const title = html("h4", {}, this.card);
      const name = html("span", {}, title, `${seat} · `);
      nameLabel(name, ctx.labels[seat]);
      this.summary = html("span", { class: "muted" }, title, "");
      this.svg = svg("svg", { class: "board-svg", role: "img", "data-seat": seat, "aria-label": `City of ${ctx.labels[seat]}` }, this.card);
      this.zoom = ctx.zoom(this.svg, { minScale: 1.4 });
      this.layer = svg("g", {}, this.svg);
      this.overlay = svg("g", { class: "placed", fill: "none", "stroke-linejoin": "round" }, this.svg);
      // A dark edge under a bright one: the tile just placed stands out on any colour.
      this.outlines = [0, 1, 2].map(() => {
        const group = svg("g", { visibility: "hidden" }, this.overlay);
        svg("polygon", { points: CORNERS, stroke: "#1c1d21", "stroke-width": "3.6" }, group);
        svg("polygon", { points: CORNERS, stroke: "#ffd23f", "stroke-width": "1.8" }, group);
        return group;
      });
      this.breakdown = html("p", { class: "hand" }, this.card, "");
      this.nodes = new Map();
    }

    render(city, view, seat, mark) {
      const seen = new Set();
      for (const hex of city.hexes) {
        const key = `${hex[0]},${hex[1]}`;
        seen.add(key);
        let node = this.nodes.get(key);
        if (!node) {
          node = makeHex(this.layer);
          this.nodes.set(key, node);
        }
        drawHex(node, hex, view.plaza_stars);
      }
      for (const [key, node] of this.nodes) {
        if (!seen.has(key)) {
          node.group.remove();
          this.nodes.delete(key);
        }
      }
      setAttr(this.svg, "data-hexes", city.hexes.length);
      const placed = mark && mark.seat === seat ? mark.cells : null;
      this.outlines.forEach((outline, k) => {
        if (placed && placed[k]) {
          const [x, y] = pixel(placed[k][0], placed[k][1]);
          setAttr(outline, "transform", `translate(${x.toFixed(2)} ${y.toFixed(2)})`);
          setAttr(outline, "visibility", "visible");
        } else {
          setAttr(outline, "visibility", "hidden");
        }
      });
      this.card.classList.toggle("to-move", view.current === seat);
      setText(this.summary, `${plural(view.scores[seat], "point")} · ${plural(view.stones[seat], "stone")}`);
      const parts = Object.entries(view.breakdown[seat]).map(([color, [value, starCount]]) => `${LETTERS[color]} ${value}×${starCount}`);
      setText(this.breakdown, parts.join("  ·  "));
    }
  }

  function siteTile(parent, entry, cost) {
    const [tile, codes] = entry;
    const box = html("div", { class: "site-tile", "data-tile": tile }, parent);
    const picture = svg("svg", { viewBox: "-11 -26 40 38", role: "img", "aria-label": `Tile ${tile}, cost ${cost}` }, box);
    const cells = [[0, 0], DIRECTIONS[0], DIRECTIONS[1]];
    codes.forEach((code, k) => {
      const info = describe(code);
      const [x, y] = pixel(cells[k][0], cells[k][1]);
      const group = svg("g", { transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})` }, picture);
      svg("polygon", { points: CORNERS, fill: FILL[info.color], stroke: "#ffffff", "stroke-width": "0.8" }, group);
      if (info.kind === "plaza") {
        svg("polygon", { points: INNER, fill: "none", stroke: INK[info.color], "stroke-width": "1.2" }, group);
        const star = svg("text", { "text-anchor": "middle", y: "2", "font-size": "6", fill: INK[info.color] }, group);
        star.textContent = "★";
      }
    });
    html("span", {}, box, cost === 0 ? "free" : `${cost} stone${cost > 1 ? "s" : ""}`);
  }

  window.AgonViewer.register("akropolis", (container, ctx) => {
    const panel = new PlayersPanel(container, ctx);
    const siteTitle = html("p", { class: "hand" }, container, "");
    const site = html("div", { class: "site-strip", "aria-label": "Construction Site" }, container);
    const grid = html("div", { class: "board-grid" }, container);
    const cities = ctx.labels.map((_, seat) => new City(grid, seat, ctx));
    const legend = html("p", { class: "legend" }, container);
    for (const [name, fill] of Object.entries(FILL)) {
      const item = html("span", {}, legend);
      html("i", { style: `background:${fill}` }, item);
      item.appendChild(document.createTextNode(name));
    }
    html("span", {}, legend, "digit: level (dark edge from level 2) · letter: district · ★: plaza and its stars · yellow outline: the tile just placed");
    let siteKey = "";
    let fits = [];

    return {
      // Each city as far as it has grown at each step, centred in its panel, all at the
      // scale of the largest then (so that cities compare at a glance).
      prepare(views) {
        const perCity = cities.map((_, seat) => growingFits(
          views.map((view) => boundsOf(view.cities[seat].hexes.map((hex) => pixel(hex[0], hex[1])))),
          { margin: SIZE + 3, minWidth: 5 * SQRT3 * SIZE, minHeight: 5 * SQRT3 * SIZE },
        ));
        // The panels take the shape the cities end with (from square to twice as wide as
        // high), so that the cities fill them; that shape does not change from step to step.
        const last = views.length - 1;
        const endWidth = Math.max(...perCity.map((boxes) => boxes[last][2]));
        const endHeight = Math.max(...perCity.map((boxes) => boxes[last][3]));
        const aspect = Math.min(2, Math.max(1, endWidth / endHeight));
        cities.forEach((city) => { city.svg.style.aspectRatio = String(aspect.toFixed(3)); });
        fits = views.map((_, index) => {
          let width = Math.max(...perCity.map((boxes) => boxes[index][2]));
          let height = Math.max(...perCity.map((boxes) => boxes[index][3]));
          if (width / height > aspect) height = width / aspect;
          else width = height * aspect;
          return perCity.map((boxes) => {
            const [x, y, w, h] = boxes[index];
            return [x + w / 2 - width / 2, y + h / 2 - height / 2, width, height];
          });
        });
      },
      render(view, step, index) {
        if (fits[index]) {
          cities.forEach((city, seat) => {
            const placed = step.mark && step.mark.seat === seat ? step.mark.cells : null;
            city.zoom.fit(fits[index][seat], placed ? pixel(placed[0][0], placed[0][1]) : null);
          });
        }
        panel.update(view, (seat) => `${plural(view.stones[seat], "stone")} · ${plural(view.cities[seat].tiles, "tile")}`);
        setText(siteTitle, view.over
          ? "Game over."
          : `Construction Site — ${view.stacks_left} stack${view.stacks_left === 1 ? "" : "s"} left; a tile costs its position in stones.`);
        const key = JSON.stringify(view.site);
        if (key !== siteKey) {
          siteKey = key;
          site.textContent = "";
          view.site.forEach((entry, cost) => siteTile(site, entry, cost));
        }
        view.cities.forEach((city, seat) => cities[seat].render(city, view, seat, step.mark));
      },
    };
  });
})();
