"use strict";
// The Pillars of the Earth: the master-builder locations with their spaces (from the data's
// capacities), the market stock, the cost track, and each player's holdings.
RENDERERS.pillars = function (st, L) {
  const seats = st.seats;
  const boxW = 150, boxH = 78, cols = 4, pad = 8;
  let out = "";
  L.locations.forEach((loc, i) => {
    const x = pad + (i % cols) * (boxW + pad), y = pad + Math.floor(i / cols) * (boxH + pad);
    out += el("rect", {x: x, y: y, width: boxW, height: boxH, rx: 6, fill: "#f3ead8", stroke: "#a08a60",
      class: "location", "data-location": loc.name});
    out += label(x + boxW / 2, y + 15, loc.name.replace(/_/g, " "), {"font-weight": "bold"});
    const step = boxW / (loc.spaces.length + 1);
    loc.spaces.forEach((space, j) => {
      const cx = x + step * (j + 1), cy = y + 45;
      const owner = st.spaces[space];
      out += el("circle", {cx: cx, cy: cy, r: 13, fill: "#fff", stroke: "#a08a60", "stroke-dasharray": "3 2",
        class: "space", "data-space": space});
      if (owner !== undefined) {
        out += el("circle", {cx: cx, cy: cy, r: 11, fill: colour(owner, seats), stroke: "#000",
          class: "builder", "data-space": space, "data-owner": owner}, el("title", {}, esc(space + ": " + owner)));
      }
      out += label(cx, cy + 26, space.slice(space.lastIndexOf("_") + 1), {"font-size": 9, fill: "#776"});
    });
  });
  const rows = Math.ceil(L.locations.length / cols);
  let y = pad + rows * (boxH + pad) + 6;
  // The market stock and the general supply.
  out += label(pad, y + 10, "market", {"text-anchor": "start", "font-weight": "bold"});
  L.market_resources.forEach((res, i) => {
    const x = pad + 60 + i * 80;
    out += el("rect", {x: x, y: y, width: 14, height: 14, fill: CUBE[res] || "#999", stroke: "#333"});
    out += el("text", {x: x + 18, y: y + 11, "font-size": 12, class: "market", "data-resource": res},
      esc(res + " " + (st.market[res] || 0)));
  });
  out += el("text", {x: pad + 60 + L.market_resources.length * 80, y: y + 11, "font-size": 12},
    esc("supply: " + L.resources.map((r) =>  // null: an unlimited supply (a profile's)
      r + " " + (st.supply[r] === null ? "unlimited" : st.supply[r] || 0)).join(", ")));
  // The cost track, from the start value down to 0, with the marker.
  y += 26;
  out += label(pad, y + 13, "cost", {"text-anchor": "start", "font-weight": "bold"});
  for (let c = L.cost_start; c >= 0; c--) {
    const x = pad + 60 + (L.cost_start - c) * 26;
    const on = c === st.cost;
    out += el("rect", {x: x, y: y, width: 22, height: 20, rx: 3, fill: on ? "#333" : "#fff", stroke: "#666",
      class: on ? "cost-marker" : "cost-cell", "data-cost": c});
    out += label(x + 11, y + 14, c, {fill: on ? "#fff" : "#333"});
  }
  y += 30;
  const status = "round " + st.round + "/" + L.rounds + " · " + st.phase + " · " + st.stage +
    " · start player " + st.start_player + (st.event ? " · event: " + st.event : "") +
    (st.drawn ? " · drawn builder: " + st.drawn : "") + (st.queue.length ? " · to act: " + st.queue[0] : "");
  const width = pad + cols * (boxW + pad);
  const board = svg(width, y, out);
  const table = playerTable(
    ["player", "gold", "VP", "cubes", "craftsmen", "builders", "workers", "advantages"],
    seats.map((p) => {
      const ps = st.players[p];
      return [swatch(p, seats), el("span", {class: "gold"}, ps.gold), el("span", {class: "vp"}, ps.vp),
        counts(ps.resources), esc(ps.craftsmen.join(", ")),
        esc(ps.master_builders + " (bag " + (st.bag[p] || 0) + ")"),
        esc(ps.workers + (ps.grey_workers ? " + " + ps.grey_workers + " grey" : "") + ", placed " + ps.workers_placed),
        esc(ps.advantages.join(", ") || "-")];
    }));
  return {board: board, players: el("div", {class: "status"}, esc(status)) + table};
};

const CUBE = {sand: "#e3d29b", wood: "#9c6b3c", stone: "#9aa0a6", metal: "#5b6770"};
