// Architekton: the checkerboard of landscapes and buildings, houses, the display, points.
//
// A landscape is a square of its terrain's colour; a building is four triangles, one per
// edge, each in the terrain that edge shows, with its owner's house as a dot in the
// middle. Each cell keeps its SVG group and is redrawn only when it changes.
(function () {
  "use strict";
  const { svg, html, setAttr, setText, PlayersPanel } = window.AgonViewer.helpers;
  const { growingFits, boundsOf } = window.AgonZoom;

  const CELL = 30;
  const TERRAIN = { water: "#3d86d6", mountain: "#8b7765", plain: "#e2c75e", forest: "#2f7a3a" };
  const TRIANGLES = [  // north, east, south, west, as points around the cell's centre
    `${-CELL / 2},${-CELL / 2} ${CELL / 2},${-CELL / 2} 0,0`,
    `${CELL / 2},${-CELL / 2} ${CELL / 2},${CELL / 2} 0,0`,
    `${CELL / 2},${CELL / 2} ${-CELL / 2},${CELL / 2} 0,0`,
    `${-CELL / 2},${CELL / 2} ${-CELL / 2},${-CELL / 2} 0,0`,
  ];

  function pixel(x, y) { return [x * CELL, -y * CELL]; }
  function plural(count, word) { return `${count} ${word}${count === 1 ? "" : "s"}`; }

  function makeCell(parent) {
    const group = svg("g", { class: "cell" }, parent);
    const square = svg("rect", { x: -CELL / 2, y: -CELL / 2, width: CELL, height: CELL, stroke: "#ffffff", "stroke-width": "1" }, group);
    const triangles = TRIANGLES.map((points) => svg("polygon", { points, stroke: "#ffffff", "stroke-width": "0.8" }, group));
    const house = svg("circle", { r: "5.5", stroke: "#ffffff", "stroke-width": "1.6" }, group);
    return { group, square, triangles, house, signature: "" };
  }

  window.AgonViewer.register("architekton", (container, ctx) => {
    const panel = new PlayersPanel(container, ctx);
    const info = html("p", { class: "hand" }, container, "");
    const display = html("div", { class: "site-strip", "aria-label": "Display" }, container);
    const card = html("div", { class: "board-card" }, container);
    const board = svg("svg", { class: "board-svg", role: "img", "aria-label": "The city" }, card);
    const zoom = ctx.zoom(board, { minScale: 1 });
    let fits = [];
    const layer = svg("g", {}, board);
    const overlay = svg("g", { fill: "none" }, board);
    const outlines = [0, 1].map(() => {
      const group = svg("g", { visibility: "hidden" }, overlay);
      svg("rect", { x: -CELL / 2, y: -CELL / 2, width: CELL, height: CELL, stroke: "#1c1d21", "stroke-width": "4" }, group);
      svg("rect", { x: -CELL / 2, y: -CELL / 2, width: CELL, height: CELL, stroke: "#ffd23f", "stroke-width": "2" }, group);
      return group;
    });
    const legend = html("p", { class: "legend" }, container);
    for (const [name, fill] of Object.entries(TERRAIN)) {
      const item = html("span", {}, legend);
      html("i", { style: `background:${fill}` }, item);
      item.appendChild(document.createTextNode(name));
    }
    html("span", {}, legend, "a building shows the terrain of each edge; the dot is its owner's house");
    const nodes = new Map();
    let displayKey = "";

    function drawCell(key, x, y, signature, draw) {
      let node = nodes.get(key);
      if (!node) {
        node = makeCell(layer);
        nodes.set(key, node);
      }
      if (node.signature === signature) return;
      node.signature = signature;
      const [px, py] = pixel(x, y);
      setAttr(node.group, "transform", `translate(${px} ${py})`);
      setAttr(node.group, "data-x", x);
      setAttr(node.group, "data-y", y);
      draw(node);
    }

    return {
      // The city as far as it has grown at each step, centred, at least five cells across.
      prepare(views) {
        const bounds = views.map((view) => boundsOf([...view.landscapes, ...view.buildings].map(([x, y]) => pixel(x, y))));
        fits = growingFits(bounds, { margin: CELL / 2 + 6, minWidth: 5 * CELL, minHeight: 5 * CELL });
      },
      render(view, step, index) {
        const marked = (step.mark && step.mark.cells) || [];
        if (fits[index]) zoom.fit(fits[index], marked.length ? pixel(marked[0][0], marked[0][1]) : null);
        panel.update(view, (seat) => {
          const parts = [plural(view.points[seat], "point"), `${plural(view.houses_in_supply[seat], "house")} left`];
          if (view.houses_removed[seat]) parts.push(`${view.houses_removed[seat]} removed`);
          parts.push(`largest group ${view.largest_groups[seat]}`);
          if (view.lost_early === seat) parts.push("lost");
          return parts.join(" · ");
        });
        const pending = view.pending.length
          ? ` Waiting for seat ${view.pending[0][1]}: ${view.pending[0][0] === "move_house" ? "move a house" : `remove the house at (${view.pending[0][2]}, ${view.pending[0][3]}) or lose ${view.pending[0][4]}`}.`
          : "";
        setText(info, view.over
          ? "Game over."
          : `Stage: ${view.stage.replace("_", " ")}. Piles: ${view.piles[0]} buildings, ${view.piles[1]} landscapes; reserve ${view.reserve[0]} + ${view.reserve[1]}.${pending}`);
        const key = JSON.stringify(view.display);
        if (key !== displayKey) {
          displayKey = key;
          display.textContent = "";
          for (const [tile, edges] of view.display.buildings) {
            const box = html("div", { class: "site-tile" }, display);
            const picture = svg("svg", { viewBox: `${-CELL / 2 - 1} ${-CELL / 2 - 1} ${CELL + 2} ${CELL + 2}`, role: "img", "aria-label": `Building ${tile}: ${edges.join(", ")}` }, box);
            edges.forEach((terrain, k) => svg("polygon", { points: TRIANGLES[k], fill: TERRAIN[terrain], stroke: "#ffffff", "stroke-width": "0.8" }, picture));
            html("span", {}, box, `#${tile}`);
          }
          for (const terrain of view.display.landscapes) {
            const box = html("div", { class: "site-tile" }, display);
            const picture = svg("svg", { viewBox: `${-CELL / 2 - 1} ${-CELL / 2 - 1} ${CELL + 2} ${CELL + 2}`, role: "img", "aria-label": `Landscape: ${terrain}` }, box);
            svg("rect", { x: -CELL / 2, y: -CELL / 2, width: CELL, height: CELL, fill: TERRAIN[terrain] }, picture);
            html("span", {}, box, terrain);
          }
        }
        const seen = new Set();
        for (const [x, y, terrain] of view.landscapes) {
          const cellKey = `${x},${y}`;
          seen.add(cellKey);
          drawCell(cellKey, x, y, `L${terrain}`, (node) => {
            setAttr(node.square, "fill", TERRAIN[terrain]);
            setAttr(node.square, "visibility", "visible");
            node.triangles.forEach((triangle) => setAttr(triangle, "visibility", "hidden"));
            setAttr(node.house, "visibility", "hidden");
          });
        }
        for (const [x, y, tile, rotation, edges, house] of view.buildings) {
          const cellKey = `${x},${y}`;
          seen.add(cellKey);
          drawCell(cellKey, x, y, `B${tile},${rotation},${house}`, (node) => {
            setAttr(node.square, "visibility", "hidden");
            node.triangles.forEach((triangle, k) => {
              setAttr(triangle, "fill", TERRAIN[edges[k]]);
              setAttr(triangle, "visibility", "visible");
            });
            if (house === null) {
              setAttr(node.house, "visibility", "hidden");
            } else {
              setAttr(node.house, "fill", ctx.colors[house]);
              setAttr(node.house, "visibility", "visible");
            }
          });
        }
        for (const [cellKey, node] of nodes) {
          if (!seen.has(cellKey)) {
            node.group.remove();
            nodes.delete(cellKey);
          }
        }
        setAttr(board, "data-tiles", view.landscapes.length + view.buildings.length);
        const cells = (step.mark && step.mark.cells) || [];
        outlines.forEach((outline, k) => {
          if (cells[k]) {
            const [px, py] = pixel(cells[k][0], cells[k][1]);
            setAttr(outline, "transform", `translate(${px} ${py})`);
            setAttr(outline, "visibility", "visible");
          } else {
            setAttr(outline, "visibility", "hidden");
          }
        });
      },
    };
  });
})();
