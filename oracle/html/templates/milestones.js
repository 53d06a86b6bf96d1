"use strict";
// Milestones: the triangular map from the data (points with their numbers, bush triangles)
// with roads, milestones, houses, marketplaces, flour and bonus tiles; each player's loop.
RENDERERS.milestones = function (st, L) {
  const seats = Object.keys(st.players);
  const unit = 46, pad = 24, h = Math.sqrt(3) / 2;
  const xy = {};
  let maxX = 0, maxY = 0;
  for (const name of Object.keys(L.points)) {
    const [q, r] = name.split(",").map(Number);
    xy[name] = [pad + (q + r / 2) * unit, pad + r * h * unit];
    maxX = Math.max(maxX, xy[name][0]);
    maxY = Math.max(maxY, xy[name][1]);
  }
  const corners = (tri) => (L.triangles[tri] || []).map((p) => xy[p].join(",")).join(" ");
  const centre = (tri) => {
    const ps = (L.triangles[tri] || []).map((p) => xy[p]);
    return [ps.reduce((a, p) => a + p[0], 0) / 3, ps.reduce((a, p) => a + p[1], 0) / 3];
  };
  const board = st.board;
  let out = "";
  for (const tri of Object.keys(L.triangles)) {
    const bush = L.bushes.includes(tri);
    out += el("polygon", {points: corners(tri), fill: bush ? "#cfe8b8" : "#f7f3e8", stroke: "#ddd4c0",
      class: bush ? "bush" : null, "data-triangle": tri});
  }
  for (const road of board.roads) {
    const [a, b] = road.split("|");
    out += el("line", {x1: xy[a][0], y1: xy[a][1], x2: xy[b][0], y2: xy[b][1], stroke: "#7a4b1e",
      "stroke-width": 6, "stroke-linecap": "round", class: "road", "data-edge": road});
  }
  for (const tri of board.houses) {
    const [cx, cy] = centre(tri);
    out += el("polygon", {points: [[cx - 7, cy + 6], [cx + 7, cy + 6], [cx + 7, cy - 2], [cx, cy - 9], [cx - 7, cy - 2]]
      .map((p) => p.join(",")).join(" "), fill: "#b03a2e", stroke: "#000", class: "house", "data-triangle": tri});
  }
  for (const [tri, kind] of Object.entries(board.bonus_tiles)) {
    const [cx, cy] = centre(tri);
    out += el("rect", {x: cx - 9, y: cy - 7, width: 18, height: 14, rx: 2, fill: "#fff", stroke: "#3a7a2a",
      class: "bonus-tile", "data-triangle": tri}, el("title", {}, esc(kind)));
    out += label(cx, cy + 4, kind.slice(0, 2), {"font-size": 9});
  }
  for (const [name, value] of Object.entries(L.points)) {
    const [x, y] = xy[name];
    out += el("circle", {cx: x, cy: y, r: 8, fill: "#fff", stroke: "#999", class: "point", "data-point": name});
    out += label(x, y + 4, name === L.start ? "M" : value === null ? "" : value, {"font-size": 10});
  }
  for (const p of board.milestones) {
    out += el("rect", {x: xy[p][0] - 4, y: xy[p][1] - 12, width: 8, height: 10, fill: "#666", class: "milestone",
      "data-point": p});
  }
  for (const p of board.marketplaces) {
    out += el("rect", {x: xy[p][0] - 9, y: xy[p][1] - 9, width: 18, height: 18, fill: "none", stroke: "#1f4e9c",
      "stroke-width": 3, class: "marketplace", "data-point": p});
  }
  for (const p of board.flour) {
    out += el("circle", {cx: xy[p][0] + 9, cy: xy[p][1] - 9, r: 4, fill: "#f1e3b0", stroke: "#7a6a30",
      class: "flour", "data-point": p});
  }
  const status = "phase " + st.phase + (st.current ? " · to act: " + st.current : "") +
    " · supply: " + counts(st.supply) + (st.end_trigger ? " · end: " + st.end_trigger : "");
  const table = playerTable(["player", "loop", "coins", "goods", "VP"], seats.map((p) => {
    const ps = st.players[p];
    return [swatch(p, seats), loop(ps, L.loop, colour(p, seats)), el("span", {class: "coins"}, ps.coins),
      counts(ps.goods), el("span", {class: "vp"}, ps.vp)];
  }));
  return {board: svg(maxX + pad + 10, maxY + pad, out), players: el("div", {class: "status"}, esc(status)) + table};
};

// A player's board: the loop of spaces in a ring, the workers on W1..W8 and the pawn.
function loop(ps, spaces, fill) {
  const size = 150, c = size / 2, radius = 56;
  let out = "";
  spaces.forEach((space, i) => {
    const a = (i / spaces.length) * 2 * Math.PI - Math.PI / 2;
    const x = c + radius * Math.cos(a), y = c + radius * Math.sin(a);
    const worker = ps.workers[space];
    out += el("circle", {cx: x, cy: y, r: 14, fill: worker ? (worker.covered ? "#ccc" : "#fdf6d8") : "#fff",
      stroke: "#888", class: worker ? "worker" : "loop-space", "data-space": space},
      el("title", {}, esc(space + (worker ? ": " + worker.kind + " " + worker.number : ""))));
    out += label(x, y + 4, worker ? worker.kind.slice(0, 2) + worker.number : space.slice(0, 3), {"font-size": 9});
    if (ps.position === space) {
      out += el("circle", {cx: x, cy: y, r: 17, fill: "none", stroke: fill, "stroke-width": 4, class: "pawn"});
    }
  });
  return svg(size, size, out);
}
