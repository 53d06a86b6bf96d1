"use strict";
// Shared helpers of the replay page. Each game registers itself in GAMES:
//   GAMES[game].draw(state, layout, events) -> {board: "<svg ...>", players: "<table ...>",
//     legend: "<div ...>"}: every piece drawn from the state, values tagged with their state
//     path (data-path) so a divergent claim can be marked where it is drawn; ``events`` are
//     the frame's event and the events legal there, whose places may need drawing;
//   GAMES[game].targets(event) -> [{sel, what}]: the places an event names (a space, cell,
//     point, institution, card), as CSS selectors into the board and the player table.
// Everything drawn is built as text with esc(): no string from a log is ever markup.
const GAMES = {};
const SVG_NS = "http://www.w3.org/2000/svg";

function esc(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}

// An SVG or HTML element as text; attributes that are null or undefined are left out.
function el(tag, attrs, inner) {
  let out = "<" + tag;
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) out += " " + key + '="' + esc(value) + '"';
  }
  return out + ">" + (inner === undefined || inner === null ? "" : inner) + "</" + tag + ">";
}

function tip(text) {
  return el("title", {}, esc(text));
}

// SVG text; with ``fit`` (a width in px) it is squeezed to fit that width when longer
// (an estimate of its length decides; the browser test measures the result).
function label(x, y, words, attrs, fit) {
  const a = Object.assign({x: x, y: y, "font-size": 11, "text-anchor": "middle"}, attrs);
  const text = String(words);
  if (fit) {
    a["data-fit"] = fit;
    const bold = a["font-weight"] === "bold" ? 0.64 : 0.58;
    if (text.length * a["font-size"] * bold > fit) {
      a.textLength = fit;
      a.lengthAdjust = "spacingAndGlyphs";
    }
  }
  return el("text", a, esc(text));
}

function svg(width, height, inner) {
  return el("svg", {xmlns: SVG_NS, width: Math.ceil(width), height: Math.ceil(height),
    viewBox: "0 0 " + Math.ceil(width) + " " + Math.ceil(height)}, inner);
}

const NAMED_COLOURS = {
  red: "#d62728", blue: "#1f77b4", green: "#2ca02c", yellow: "#e6b800", purple: "#9467bd",
  orange: "#ff7f0e", black: "#333333", white: "#f4f4f4", brown: "#8c564b", grey: "#7f7f7f",
  pink: "#e377c2",
};
const PALETTE = ["#d62728", "#1f77b4", "#2ca02c", "#e6b800", "#9467bd", "#ff7f0e"];

// A player's colour: the colour they are named after, else one by seat.
function colour(player, seats) {
  if (Object.prototype.hasOwnProperty.call(NAMED_COLOURS, player)) return NAMED_COLOURS[player];
  const seat = seats.indexOf(player);
  return PALETTE[(seat < 0 ? 0 : seat) % PALETTE.length];
}

function swatch(player, seats) {
  return el("span", {class: "swatch", "data-player-colour": colour(player, seats),
    style: "background:" + colour(player, seats)}) + esc(player);
}

// A value as drawn in HTML, tagged with its state path.
function value(path, content, cls) {
  return el("span", {"data-path": path, class: cls || null}, content);
}

// An HTML table: one row per player (tagged players.<name>), one column per heading.
function playerTable(headings, seats, cells) {
  const head = el("tr", {}, headings.map((h) => el("th", {}, esc(h))).join(""));
  const body = seats.map((p) => el("tr", {class: "player", "data-path": "players." + p, "data-owner": p},
    cells(p).map((c) => el("td", {}, c)).join("")));
  return el("div", {class: "table-box"}, el("table", {}, head + body.join("")));
}

// Counts as "wood 2, stone 1", each tagged with its path; "-" when all are 0.
function counts(obj, path) {
  const shown = Object.entries(obj || {}).filter(([, n]) => n);
  if (!shown.length) return value(path, "-");
  return value(path, shown.map(([k, n]) => value(path + "." + k, esc(k) + " " + esc(n))).join(", "));
}

// The line under the board: [path or null, text] items, each tagged with its path.
function statusLine(items) {
  return el("div", {class: "status"}, items.filter((i) => i).map(([path, text]) =>
    el("span", {class: "status-item", "data-path": path}, esc(text))).join(" · "));
}

// A legend: [symbol (SVG inner, drawn in a 22x18 box), words] pairs.
function legend(items) {
  return el("div", {class: "legend"}, items.map(([symbol, words]) =>
    el("span", {class: "legend-item"}, svg(22, 18, symbol) + el("span", {class: "legend-words"}, esc(words)))).join(""));
}

// A CSS selector for an attribute equal to a value from a log (escaped: any text is safe).
function attrIs(name, value) {
  return "[" + name + '="' + CSS.escape(String(value)) + '"]';
}

function isText(value) {
  return typeof value === "string" && value !== "";
}
