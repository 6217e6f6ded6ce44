// Attika: the hex map built during play, the buildings on it, shrines, cards and stacks.
//
// A map hex of the view is [q, r, landscape, seat, building]. Landscapes fill the hexes;
// a building is a disc in its owner's colour with its group's initial. Each cell keeps
// its SVG group and is redrawn only when it changes.
(function () {
  "use strict";
  const { svg, html, setAttr, setText, PlayersPanel } = window.AgonViewer.helpers;
  const { growingFits, boundsOf } = window.AgonZoom;

  const SIZE = 10;
  const SQRT3 = Math.sqrt(3);
  const CORNERS = Array.from({ length: 6 }, (_, k) => {
    const angle = (Math.PI / 180) * (60 * k - 30);
    return `${(SIZE * Math.cos(angle)).toFixed(2)},${(SIZE * Math.sin(angle)).toFixed(2)}`;
  }).join(" ");
  const LAND = { mountain: "#8b7765", hill: "#c7a568", forest: "#2f7a3a", water: "#3d86d6" };
  const BLANK = "#ece7dc";
  const GROUP_LETTER = { city: "C", defence: "D", shipping: "S", supply: "U", roads: "R", mint: "I", vineyard: "V" };

  function pixel(q, r) { return [SIZE * SQRT3 * (q + r / 2), -SIZE * 1.5 * r]; }
  function plural(count, word) { return `${count} ${word}${count === 1 ? "" : "s"}`; }

  function makeHex(parent) {
    const group = svg("g", { class: "hex" }, parent);
    const shape = svg("polygon", { points: CORNERS, stroke: "#ffffff", "stroke-width": "0.8" }, group);
    const disc = svg("circle", { r: "6.2", stroke: "#ffffff", "stroke-width": "1.2" }, group);
    const label = svg("text", { "text-anchor": "middle", y: "2.6", "font-size": "7", "font-weight": "700", fill: "#ffffff" }, group);
    return { group, shape, disc, label, signature: "" };
  }

  window.AgonViewer.register("attika", (container, ctx) => {
    const panel = new PlayersPanel(container, ctx);
    const info = html("p", { class: "hand" }, container, "");
    const card = html("div", { class: "board-card" }, container);
    const map = svg("svg", { class: "board-svg", role: "img", "aria-label": "The map of Attika" }, card);
    const zoom = ctx.zoom(map, { minScale: 1.4 });
    let fits = [];
    const layer = svg("g", {}, map);
    const shrines = svg("g", {}, map);
    const overlay = svg("g", { fill: "none", visibility: "hidden" }, map);
    svg("polygon", { points: CORNERS, stroke: "#1c1d21", "stroke-width": "3.4" }, overlay);
    svg("polygon", { points: CORNERS, stroke: "#ffd23f", "stroke-width": "1.7" }, overlay);
    const hands = html("div", { class: "hand" }, container);
    const legend = html("p", { class: "legend" }, container);
    for (const [name, fill] of Object.entries({ ...LAND, blank: BLANK })) {
      const item = html("span", {}, legend);
      html("i", { style: `background:${fill}` }, item);
      item.appendChild(document.createTextNode(name));
    }
    html("span", {}, legend, "discs: buildings in their owner's colour (C city, D defence, S shipping, U supply, R roads, I mint, V vineyard) · ☆ shrine");
    const nodes = new Map();
    let shrineKey = "";

    return {
      // The map as far as it has grown at each step, at least some seven hexes across.
      prepare(views) {
        const bounds = views.map((view) => boundsOf([...view.hexes, ...view.shrines].map(([q, r]) => pixel(q, r))));
        fits = growingFits(bounds, { margin: SIZE + 4, minWidth: 7 * SQRT3 * SIZE, minHeight: 6 * 1.5 * SIZE });
      },
      render(view, step, index) {
        const marked = (step.mark && step.mark.cells) || [];
        if (fits[index]) zoom.fit(fits[index], marked.length ? pixel(marked[0][0], marked[0][1]) : null);
        panel.update(view, (seat) => {
          const s = view.seats[seat];
          const parts = [`${plural(s.hand_size, "card")}`, `board: ${s.board.join(", ") || "empty"}`, `stacks ${s.stack_sizes.join("/")}`];
          if (s.amphorae) parts.push(plural(s.amphorae, "amphora").replace("amphoras", "amphorae"));
          if (s.colonies > 1) parts.push(`${s.colonies} colonies`);
          if (view.winner === seat) parts.push(`won (${view.win_reason})`);
          return parts.join(" · ");
        });
        const discard = Object.entries(view.discard).filter(([, n]) => n).map(([name, n]) => `${n} ${name}`).join(", ") || "empty";
        const pending = view.pending.kind ? ` Now: ${view.pending.kind}${view.pending.building ? ` (${view.pending.building})` : ""}.` : "";
        setText(info, view.over
          ? "Game over."
          : `Deck ${view.deck} cards · discard: ${discard} · ${view.tiles_left} map tiles left · ${view.amphora_supply} amphorae in supply.${pending}`);
        const seen = new Set();
        for (const [q, r, land, owner, building] of view.hexes) {
          const key = `${q},${r}`;
          seen.add(key);
          let node = nodes.get(key);
          if (!node) {
            node = makeHex(layer);
            nodes.set(key, node);
          }
          const signature = `${land},${owner},${building}`;
          if (node.signature === signature) continue;
          node.signature = signature;
          const [x, y] = pixel(q, r);
          setAttr(node.group, "transform", `translate(${x.toFixed(2)} ${y.toFixed(2)})`);
          setAttr(node.group, "data-q", q);
          setAttr(node.group, "data-r", r);
          setAttr(node.shape, "fill", land ? LAND[land] : BLANK);
          if (owner === null) {
            setAttr(node.disc, "visibility", "hidden");
            setText(node.label, "");
            setAttr(node.group, "data-building", "");
          } else {
            setAttr(node.disc, "visibility", "visible");
            setAttr(node.disc, "fill", ctx.colors[owner]);
            setText(node.label, GROUP_LETTER[view.groups[building]] || "?");
            setAttr(node.group, "data-building", building);
          }
        }
        for (const [key, node] of nodes) {
          if (!seen.has(key)) {
            node.group.remove();
            nodes.delete(key);
          }
        }
        setAttr(map, "data-buildings", view.hexes.filter((hex) => hex[3] !== null).length);
        const key = JSON.stringify(view.shrines);
        if (key !== shrineKey) {
          shrineKey = key;
          shrines.textContent = "";
          for (const [q, r] of view.shrines) {
            const [x, y] = pixel(q, r);
            const group = svg("g", { transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})`, class: "shrine" }, shrines);
            svg("polygon", { points: CORNERS, fill: "#fff8e1", stroke: "#7a4f00", "stroke-width": "1.2" }, group);
            const star = svg("text", { "text-anchor": "middle", y: "3", "font-size": "9", fill: "#7a4f00" }, group);
            star.textContent = "☆";
          }
        }
        const cells = (step.mark && step.mark.cells) || [];
        if (cells.length) {
          const [x, y] = pixel(cells[0][0], cells[0][1]);
          setAttr(overlay, "transform", `translate(${x.toFixed(2)} ${y.toFixed(2)})`);
          setAttr(overlay, "visibility", "visible");
        } else {
          setAttr(overlay, "visibility", "hidden");
        }
        const revealed = view.seats.some((s) => s.hand !== null);
        setText(hands, revealed
          ? view.seats.map((s, seat) => `${seat}: cards ${Object.entries(s.hand).filter(([, n]) => n).map(([name, n]) => `${n} ${name}`).join(", ") || "none"}`).join("  |  ")
          : "");
      },
    };
  });
})();
