"use strict";
// Palmyra: the open octagon/square lattice (cell "x,y": octagon when x + y is even) with its
// x and y coordinates on the edges, the city centre, the land tiles, each player's legion and
// censor; a cell an event names but nothing covers is drawn empty (dashed); coins and tiles.
const LAND = {D: "#ecd08a", H: "#a9c47f", M: "#a7a29a"};

// The cells the events name (a tile placed, a piece moved), drawn even when empty.
function palmyraCells(events) {
  const out = [];
  for (const e of events) {
    if (!e || typeof e !== "object") continue;
    if (e.type === "place_tile" && isText(e.cell)) out.push(e.cell);
    if (e.type === "move_piece" && isText(e.to) && e.to !== "centre") out.push(e.to);
  }
  return out.filter((c) => /^-?\d+,-?\d+$/.test(c));
}

GAMES.palmyra = {
  draw: function (st, L, events) {
    const seats = Object.keys(st.players);
    const unit = 44, half = 0.65, side = 1 - half, ruler = 20;
    const named = palmyraCells(events || []);
    const cells = new Set([...st.city, ...Object.keys(st.board), ...named]);
    for (const p of seats) for (const at of [st.players[p].legion, st.players[p].censor]) if (at !== "centre") cells.add(at);
    const xs = [], ys = [];
    for (const c of cells) { const [x, y] = c.split(",").map(Number); xs.push(x); ys.push(y); }
    if (!xs.length) { xs.push(0); ys.push(0); }
    const minX = Math.min(...xs) - 1, minY = Math.min(...ys) - 1, maxX = Math.max(...xs) + 1, maxY = Math.max(...ys) + 1;
    const width = (maxX - minX) * unit + ruler + unit / 2, height = (maxY - minY) * unit + ruler + unit / 2;
    const at = (cell) => {
      const [x, y] = cell.split(",").map(Number);
      return [ruler + (x - minX) * unit, ruler + (y - minY) * unit, (x + y) % 2 === 0];
    };
    // An octagon's long sides face the squares beside it, its short sides the octagons on its diagonals.
    function shape(cell, attrs, title) {
      const [cx, cy, octagon] = at(cell);
      const a = half * unit, b = (1 - half) * unit, s = side * unit;
      const points = octagon
        ? [[a, b], [b, a], [-b, a], [-a, b], [-a, -b], [-b, -a], [b, -a], [a, -b]]
        : [[s, s], [-s, s], [-s, -s], [s, -s]];
      return el("polygon", Object.assign({points: points.map(([dx, dy]) => (cx + dx) + "," + (cy + dy)).join(" "),
        "data-cell": cell}, attrs), tip(title));
    }
    let out = "";
    for (let x = minX + 1; x < maxX; x++) out += label(ruler + (x - minX) * unit, 12, x, {"font-size": 9, fill: "#777", class: "coord"});
    for (let y = minY + 1; y < maxY; y++) out += label(10, ruler + (y - minY) * unit + 3, y, {"font-size": 9, fill: "#777", class: "coord"});
    out += label(ruler - 10, 12, "y\\x", {"font-size": 8, fill: "#999"});
    for (const cell of st.city) out += shape(cell, {fill: "#d9c3a5", stroke: "#7d6540", class: "cell city"}, cell + ": city centre");
    for (const [cell, code] of Object.entries(st.board)) {
      const [size, rest] = code.split(":");
      const [land, icon] = (rest || "").split("+");
      const title = cell + ": " + (L.sizes[size] || size) + " " + (L.landscapes[land] || land) +
        (icon ? ", " + (L.icons[icon] || icon) : "") + " (" + code + ")";
      const [cx, cy] = at(cell);
      out += el("g", {class: "tile-group"}, tip(title) +
        shape(cell, {fill: LAND[land] || "#ccc", stroke: "#555", class: "cell tile", "data-tile": code,
          "data-path": "board." + cell}, title) +
        (icon ? label(cx, cy + 4, icon, {"font-size": 10, "font-weight": "bold"}) : ""));
    }
    for (const cell of new Set(named)) {
      if (!st.city.includes(cell) && !(cell in st.board)) {
        out += shape(cell, {fill: "#fff", stroke: "#999", "stroke-dasharray": "3 2", class: "cell empty-cell"},
          cell + ": no tile");
      }
    }
    const centre = st.city.length ? st.city[0] : "0,0";
    seats.forEach((p, i) => {
      const ps = st.players[p], fill = colour(p, seats);
      const legion = ps.legion === "centre" ? centre : ps.legion, censor = ps.censor === "centre" ? centre : ps.censor;
      const [lx, ly] = at(legion), [cx, cy] = at(censor);
      const dx = (i - (seats.length - 1) / 2) * 7;
      out += el("polygon", {points: [[lx + dx, ly - 13], [lx + dx - 5, ly - 4], [lx + dx + 5, ly - 4]].map((q) => q.join(",")).join(" "),
        fill: fill, stroke: "#000", class: "legion", "data-owner": p, "data-cell": ps.legion,
        "data-path": "players." + p + ".legion"}, tip(p + "'s legion on " + ps.legion));
      out += el("circle", {cx: cx + dx, cy: cy + 9, r: 3.5, fill: fill, stroke: "#000", class: "censor",
        "data-owner": p, "data-cell": ps.censor, "data-path": "players." + p + ".censor"}, tip(p + "'s censor on " + ps.censor));
    });
    const action = st.action && st.action.kind ? st.action.kind + " with the " + st.action.piece +
      (st.action.placed.length ? ", placed " + st.action.placed.join(" ") : "") + ", earned " + st.action.earned : "";
    const status = statusLine([
      ["phase", "phase " + st.phase], ["turn", "turn " + st.turn], st.current ? ["current", "to act: " + st.current] : null,
      action ? ["action", "action: " + action] : null, ["bank", "bank " + (st.bank === null ? "unlimited" : st.bank)],
      st.emperor ? ["emperor", "emperor: " + st.emperor] : null, st.end ? ["end", "end: " + st.end] : null,
    ]);
    const hand = (p, list, path) => value(path, list.map((code) => el("span", {class: "tile-chip", "data-tile": code,
      title: code}, esc(code))).join(" ") || "-");
    const players = playerTable(["player", "coins", "tiles in hand", "face down", "legion", "censor"], seats, (p) => {
      const ps = st.players[p], base = "players." + p;
      return [swatch(p, seats), value(base + ".coins", esc(ps.coins), "coins"), hand(p, ps.supply, base + ".supply"),
        value(base + ".face_down", esc(ps.face_down.length)), value(base + ".legion", esc(ps.legion)),
        value(base + ".censor", esc(ps.censor))];
    });
    const oct = "7,2 15,2 20,7 20,13 15,18 7,18 2,13 2,7";
    const key = legend([
      ...Object.entries(L.landscapes).map(([code, name]) => [el("polygon", {points: oct, fill: LAND[code] || "#ccc",
        stroke: "#555"}), name + " (" + code + ")"]),
      ...Object.entries(L.icons).map(([code, name]) => [label(11, 14, code, {"font-size": 11, "font-weight": "bold"}),
        name]),
      [el("polygon", {points: oct, fill: "#d9c3a5", stroke: "#7d6540"}), "city centre"],
      [el("polygon", {points: "11,2 5,14 17,14", fill: "#888", stroke: "#000"}), "legion"],
      [el("circle", {cx: 11, cy: 9, r: 4, fill: "#888", stroke: "#000"}), "censor"],
      [el("polygon", {points: oct, fill: "#fff", stroke: "#999", "stroke-dasharray": "3 2"}), "cell with no tile"],
      [label(11, 13, "x,y", {"font-size": 8, fill: "#777"}), "cell coordinates: x across, y down"],
    ]);
    return {board: svg(width, height, out), players: status + players, legend: key};
  },

  targets: function (e) {
    const out = [];
    const cell = (c) => c === "centre" ? ".city" : ".cell" + attrIs("data-cell", c);
    if (e.type === "place_tile" && isText(e.cell)) out.push({sel: ["#board " + cell(e.cell)], what: "cell " + e.cell});
    if (e.type === "move_piece" && isText(e.to)) out.push({sel: ["#board " + cell(e.to)], what: "cell " + e.to});
    if (isText(e.piece) && isText(e.player)) {
      out.push({sel: ["#board ." + CSS.escape(e.piece) + attrIs("data-owner", e.player)], what: e.player + "'s " + e.piece});
    }
    if (isText(e.tile) && isText(e.player)) {
      out.push({sel: ["#players " + attrIs("data-owner", e.player) + " .tile-chip" + attrIs("data-tile", e.tile)],
        what: "tile " + e.tile + " in " + e.player + "'s hand"});
    }
    return out;
  },
};
