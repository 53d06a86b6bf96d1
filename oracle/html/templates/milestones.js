"use strict";
// Milestones: the triangular map from the data (points with their numbers, bush triangles,
// q,r coordinates on its edges) with roads, milestones, houses, marketplaces, flour and
// bonus tiles; the worker tiles on display; each player's loop.
const MIL = {house: "#fffaf0", houseLine: "#4a3b2a", market: "#3a3a3a", road: "#7a4b1e", milestone: "#6b6b6b"};

GAMES.milestones = {
  draw: function (st, L) {
    const seats = Object.keys(st.players);
    const unit = 46, left = 40, top = 44, h = Math.sqrt(3) / 2;
    const xy = {};
    let maxX = 0, maxY = 0;
    const rows = {}, tops = {};
    let minR = Infinity;
    for (const name of Object.keys(L.points)) {
      const [q, r] = name.split(",").map(Number);
      xy[name] = [left + (q + r / 2) * unit, top + r * h * unit];
      maxX = Math.max(maxX, xy[name][0]);
      maxY = Math.max(maxY, xy[name][1]);
      if (!(r in rows) || xy[name][0] < rows[r][0]) rows[r] = xy[name];
      minR = Math.min(minR, r);
    }
    for (const name of Object.keys(L.points)) {
      const [q, r] = name.split(",").map(Number);
      if (r === minR) tops[q] = xy[name];
    }
    const corners = (tri) => (L.triangles[tri] || []).map((p) => xy[p].join(",")).join(" ");
    const centre = (tri) => {
      const ps = (L.triangles[tri] || []).map((p) => xy[p]);
      return [ps.reduce((a, p) => a + p[0], 0) / 3, ps.reduce((a, p) => a + p[1], 0) / 3];
    };
    const board = st.board;
    let out = "";
    // Coordinates: q above the top row, r left of each row (a point is "q,r").
    for (const [q, [x, y]] of Object.entries(tops)) out += label(x, y - 26, q, {"font-size": 9, fill: "#777", class: "coord"});
    for (const [r, [x, y]] of Object.entries(rows)) out += label(x - 24, y + 3, r, {"font-size": 9, fill: "#777", class: "coord"});
    out += label(4, top - 26, "q", {"font-size": 9, fill: "#777", "text-anchor": "start"});
    out += label(4, top + 3, "r", {"font-size": 9, fill: "#777", "text-anchor": "start"});
    for (const tri of Object.keys(L.triangles)) {
      const bush = L.bushes.includes(tri);
      out += el("polygon", {points: corners(tri), fill: bush ? "#cfe8b8" : "#f7f3e8", stroke: "#ddd4c0",
        class: bush ? "triangle bush" : "triangle", "data-triangle": tri}, tip("triangle " + tri + (bush ? " (bush)" : "")));
    }
    for (const road of board.roads) {
      const [a, b] = road.split("|");
      out += el("line", {x1: xy[a][0], y1: xy[a][1], x2: xy[b][0], y2: xy[b][1], stroke: MIL.road,
        "stroke-width": 6, "stroke-linecap": "round", class: "road", "data-edge": road, "data-path": "board.roads"},
        tip("road " + a + " - " + b));
    }
    for (const tri of board.houses) {
      const [cx, cy] = centre(tri);
      out += el("polygon", {points: [[cx - 7, cy + 6], [cx + 7, cy + 6], [cx + 7, cy - 2], [cx, cy - 9], [cx - 7, cy - 2]]
        .map((p) => p.join(",")).join(" "), fill: MIL.house, stroke: MIL.houseLine, "stroke-width": 1.5, class: "house",
        "data-triangle": tri, "data-path": "board.houses"}, tip("house on " + tri));
    }
    for (const [tri, kind] of Object.entries(board.bonus_tiles)) {
      const [cx, cy] = centre(tri);
      out += el("g", {class: "bonus-tile", "data-triangle": tri, "data-path": "board.bonus_tiles." + tri},
        tip("bonus tile " + kind + " on " + tri) +
        el("rect", {x: cx - 9, y: cy - 7, width: 18, height: 14, rx: 2, fill: "#fff", stroke: "#3a7a2a"}) +
        label(cx, cy + 4, kind.slice(0, 2), {"font-size": 9}));
    }
    for (const [name, number] of Object.entries(L.points)) {
      const [x, y] = xy[name];
      out += el("g", {class: "point-group"}, tip("point " + name + (name === L.start ? " (market tent)" :
        number === null ? "" : ", number " + number)) +
        el("circle", {cx: x, cy: y, r: 8, fill: "#fff", stroke: "#999", class: "point", "data-point": name}) +
        label(x, y + 4, name === L.start ? "M" : number === null ? "" : number, {"font-size": 10}));
    }
    for (const p of board.milestones) {
      out += el("rect", {x: xy[p][0] - 4, y: xy[p][1] - 13, width: 8, height: 10, fill: MIL.milestone, stroke: "#000",
        class: "milestone", "data-point": p, "data-path": "board.milestones"}, tip("milestone on " + p));
    }
    for (const p of board.marketplaces) {
      out += el("rect", {x: xy[p][0] - 10, y: xy[p][1] - 10, width: 20, height: 20, fill: "none", stroke: MIL.market,
        "stroke-width": 3, class: "marketplace", "data-point": p, "data-path": "board.marketplaces"}, tip("marketplace on " + p));
    }
    for (const p of board.flour) {
      out += el("circle", {cx: xy[p][0] + 9, cy: xy[p][1] - 9, r: 4, fill: "#f1e3b0", stroke: "#7a6a30",
        class: "flour", "data-point": p, "data-path": "board.flour"}, tip("flour sack on " + p));
    }
    const status = statusLine([
      ["phase", "phase " + st.phase], st.current ? ["current", "to act: " + st.current] : null,
      ["supply", "supply: " + Object.entries(st.supply).filter(([, n]) => n !== 0)  // null: unlimited (a profile's)
        .map(([k, n]) => k + " " + (n === null ? "unlimited" : n)).join(", ")],
      ["display", "worker tiles on display: " + (st.display.join(" ") || "none")],
      st.end_trigger ? ["end_trigger", "end: " + st.end_trigger] : null,
    ]);
    const players = playerTable(["player", "loop", "coins", "goods", "VP"], seats, (p) => {
      const ps = st.players[p], base = "players." + p;
      return [swatch(p, seats), loop(p, ps, L.loop, colour(p, seats)), value(base + ".coins", esc(ps.coins), "coins"),
        counts(ps.goods, base + ".goods"), value(base + ".vp", esc(ps.vp), "vp")];
    });
    const key = legend([
      [el("line", {x1: 2, y1: 9, x2: 20, y2: 9, stroke: MIL.road, "stroke-width": 5}), "road"],
      [el("rect", {x: 7, y: 3, width: 8, height: 11, fill: MIL.milestone, stroke: "#000"}), "milestone"],
      [el("polygon", {points: "4,16 18,16 18,8 11,2 4,8", fill: MIL.house, stroke: MIL.houseLine, "stroke-width": 1.5}), "house"],
      [el("rect", {x: 3, y: 2, width: 15, height: 14, fill: "none", stroke: MIL.market, "stroke-width": 3}), "marketplace"],
      [el("circle", {cx: 11, cy: 9, r: 4, fill: "#f1e3b0", stroke: "#7a6a30"}), "flour sack"],
      [el("rect", {x: 2, y: 2, width: 18, height: 14, rx: 2, fill: "#fff", stroke: "#3a7a2a"}), "bonus tile"],
      [el("polygon", {points: "1,16 21,16 11,1", fill: "#cfe8b8", stroke: "#ddd4c0"}), "bush"],
      [el("circle", {cx: 11, cy: 9, r: 7, fill: "#fdf6d8", stroke: "#888"}), "worker (grey: covered)"],
      [el("circle", {cx: 11, cy: 9, r: 6, fill: "none", stroke: "#888", "stroke-width": 3}), "pawn (player's colour)"],
    ]);
    return {board: svg(maxX + left, maxY + top, out), players: status + players, legend: key};
  },

  targets: function (e) {
    const out = [];
    for (const field of ["start", "milestone", "end", "point", "marketplace"]) {
      if (isText(e[field])) out.push({sel: [".point" + attrIs("data-point", e[field])], what: "point " + e[field]});
    }
    if (Array.isArray(e.numbers)) {
      for (const n of e.numbers.filter(isText)) out.push({sel: [".point" + attrIs("data-point", n)], what: "point " + n});
    }
    if (isText(e.triangle)) out.push({sel: [".triangle" + attrIs("data-triangle", e.triangle)], what: "triangle " + e.triangle});
    if (isText(e.space) && isText(e.player)) {
      out.push({sel: ["#players " + attrIs("data-owner", e.player) + " .loop-space" + attrIs("data-space", e.space)],
        what: e.player + "'s space " + e.space});
    }
    if (e.type === "move" && isText(e.player)) {
      out.push({sel: ["#players " + attrIs("data-owner", e.player) + " .pawn"], what: e.player + "'s pawn"});
    }
    return out;
  },
};

// A player's board: the loop of spaces in a ring, the workers on W1..W8 and the pawn.
function loop(player, ps, spaces, fill) {
  const size = 150, c = size / 2, radius = 56;
  let out = "";
  spaces.forEach((space, i) => {
    const a = (i / spaces.length) * 2 * Math.PI - Math.PI / 2;
    const x = c + radius * Math.cos(a), y = c + radius * Math.sin(a);
    const worker = ps.workers[space];
    out += el("circle", {cx: x, cy: y, r: 14, fill: worker ? (worker.covered ? "#ccc" : "#fdf6d8") : "#fff",
      stroke: "#888", class: worker ? "loop-space worker" : "loop-space", "data-space": space,
      "data-path": worker ? "players." + player + ".workers." + space : null},
      tip(space + (worker ? ": " + worker.kind + " " + worker.number + (worker.covered ? " (covered)" : "") : "")));
    out += label(x, y + 4, worker ? worker.kind.slice(0, 2) + worker.number : space.slice(0, 3), {"font-size": 9});
    if (ps.position === space) {
      out += el("circle", {cx: x, cy: y, r: 17, fill: "none", stroke: fill, "stroke-width": 4, class: "pawn",
        "data-path": "players." + player + ".position"}, tip(player + "'s pawn on " + space));
    }
  });
  return svg(size, size, out);
}
