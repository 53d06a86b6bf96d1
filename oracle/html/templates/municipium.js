"use strict";
// Municipium: the institutions (numbered 0-VI) around a ring, the roads from the data,
// citizens (circles with their kind's letter), family members (squares in the family's
// colour; wreathed ones ringed green), favours and the prefect; each family.
// Citizen colours follow the game's (digest: soldier red, advocate grey, merchant brown,
// priest purple) in dark shades, with a letter, so they are not taken for a family.
const KIND = {soldier: "#8b1e12", advocate: "#8d8d8d", merchant: "#7b4a1f", priest: "#5a2d82"};
const NUMERALS = ["0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"];

function citizen(x, y, kind, attrs, title) {
  return el("g", Object.assign({class: "citizen-group"}, attrs), tip(title) +
    el("circle", {cx: x, cy: y, r: 6, fill: KIND[kind] || "#999", stroke: "#111"}) +
    label(x, y + 3, (kind || "?").charAt(0).toUpperCase(), {"font-size": 8, fill: "#fff", "font-weight": "bold"}));
}

// The institutions a move walks through, in order (a member's path, a relocation, a pull
// to the tavern), as the event names them.
function walk(e) {
  if (!e || typeof e !== "object") return [];
  if (e.type === "move_member" && Array.isArray(e.path)) return e.path;
  if (e.type === "relocate_member") return [e.origin, e.destination];
  if (e.type === "tavern_pull") return [e.origin, "tavern"];
  return [];
}

GAMES.municipium = {
  draw: function (st, L, events) {
    const seats = Object.keys(st.players);
    const size = 590, c = size / 2, radius = 212, boxW = 140, boxH = 108;
    const place = {};
    L.institutions.forEach((inst, i) => {
      const a = (i / L.institutions.length) * 2 * Math.PI - Math.PI / 2;
      place[inst.name] = [c + radius * Math.cos(a), c + radius * Math.sin(a)];
    });
    let out = "";
    for (const [a, b] of L.roads) {
      out += el("line", {x1: place[a][0], y1: place[a][1], x2: place[b][0], y2: place[b][1], stroke: "#c8b48a",
        "stroke-width": 8, class: "road"}, tip("road: " + a + " - " + b));
    }
    const walked = walk((events || [])[0]);
    const drawWalk = () => {
      const known = (name) => isText(name) && Object.prototype.hasOwnProperty.call(place, name);
      if (walked.length < 2 || !walked.every(known)) return "";
      // Each step from the edge of one institution's box to the edge of the next one's.
      const edge = ([x, y], [tx, ty]) => {
        const dx = tx - x, dy = ty - y;
        const t = Math.min(dx ? (boxW / 2 + 4) / Math.abs(dx) : Infinity, dy ? (boxH / 2 + 4) / Math.abs(dy) : Infinity);
        return [x + dx * t, y + dy * t];
      };
      let steps = "";
      for (let i = 1; i < walked.length; i++) {
        if (walked[i - 1] === walked[i]) continue;
        const a = place[walked[i - 1]], b = place[walked[i]];
        const [x1, y1] = edge(a, b), [x2, y2] = edge(b, a);
        const angle = Math.atan2(y2 - y1, x2 - x1), head = (turn) => [x2 - 11 * Math.cos(angle + turn),
          y2 - 11 * Math.sin(angle + turn)].join(",");
        steps += el("line", {x1: x1, y1: y1, x2: x2, y2: y2, stroke: "#222", "stroke-width": 3, "stroke-dasharray": "7 4"});
        steps += el("polygon", {points: [head(0.45), x2 + "," + y2, head(-0.45)].join(" "), fill: "#222"});
      }
      return el("g", {class: "walk"}, tip("walks " + walked.join(" \u2192 ")) + steps);
    };
    for (const inst of L.institutions) {
      const [x0, y0] = place[inst.name], x = x0 - boxW / 2, y = y0 - boxH / 2, here = st.institutions[inst.name];
      const where = {"data-institution": inst.name};
      out += el("rect", Object.assign({x: x, y: y, width: boxW, height: boxH, rx: 6, fill: "#f4ecdc", stroke: "#8a7450",
        class: "institution"}, where), tip((NUMERALS[inst.number] || inst.number) + " " + inst.name + ": home of the " +
        inst.home + "s"));
      out += label(x0, y + 14, (NUMERALS[inst.number] || inst.number) + " " + inst.name, {"font-weight": "bold"}, boxW - 10);
      out += label(x0, y + 26, "home of the " + inst.home + "s", {"font-size": 9, fill: "#665", class: "home-kind"}, boxW - 10);
      out += el("g", Object.assign({class: "citizens", "data-path": "institutions." + inst.name + ".citizens"}, where),
        tip(here.citizens + " " + inst.home + " citizen" + (here.citizens === 1 ? "" : "s")) +
        Array.from({length: here.citizens}, (_, i) => citizen(x + 12 + i * 14, y + 40, inst.home,
          Object.assign({class: "citizen"}, where), inst.home)).join(""));
      if (here.citizen_field) {
        out += el("g", Object.assign({class: "citizen-field", "data-path": "institutions." + inst.name + ".citizen_field"}, where),
          tip("citizen field: " + here.citizen_field) +
          el("circle", {cx: x + boxW - 12, cy: y + 40, r: 8, fill: "none", stroke: "#000", "stroke-dasharray": "2 1"}) +
          citizen(x + boxW - 12, y + 40, here.citizen_field, {}, "citizen field: " + here.citizen_field));
      }
      let n = 0;
      for (const p of seats) {
        const ps = st.players[p], fill = colour(p, seats);
        for (const [count, wreathed] of [[ps.members[inst.name] || 0, false], [ps.wreathed[inst.name] || 0, true]]) {
          for (let k = 0; k < count; k++, n++) {
            const path = "players." + p + (wreathed ? ".wreathed." : ".members.") + inst.name;
            out += el("rect", Object.assign({x: x + 8 + (n % 10) * 12, y: y + 52 + Math.floor(n / 10) * 13, width: 9, height: 9,
              fill: fill, stroke: wreathed ? "#2a8a3a" : "#000", "stroke-width": wreathed ? 2.5 : 1,
              class: wreathed ? "member wreathed" : "member", "data-owner": p, "data-path": path}, where),
              tip(p + "'s family member" + (wreathed ? ", wreathed" : "")));
          }
        }
      }
      if (here.favour) {
        out += el("g", Object.assign({class: "favour", "data-path": "institutions." + inst.name + ".favour"}, where),
          tip("favour") + el("circle", {cx: x + 14, cy: y + boxH - 12, r: 7, fill: "#f5d76e", stroke: "#8a6d1e"}) +
          label(x + 14, y + boxH - 9, "F", {"font-size": 8}));
      }
      if (st.prefect === inst.name) {
        out += el("g", Object.assign({class: "prefect", "data-path": "prefect"}, where), tip("prefect") +
          el("rect", {x: x + boxW - 28, y: y + boxH - 24, width: 18, height: 18, rx: 3, fill: "#fff", stroke: "#000",
            "stroke-width": 2}) + label(x + boxW - 19, y + boxH - 11, "P", {"font-size": 10, "font-weight": "bold"}));
      }
    }
    out += drawWalk();
    const status = statusLine([
      ["round", "round " + st.round], ["phase", "phase " + st.phase], st.current ? ["current", "to act: " + st.current] : null,
      // null: an unlimited supply (a profile's components.favours or components.wreaths)
      ["favour_supply", "favours left " + (st.favour_supply === null ? "unlimited" : st.favour_supply)],
      ["wreath_supply", "wreaths left " + (st.wreath_supply === null ? "unlimited" : st.wreath_supply)],
      ["temple_order", "temple order: " + (st.temple_order.join(", ") || "-")],
    ]) + el("div", {class: "status"}, "bag: " + counts(st.bag, "bag") + " · common discard: " +
      value("common_discard", esc(st.common_discard.join(" ") || "-")));
    const players = playerTable(["player", "decurions", "favours", "citizens", "unplaced", "family cards"], seats, (p) => {
      const ps = st.players[p], base = "players." + p;
      return [swatch(p, seats), value(base + ".decurions", esc(ps.decurions), "decurions"),
        value(base + ".favours", esc(ps.favours), "favours"), counts(ps.citizens, base + ".citizens"),
        value(base + ".unplaced", esc(ps.unplaced)),
        value(base + ".family_cards", ps.family_cards.map((card) => el("span", {class: "card-chip", "data-card": card},
          esc(card))).join(" ") || "-")];
    });
    const key = legend([
      ...L.kinds.map((kind) => [citizen(11, 9, kind, {}, kind), kind + " (citizen)"]),
      [el("rect", {x: 6, y: 4, width: 10, height: 10, fill: "#888", stroke: "#000"}), "family member (family's colour)"],
      [el("rect", {x: 6, y: 4, width: 10, height: 10, fill: "#888", stroke: "#2a8a3a", "stroke-width": 2.5}), "wreathed member"],
      [el("circle", {cx: 11, cy: 9, r: 7, fill: "none", stroke: "#000", "stroke-dasharray": "2 1"}), "citizen field"],
      [el("circle", {cx: 11, cy: 9, r: 7, fill: "#f5d76e", stroke: "#8a6d1e"}), "favour"],
      [el("rect", {x: 3, y: 1, width: 16, height: 16, rx: 3, fill: "#fff", stroke: "#000", "stroke-width": 2}), "prefect"],
      [el("line", {x1: 2, y1: 9, x2: 20, y2: 9, stroke: "#222", "stroke-width": 3, "stroke-dasharray": "5 3"}),
        "the event's walk"],
    ]);
    return {board: svg(size, size, out), players: status + players, legend: key};
  },

  targets: function (e) {
    const out = [];
    const named = [];
    for (const field of ["institution", "origin", "destination"]) if (isText(e[field])) named.push(e[field]);
    if (Array.isArray(e.path)) named.push(...e.path.filter(isText));
    for (const name of named) {
      out.push({sel: ["#board .institution" + attrIs("data-institution", name)], what: "the " + name});
    }
    if (e.type === "draw_citizen" && isText(e.kind)) {
      out.push({sel: ["#players " + attrIs("data-path", "bag." + e.kind)], what: "the bag's " + e.kind + "s"});
    }
    if (e.type === "play_family_card" && isText(e.card) && isText(e.player)) {
      out.push({sel: ["#players " + attrIs("data-owner", e.player) + " .card-chip" + attrIs("data-card", e.card)],
        what: "card " + e.card});
    }
    return out;
  },
};
