"use strict";
// Palmyra: the open octagon/square lattice (cell "x,y": octagon when x + y is even) with the
// city centre, the land tiles, each player's legion and censor; coins and tiles in hand.
RENDERERS.palmyra = function (st, L) {
  const seats = Object.keys(st.players);
  const unit = 34, half = 0.65, side = 1 - half;
  const cells = new Set([...st.city, ...Object.keys(st.board)]);
  for (const p of seats) for (const at of [st.players[p].legion, st.players[p].censor]) if (at !== "centre") cells.add(at);
  const xs = [], ys = [];
  for (const c of cells) { const [x, y] = c.split(",").map(Number); xs.push(x); ys.push(y); }
  if (!xs.length) { xs.push(0); ys.push(0); }
  const minX = Math.min(...xs) - 1, minY = Math.min(...ys) - 1;
  const width = (Math.max(...xs) - minX + 1) * unit, height = (Math.max(...ys) - minY + 1) * unit;
  const at = (cell) => { const [x, y] = cell.split(",").map(Number); return [(x - minX) * unit, (y - minY) * unit, (x + y) % 2 === 0]; };
  // An octagon's long sides face the squares beside it, its short sides the octagons on its diagonals.
  function shape(cell, attrs) {
    const [cx, cy, octagon] = at(cell);
    const a = half * unit, b = (1 - half) * unit, s = side * unit;
    const points = octagon
      ? [[a, b], [b, a], [-b, a], [-a, b], [-a, -b], [-b, -a], [b, -a], [a, -b]]
      : [[s, s], [-s, s], [-s, -s], [s, -s]];
    return el("polygon", Object.assign({points: points.map(([dx, dy]) => (cx + dx) + "," + (cy + dy)).join(" "),
      "data-cell": cell}, attrs));
  }
  const LAND = {D: "#ecd08a", H: "#a9c47f", M: "#a7a29a"};
  let out = "";
  for (const cell of st.city) out += shape(cell, {fill: "#d9c3a5", stroke: "#7d6540", class: "city"});
  for (const [cell, code] of Object.entries(st.board)) {
    const [size, rest] = code.split(":");
    const [land, icon] = rest.split("+");
    out += shape(cell, {fill: LAND[land] || "#ccc", stroke: "#555", class: "tile", "data-tile": code},
    );
    const [cx, cy] = at(cell);
    if (icon) out += label(cx, cy + 4, icon, {"font-size": 10, "font-weight": "bold"});
    out = out.replace(/<\/polygon>$/, el("title", {}, esc(cell + ": " + L.sizes[size] + " " + (L.landscapes[land] || land) +
      (icon ? ", " + (L.icons[icon] || icon) : ""))) + "</polygon>");
  }
  const centre = st.city.length ? st.city[0] : "0,0";
  seats.forEach((p, i) => {
    const ps = st.players[p], fill = colour(p, seats);
    const legion = ps.legion === "centre" ? centre : ps.legion, censor = ps.censor === "centre" ? centre : ps.censor;
    const [lx, ly] = at(legion), [cx, cy] = at(censor);
    const dx = (i - (seats.length - 1) / 2) * 7;
    out += el("polygon", {points: [[lx + dx, ly - 13], [lx + dx - 5, ly - 4], [lx + dx + 5, ly - 4]].map((q) => q.join(",")).join(" "),
      fill: fill, stroke: "#000", class: "legion", "data-owner": p, "data-cell": ps.legion}, el("title", {}, esc(p + " legion")));
    out += el("circle", {cx: cx + dx, cy: cy + 9, r: 3.5, fill: fill, stroke: "#000", class: "censor",
      "data-owner": p, "data-cell": ps.censor}, el("title", {}, esc(p + " censor")));
  });
  const status = "phase " + st.phase + " · turn " + st.turn + (st.current ? " · to act: " + st.current : "") +
    " · bank " + (st.bank === null ? "unlimited" : st.bank) + (st.emperor ? " · emperor: " + st.emperor : "") + (st.end ? " · end: " + st.end : "");
  const table = playerTable(["player", "coins", "tiles in hand", "face down", "legion", "censor"], seats.map((p) => {
    const ps = st.players[p];
    return [swatch(p, seats), el("span", {class: "coins"}, ps.coins), esc(ps.supply.join(" ") || "-"),
      ps.face_down.length, esc(ps.legion), esc(ps.censor)];
  }));
  return {board: svg(Math.max(width, 360), height, out), players: el("div", {class: "status"}, esc(status)) + table};
};
