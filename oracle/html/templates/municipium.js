"use strict";
// Municipium: the institutions in number order around a ring, the roads from the data,
// citizens, family members (wreathed ones ringed), favours and the prefect; each family.
RENDERERS.municipium = function (st, L) {
  const seats = Object.keys(st.players);
  const size = 560, c = size / 2, radius = 205, boxW = 132, boxH = 92;
  const place = {};
  L.institutions.forEach((inst, i) => {
    const a = (i / L.institutions.length) * 2 * Math.PI - Math.PI / 2;
    place[inst.name] = [c + radius * Math.cos(a), c + radius * Math.sin(a)];
  });
  let out = "";
  for (const [a, b] of L.roads) {
    out += el("line", {x1: place[a][0], y1: place[a][1], x2: place[b][0], y2: place[b][1], stroke: "#c8b48a",
      "stroke-width": 8, class: "road"});
  }
  const KIND = {soldier: "#b03a2e", advocate: "#1f4e9c", merchant: "#d4a017", priest: "#f4f4f4"};
  for (const inst of L.institutions) {
    const [x0, y0] = place[inst.name], x = x0 - boxW / 2, y = y0 - boxH / 2, here = st.institutions[inst.name];
    out += el("rect", {x: x, y: y, width: boxW, height: boxH, rx: 6, fill: "#f4ecdc", stroke: "#8a7450",
      class: "institution", "data-institution": inst.name});
    out += label(x0, y + 13, inst.name + " (" + inst.home + ")", {"font-weight": "bold"});
    for (let i = 0; i < here.citizens; i++) {
      out += el("circle", {cx: x + 12 + i * 13, cy: y + 27, r: 5, fill: KIND[inst.home] || "#999", stroke: "#333",
        class: "citizen", "data-institution": inst.name});
    }
    if (here.citizen_field) {
      out += el("circle", {cx: x + boxW - 12, cy: y + 27, r: 5, fill: KIND[here.citizen_field] || "#999",
        stroke: "#000", "stroke-dasharray": "2 1", class: "citizen-field", "data-institution": inst.name},
        el("title", {}, esc("citizen field: " + here.citizen_field)));
    }
    let n = 0;
    for (const p of seats) {
      const ps = st.players[p], fill = colour(p, seats);
      for (const [count, wreathed] of [[ps.members[inst.name] || 0, false], [ps.wreathed[inst.name] || 0, true]]) {
        for (let k = 0; k < count; k++, n++) {
          out += el("rect", {x: x + 8 + (n % 10) * 12, y: y + 40 + Math.floor(n / 10) * 13, width: 9, height: 9,
            fill: fill, stroke: wreathed ? "#2a8a3a" : "#000", "stroke-width": wreathed ? 2.5 : 1,
            class: wreathed ? "member wreathed" : "member", "data-institution": inst.name, "data-owner": p});
        }
      }
    }
    if (here.favour) {
      out += el("circle", {cx: x + 14, cy: y + boxH - 12, r: 7, fill: "#f5d76e", stroke: "#8a6d1e", class: "favour",
        "data-institution": inst.name}, el("title", {}, "favour"));
    }
    if (st.prefect === inst.name) {
      out += el("rect", {x: x + boxW - 26, y: y + boxH - 22, width: 16, height: 16, fill: "#6b2d8c", stroke: "#000",
        class: "prefect", "data-institution": inst.name}, el("title", {}, "prefect"));
    }
  }
  const status = "round " + st.round + " · phase " + st.phase + (st.current ? " · to act: " + st.current : "") +
    " · bag: " + counts(st.bag) + " · favours left " + st.favour_supply;
  const table = playerTable(["player", "decurions", "favours", "citizens", "unplaced", "family cards"], seats.map((p) => {
    const ps = st.players[p];
    return [swatch(p, seats), el("span", {class: "decurions"}, ps.decurions), el("span", {class: "favours"}, ps.favours),
      counts(ps.citizens), ps.unplaced, esc(ps.family_cards.join(" ") || "-")];
  }));
  return {board: svg(size, size, out), players: el("div", {class: "status"}, esc(status)) + table};
};
