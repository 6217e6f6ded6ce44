// Megalopolis: the tiles on the table with the tokens on them, supplies, hands, scores.
//
// A tile of the view is [serial, x, y, kind, face_up, tokens]. A face-up tile shows its
// kind's abbreviation (silver-bordered kinds with a grey double edge, bonus points in the
// corner); a face-down one is dark (its kind in italics once the match is over). Tokens
// are dots in their owners' colours. Tiles are keyed by serial, so a moved tile moves.
(function () {
  "use strict";
  const { svg, html, setAttr, setText, PlayersPanel } = window.AgonViewer.helpers;
  const { growingFits, boundsOf } = window.AgonZoom;

  const CELL = 34;
  const FILLS = ["#dbeafe", "#fde7c8", "#dcfce7", "#f3e8ff", "#fee2e2", "#e0f2fe", "#fef9c3", "#ede9fe", "#ffedd5", "#d1fae5", "#fce7f3"];

  function pixel(x, y) { return [x * CELL, -y * CELL]; }
  function plural(count, word) { return `${count} ${word}${count === 1 ? "" : "s"}`; }
  function fillOf(kind) {
    let hash = 0;
    for (const char of kind) hash = (hash * 31 + char.charCodeAt(0)) % 9973;
    return FILLS[hash % FILLS.length];
  }

  function makeTile(parent) {
    const group = svg("g", { class: "tile" }, parent);
    const square = svg("rect", { x: -CELL / 2 + 1, y: -CELL / 2 + 1, width: CELL - 2, height: CELL - 2, rx: "3" }, group);
    const label = svg("text", { "text-anchor": "middle", y: "-1", "font-size": "8.5", "font-weight": "700" }, group);
    const bonus = svg("text", { "text-anchor": "end", x: CELL / 2 - 3, y: -CELL / 2 + 8, "font-size": "6" }, group);
    const tokens = svg("g", {}, group);
    return { group, square, label, bonus, tokens, signature: "" };
  }

  window.AgonViewer.register("megalopolis", (container, ctx) => {
    const panel = new PlayersPanel(container, ctx);
    const info = html("p", { class: "hand" }, container, "");
    const card = html("div", { class: "board-card" }, container);
    const board = svg("svg", { class: "board-svg", role: "img", "aria-label": "The city" }, card);
    // A label at least ~9 px high: a big city on a phone shows around the last move.
    const zoom = ctx.zoom(board, { minScale: 1.1 });
    let fits = [];
    const layer = svg("g", {}, board);
    const overlay = svg("g", { fill: "none", visibility: "hidden" }, board);
    svg("rect", { x: -CELL / 2, y: -CELL / 2, width: CELL, height: CELL, rx: "3", stroke: "#1c1d21", "stroke-width": "4" }, overlay);
    svg("rect", { x: -CELL / 2, y: -CELL / 2, width: CELL, height: CELL, rx: "3", stroke: "#ffd23f", "stroke-width": "2" }, overlay);
    const hands = html("div", { class: "hand" }, container);
    const legend = html("p", { class: "legend" }, container);
    const nodes = new Map();
    let legendKey = "";

    function drawTokens(group, tokens) {
      group.textContent = "";
      const dots = [];
      tokens.forEach((count, seat) => { for (let k = 0; k < count; k += 1) dots.push(seat); });
      dots.slice(0, 6).forEach((seat, k) => {
        svg("circle", { cx: -11 + (k % 3) * 11, cy: 7 + Math.floor(k / 3) * 6.5, r: "3.2", fill: ctx.colors[seat], stroke: "#ffffff", "stroke-width": "0.8" }, group);
      });
      if (dots.length > 6) {
        const more = svg("text", { x: CELL / 2 - 3, y: CELL / 2 - 3, "text-anchor": "end", "font-size": "6" }, group);
        more.textContent = `+${dots.length - 6}`;
      }
    }

    return {
      // The city as far as it has grown at each step, centred, at least four tiles across.
      prepare(views) {
        const bounds = views.map((view) => boundsOf(view.tiles.map(([, x, y]) => pixel(x, y))));
        fits = growingFits(bounds, { margin: CELL / 2 + 6, minWidth: 4 * CELL, minHeight: 4 * CELL });
      },
      render(view, step, index) {
        const marked = (step.mark && step.mark.cells) || [];
        if (fits[index]) zoom.fit(fits[index], marked.length ? pixel(marked[0][0], marked[0][1]) : null);
        panel.update(view, (seat) => {
          const [groups, bonus, silver] = view.breakdown[seat];
          return `${plural(view.tokens[seat], "token")} left · ${plural(view.hand_sizes[seat], "tile")} in hand · groups ${groups}, bonus ${bonus}, silver ${silver}`;
        });
        const resolving = view.resolving.length ? ` Resolving: ${view.resolving.map((frame) => frame[0].replace("_", " ")).join(" → ")}.` : "";
        const last = view.final_round ? " Last round." : "";
        setText(info, view.over
          ? `Game over (${(view.end_reason || "").replace(/_/g, " ")}).`
          : `Turn ${view.turns_played + 1} · deck ${view.deck} tiles.${resolving}${last}`);
        const seen = new Set();
        for (const [serial, x, y, kind, faceUp, tokens] of view.tiles) {
          seen.add(serial);
          let node = nodes.get(serial);
          if (!node) {
            node = makeTile(layer);
            nodes.set(serial, node);
          }
          const signature = `${x},${y},${kind},${faceUp},${tokens.join(",")}`;
          if (node.signature === signature) continue;
          node.signature = signature;
          const [px, py] = pixel(x, y);
          setAttr(node.group, "transform", `translate(${px} ${py})`);
          setAttr(node.group, "data-x", x);
          setAttr(node.group, "data-y", y);
          setAttr(node.group, "data-kind", kind || "");
          const about = kind ? view.kinds[kind] : null;
          if (faceUp) {
            setAttr(node.square, "fill", fillOf(kind));
            setAttr(node.square, "stroke", about && about[3] ? "#6b6f78" : "#9aa0a6");
            setAttr(node.square, "stroke-width", about && about[3] ? "3" : "1");
            setAttr(node.label, "fill", "#1c1d21");
            setAttr(node.label, "font-style", "normal");
            setText(node.label, about ? about[0] : "?");
            setText(node.bonus, about && about[2] ? `+${about[2]}` : "");
          } else {
            setAttr(node.square, "fill", "#3a3f4b");
            setAttr(node.square, "stroke", "#1c1d21");
            setAttr(node.square, "stroke-width", "1");
            setAttr(node.label, "fill", "#e5e7eb");
            setAttr(node.label, "font-style", "italic");
            setText(node.label, about ? about[0] : "?");
            setText(node.bonus, "");
          }
          drawTokens(node.tokens, tokens);
        }
        for (const [serial, node] of nodes) {
          if (!seen.has(serial)) {
            node.group.remove();
            nodes.delete(serial);
          }
        }
        setAttr(board, "data-tiles", view.tiles.length);
        const cells = (step.mark && step.mark.cells) || [];
        if (cells.length) {
          const [px, py] = pixel(cells[0][0], cells[0][1]);
          setAttr(overlay, "transform", `translate(${px} ${py})`);
          setAttr(overlay, "visibility", "visible");
        } else {
          setAttr(overlay, "visibility", "hidden");
        }
        setText(hands, view.hands
          ? view.hands.map((hand, seat) => `${seat}: ${hand.map((kind) => view.kinds[kind][0]).join(" ") || "empty"}`).join("  |  ")
          : "");
        const kinds = Object.keys(view.kinds).join(",");
        if (kinds !== legendKey) {
          legendKey = kinds;
          legend.textContent = "";
          for (const [abbreviation, title, bonus, silver] of Object.values(view.kinds)) {
            html("span", { title: `${title}${bonus ? `, ${bonus} bonus point${bonus > 1 ? "s" : ""}` : ""}${silver ? ", silver border" : ""}` }, legend, `${abbreviation} ${title}`);
          }
          html("span", {}, legend, "thick grey edge: silver border · +n: bonus points · dark: face down · dots: tokens");
        }
      },
    };
  });
})();
