"use strict";
// The Pillars of the Earth: the master-builder locations with their spaces (from the data's
// capacities), the cards Kingsbridge and Shiring offer, King's Court's metal, the castle's
// grey workers, the cathedral's pieces; the Phase I card display, the round's event and tax,
// the market stock and the cost track; each player's holdings and cards.
const CUBE = {sand: "#e3d29b", wood: "#9c6b3c", stone: "#9aa0a6", metal: "#5b6770"};
const CARD_FILL = {resource: "#fbf7ee", craftsman: "#f1e6cf", advantage: "#e9e4f4", event: "#f6e0d6"};

// One card: its short name and its kind; the tooltip says what the data says of it.
function pillarsCard(L, kind, id, x, y, w, h, attrs) {
  const card = (L.cards[kind] || {})[id];
  const band = kind === "resource" && card ? CUBE[card.resource] : "#b8a47c";
  let out = el("rect", {x: x, y: y, width: w, height: h, rx: 4, fill: CARD_FILL[kind] || "#fbf7ee", stroke: "#6d5a3a"});
  out += el("rect", {x: x + 1, y: y + 1, width: w - 2, height: 6, rx: 3, fill: band});
  out += label(x + w / 2, y + h / 2 + 1, id.replace(/_/g, " "), {"font-size": 9, "font-weight": "bold"}, w - 6);
  out += label(x + w / 2, y + h / 2 + 13, card ? card.name : kind, {"font-size": 8.5, fill: "#333"}, w - 6);
  return el("g", Object.assign({class: "card", "data-card": id, "data-kind": kind}, attrs),
    tip(card ? card.tip : id) + out);
}

function cardChip(L, kind, id, extra) {
  const card = (L.cards[kind] || {})[id];
  return el("span", {class: "card-chip kind-" + kind, "data-card": id, title: card ? card.tip : id},
    esc(id.replace(/_/g, " ") + (extra || "")));
}

GAMES.pillars = {
  draw: function (st, L) {
    const seats = st.seats;
    const boxW = 172, boxH = 110, cols = 4, pad = 8, width = pad + cols * (boxW + pad);
    let out = "";
    L.locations.forEach((loc, i) => {
      const x = pad + (i % cols) * (boxW + pad), y = pad + Math.floor(i / cols) * (boxH + pad);
      out += el("rect", {x: x, y: y, width: boxW, height: boxH, rx: 6, fill: "#f3ead8", stroke: "#a08a60",
        class: "location", "data-location": loc.name});
      out += label(x + boxW / 2, y + 15, loc.name.replace(/_/g, " "), {"font-weight": "bold"}, boxW - 10);
      const step = boxW / (loc.spaces.length + 1);
      const offers = loc.name === "kingsbridge" ? ["advantage", st.kingsbridge]
        : loc.name === "shiring" ? ["craftsman", st.shiring] : null;
      loc.spaces.forEach((space, j) => {
        const cx = x + step * (j + 1), cy = y + 38;
        const owner = st.spaces[space];
        out += el("circle", {cx: cx, cy: cy, r: 12, fill: "#fff", stroke: "#a08a60", "stroke-dasharray": "3 2",
          class: "space", "data-space": space}, tip(space + (owner ? ": " + owner + "'s builder" : ": empty")));
        if (owner !== undefined) {
          out += el("circle", {cx: cx, cy: cy, r: 10, fill: colour(owner, seats), stroke: "#000",
            class: "builder", "data-space": space, "data-owner": owner, "data-path": "spaces." + space},
            tip(space + ": " + owner + "'s builder"));
        }
        out += label(cx, cy + 22, space.slice(space.lastIndexOf("_") + 1), {"font-size": 9, fill: "#665"});
        if (offers && offers[1][space]) {
          const w = Math.min(step - 6, 82);
          out += pillarsCard(L, offers[0], offers[1][space], cx - w / 2, y + 64, w, 38,
            {"data-space": space, "data-path": loc.name + "." + space});
        }
      });
      const note = (text, path) => el("text", {x: x + boxW / 2, y: y + 82, "font-size": 11, "text-anchor": "middle",
        "data-path": path}, esc(text));
      if (loc.name === "kings_court") out += note("metal here: " + st.kings_court_metal, "kings_court_metal");
      if (loc.name === "castle") out += note("grey workers here: " + (st.castle_workers === null ? "unlimited" : st.castle_workers), "castle_workers");
      if (loc.name === "cathedral") {
        // PIL-CATH-08: the pieces only count rounds; the start player takes one each round.
        const built = st.phase === "over" ? L.rounds : st.round;
        const bw = (boxW - 24) / L.rounds;
        for (let k = 0; k < L.rounds; k++) {
          out += el("rect", {x: x + 12 + k * bw, y: y + 70, width: bw - 3, height: 16, rx: 2,
            fill: k < built ? "#8a7a5a" : "#fff", stroke: "#6d5a3a", class: k < built ? "cathedral-piece built" : "cathedral-piece"});
        }
        out += el("text", {x: x + boxW / 2, y: y + 100, "font-size": 10, "text-anchor": "middle", class: "cathedral-progress",
          "data-path": "round"}, esc("pieces " + built + " of " + L.rounds + " (round counter)"));
      }
    });
    let y = pad + Math.ceil(L.locations.length / cols) * (boxH + pad) + 4;
    // The Phase I display: revealed resource cards and the craftsmen for sale; while Phase I
    // runs, the resource cards nobody holds and not on display are the ones set aside.
    const held = new Set(seats.flatMap((p) => st.players[p].resource_cards));
    const setAside = st.phase === "cards"
      ? L.resource_cards.filter((c) => !st.card_supply.includes(c) && !held.has(c)) : [];
    const shown = st.card_supply.map((c) => [c, L.cards.resource[c] ? "resource" : "craftsman", false])
      .concat(setAside.map((c) => [c, "resource", true]));
    const cw = 78, ch = 40, perRow = Math.floor((width - pad - 70) / (cw + 6));
    out += label(pad, y + 14, "cards", {"text-anchor": "start", "font-weight": "bold"});
    out += label(pad, y + 28, "(Phase I)", {"text-anchor": "start", "font-size": 9, fill: "#665"});
    if (!shown.length) out += label(pad + 70, y + 24, "none on display", {"text-anchor": "start", fill: "#665"});
    shown.forEach(([id, kind, aside], i) => {
      const cx = pad + 70 + (i % perRow) * (cw + 6), cy = y + 6 + Math.floor(i / perRow) * (ch + 24);
      out += pillarsCard(L, kind, id, cx, cy, cw, ch, aside ? {class: "card set-aside", opacity: 0.45} : {class: "card on-display"});
      if (aside) out += label(cx + cw / 2, cy + ch + 11, "set aside", {"font-size": 9, fill: "#665"});
    });
    y += Math.max(1, Math.ceil(shown.length / perRow)) * (ch + 24) + 4;
    // The round's event and tax.
    out += label(pad, y + 24, "event", {"text-anchor": "start", "font-weight": "bold"});
    if (st.event) out += pillarsCard(L, "event", st.event, pad + 70, y, cw + 20, ch, {"data-path": "event"});
    else out += label(pad + 70, y + 24, "not revealed", {"text-anchor": "start", fill: "#665", "data-path": "event"});
    out += el("text", {x: pad + 70 + cw + 40, y: y + 24, "font-size": 12, "data-path": "tax"},
      esc("tax: " + (st.tax === null ? "not rolled" : st.tax)));
    y += ch + 10;
    // The market stock and the general supply.
    out += label(pad, y + 11, "market", {"text-anchor": "start", "font-weight": "bold"});
    L.market_resources.forEach((res, i) => {
      const x = pad + 70 + i * 80;
      out += el("rect", {x: x, y: y, width: 14, height: 14, fill: CUBE[res] || "#999", stroke: "#333"});
      out += el("text", {x: x + 18, y: y + 11, "font-size": 12, class: "market", "data-resource": res,
        "data-path": "market." + res}, esc(res + " " + (st.market[res] || 0)));
    });
    out += el("text", {x: pad + 70 + L.market_resources.length * 80, y: y + 11, "font-size": 12, "data-path": "supply"},
      esc("supply: " + L.resources.map((r) =>  // null: an unlimited supply (a profile's)
        r + " " + (st.supply[r] === null ? "unlimited" : st.supply[r] || 0)).join(", ")));
    // The cost track, from the start value down to 0, with the marker.
    y += 24;
    out += label(pad, y + 13, "cost", {"text-anchor": "start", "font-weight": "bold"});
    for (let c = L.cost_start; c >= 0; c--) {
      const x = pad + 70 + (L.cost_start - c) * 26;
      const on = c === st.cost;
      out += el("rect", {x: x, y: y, width: 22, height: 20, rx: 3, fill: on ? "#333" : "#fff", stroke: "#666",
        class: on ? "cost-marker" : "cost-cell", "data-cost": c, "data-path": on ? "cost" : null});
      out += label(x + 11, y + 14, c, {fill: on ? "#fff" : "#333"});
    }
    y += 28;
    const status = statusLine([
      ["round", "round " + st.round + "/" + L.rounds], ["phase", st.phase], ["stage", st.stage],
      ["start_player", "start player " + st.start_player],
      st.drawn ? ["drawn", "drawn builder: " + st.drawn] : null,
      st.queue.length ? ["queue", "to act: " + st.queue[0]] : null,
    ]);
    const players = playerTable(
      ["player", "gold", "VP", "cubes", "resource cards", "craftsmen", "advantages", "builders", "workers"], seats,
      (p) => {
        const ps = st.players[p], base = "players." + p;
        const used = (c) => ps.craftsman_uses[c] ? " (used " + ps.craftsman_uses[c] + ")" : "";
        return [swatch(p, seats), value(base + ".gold", esc(ps.gold), "gold"), value(base + ".vp", esc(ps.vp), "vp"),
          counts(ps.resources, base + ".resources"),
          value(base + ".resource_cards", ps.resource_cards.map((c) => cardChip(L, "resource", c)).join(" ") || "-"),
          value(base + ".craftsmen", ps.craftsmen.map((c) => cardChip(L, "craftsman", c, used(c))).join(" ") || "-"),
          value(base + ".advantages", ps.advantages.map((c) => cardChip(L, "advantage", c)).join(" ") || "-"),
          value(base + ".master_builders", esc(ps.master_builders + " (bag " + (st.bag[p] || 0) + ")")),
          value(base + ".workers", esc(ps.workers + (ps.grey_workers ? " + " + ps.grey_workers + " grey" : "") +
            ", placed " + ps.workers_placed))];
      });
    const key = legend([
      [el("circle", {cx: 11, cy: 9, r: 7, fill: "#fff", stroke: "#a08a60", "stroke-dasharray": "3 2"}), "empty space"],
      [el("circle", {cx: 11, cy: 9, r: 7, fill: "#888", stroke: "#000"}), "master builder (its owner's colour)"],
      ...L.resources.map((r) => [el("rect", {x: 4, y: 2, width: 14, height: 14, fill: CUBE[r], stroke: "#333"}), r]),
      ...["craftsman", "advantage", "event"].map((k) => [el("rect", {x: 2, y: 3, width: 18, height: 12, rx: 2,
        fill: CARD_FILL[k], stroke: "#6d5a3a"}), k + " card"]),
      [el("rect", {x: 3, y: 4, width: 16, height: 10, rx: 2, fill: "#8a7a5a", stroke: "#6d5a3a"}), "cathedral piece"],
    ]);
    return {board: svg(width, y, out), players: status + players, legend: key};
  },

  targets: function (e) {
    const out = [];
    if (isText(e.space)) out.push({sel: [attrIs("data-space", e.space) + ".space"], what: "space " + e.space});
    const mine = isText(e.player) ? "#players " + attrIs("data-owner", e.player) + " " : "";
    for (const field of ["card", "craftsman"]) {
      if (isText(e[field])) {
        const card = attrIs("data-card", e[field]);
        const where = e.type === "take_resource_card" || e.type === "take_craftsman"
          ? ["#board " + card, mine + card] : [mine + card, "#board " + card];
        out.push({sel: where, what: "card " + e[field]});
      }
    }
    if (isText(e.resource)) out.push({sel: [".market" + attrIs("data-resource", e.resource)], what: "market " + e.resource});
    return out;
  },
};
