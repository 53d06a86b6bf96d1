"use strict";
// Shared helpers of the replay page. Each game's renderer registers itself in RENDERERS:
// RENDERERS[game](state, layout) returns {board: "<svg ...>", players: "<table ...>"}.
const RENDERERS = {};

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

function label(x, y, words, attrs) {
  return el("text", Object.assign({x: x, y: y, "font-size": 11, "text-anchor": "middle"}, attrs),
    esc(words));
}

function svg(width, height, inner) {
  return el("svg", {xmlns: "http://www.w3.org/2000/svg", width: Math.ceil(width),
    height: Math.ceil(height), viewBox: "0 0 " + Math.ceil(width) + " " + Math.ceil(height)}, inner);
}

const NAMED_COLOURS = {
  red: "#d62728", blue: "#1f77b4", green: "#2ca02c", yellow: "#e6b800", purple: "#9467bd",
  orange: "#ff7f0e", black: "#333333", white: "#f4f4f4", brown: "#8c564b", grey: "#7f7f7f",
};
const PALETTE = ["#d62728", "#1f77b4", "#2ca02c", "#e6b800", "#9467bd", "#ff7f0e"];

// A player's colour: the colour they are named after, else one by seat.
function colour(player, seats) {
  if (Object.prototype.hasOwnProperty.call(NAMED_COLOURS, player)) return NAMED_COLOURS[player];
  const seat = seats.indexOf(player);
  return PALETTE[(seat < 0 ? 0 : seat) % PALETTE.length];
}

function swatch(player, seats) {
  return el("span", {class: "swatch", style: "background:" + colour(player, seats)}) + esc(player);
}

// An HTML table: one row per player, one column per heading.
function playerTable(headings, rows) {
  const head = el("tr", {}, headings.map((h) => el("th", {}, esc(h))).join(""));
  const body = rows.map((cells) => el("tr", {class: "player"}, cells.map((c) => el("td", {}, c)).join("")));
  return el("table", {}, head + body.join(""));
}

function counts(obj) {
  return Object.entries(obj || {}).filter(([, n]) => n).map(([k, n]) => esc(k) + " " + n).join(", ") || "-";
}
