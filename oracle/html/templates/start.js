"use strict";
// The page's stepping: rebuild every state once from the first and the changes, then draw
// the one asked for (buttons, slider, keys, the event list, or the #event-N fragment).
(function () {
  const R = JSON.parse(document.getElementById("replay-data").textContent);
  const frames = R.frames;
  if (!frames.length) return;
  const draw = RENDERERS[R.game];

  function applyChanges(state, changes) {
    let out = structuredClone(state);
    for (const change of changes) {
      const path = change[0];
      if (path.length === 0) { out = structuredClone(change[1]); continue; }
      let node = out;
      for (const key of path.slice(0, -1)) node = node[key];
      const last = path[path.length - 1];
      if (change.length === 1) delete node[last];
      else node[last] = change[1];
    }
    return out;
  }

  const states = [R.start];
  for (const changes of R.changes) states.push(applyChanges(states[states.length - 1], changes));

  const fragments = frames.map((f) => f.t.replace(/ /g, "-"));
  const failing = frames.findIndex((f) => f.m === "failing");
  const verdict = R.verdict;

  function eventText(frame) {
    const e = frame.e;
    if (!e) return "";
    const rest = Object.entries(e).filter(([k]) => k !== "type" && k !== "player")
      .map(([k, v]) => k + "=" + JSON.stringify(v)).join(" ");
    return [e.player, e.type, rest].filter(Boolean).join(" ");
  }

  const list = document.getElementById("events");
  list.innerHTML = frames.map((f, i) => {
    const rule = f.m === "failing" ? el("span", {class: "rule"}, esc(verdict.rule_id || verdict.kind))
      : f.m === "expected" && verdict.rule_id ? el("span", {class: "rule"}, esc(verdict.rule_id)) : "";
    return el("li", {id: "frame-" + i, "data-frame": i, class: ("ev " + f.m).trim(),
      title: "line " + (f.l === null ? "-" : f.l)}, rule + " " + esc(f.t) + ": " + esc(eventText(f)));
  }).join("") + (verdict.not_replayed ? el("li", {class: "unreplayed"},
    esc(verdict.not_replayed + " later lines not replayed")) : "");

  const slider = document.getElementById("slider");
  const here = document.getElementById("here");
  const board = document.getElementById("board");
  const players = document.getElementById("players");
  const position = document.getElementById("position");
  const verdictBox = document.getElementById("verdict");
  let current = -1;

  function go(index) {
    index = Math.max(0, Math.min(frames.length - 1, index));
    if (index === current) return;
    if (current >= 0) list.children[current].classList.remove("current");
    current = index;
    const frame = frames[index];
    const item = list.children[index];
    item.classList.add("current");
    item.scrollIntoView({block: "nearest"});
    slider.value = String(index);
    position.textContent = frame.t + " (" + (index + 1) + "/" + frames.length + ")";
    const note = frame.n ? "\n(" + frame.n + ")" : "";
    here.textContent = frame.t + (frame.l === null ? "" : " (line " + frame.l + ")") +
      (frame.e ? ": " + JSON.stringify(frame.e) : "") + note;
    here.className = frame.m;
    verdictBox.classList.toggle("here", frame.m === "failing");
    const drawn = draw(states[index], R.layout);
    board.innerHTML = drawn.board;
    players.innerHTML = drawn.players;
    const fragment = "#" + fragments[index];
    if (location.hash !== fragment) history.replaceState(null, "", fragment);
  }

  function fromFragment() {
    const at = fragments.indexOf(decodeURIComponent(location.hash.slice(1)));
    return at >= 0 ? at : null;
  }

  document.getElementById("first").onclick = () => go(0);
  document.getElementById("prev").onclick = () => go(current - 1);
  document.getElementById("next").onclick = () => go(current + 1);
  document.getElementById("last").onclick = () => go(frames.length - 1);
  slider.addEventListener("input", () => go(Number(slider.value)));
  list.addEventListener("click", (e) => {
    const item = e.target.closest("li[data-frame]");
    if (item) go(Number(item.dataset.frame));
  });
  const gotoVerdict = document.getElementById("goto-verdict");
  if (gotoVerdict) gotoVerdict.onclick = (e) => { e.preventDefault(); go(failing >= 0 ? failing : frames.length - 1); };
  document.addEventListener("keydown", (e) => {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;
    const moves = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: frames.length - 1};
    if (e.key in moves) { e.preventDefault(); go(moves[e.key]); }
  });
  window.addEventListener("hashchange", () => { const at = fromFragment(); if (at !== null) go(at); });
  const opened = fromFragment();
  go(opened !== null ? opened : failing >= 0 ? failing : 0);
  document.body.dataset.ready = "yes";
})();
