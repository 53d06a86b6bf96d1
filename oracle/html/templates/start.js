"use strict";
// The page's stepping: rebuild every state once from the first and the changes, then draw
// the one asked for (buttons, slider, keys, the event list, or the #event-N fragment). On
// each frame the places its event names are ringed on the board (red for an event the
// verdict points at that was not applied: the attempted target), and at a divergent event each divergent value is marked
// where it is drawn.
(function () {
  const R = JSON.parse(document.getElementById("replay-data").textContent);
  const frames = R.frames;
  if (!frames.length) return;
  const game = GAMES[R.game];

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

  function shown(value) {
    return JSON.stringify(value === undefined ? null : value);
  }

  function resultText(result) {
    const winners = Array.isArray(result.winners) ? result.winners.join(", ") : shown(result.winners);
    const scores = result.scores && typeof result.scores === "object"
      ? Object.entries(result.scores).map(([p, n]) => p + " " + shown(n)).join(", ") : shown(result.scores);
    return ["winners: " + (winners || "-"), "scores: " + scores];
  }

  function eventText(frame) {
    const e = frame.e;
    if (frame.t === "result") return resultText(e && e.result ? e.result : verdict.result || {}).join(" · ");
    if (!e || typeof e !== "object") return "";
    const rest = Object.entries(e).filter(([k]) => k !== "type" && k !== "player")
      .map(([k, v]) => k + "=" + shown(v)).join(" ");
    return [e.player, e.type, rest].filter((part) => part !== undefined && part !== "").map(String).join(" ");
  }

  const list = document.getElementById("events");
  const ruleBadge = verdict.rule_id || verdict.kind;
  list.innerHTML = frames.map((f, i) => {
    const rule = f.m === "failing" ? el("span", {class: "rule"}, esc(ruleBadge))
      : f.m === "expected" && verdict.rule_id ? el("span", {class: "rule"}, esc(verdict.rule_id)) : "";
    return el("li", {id: "frame-" + i, "data-frame": i, class: ("ev " + f.m).trim(),
      title: "line " + (f.l === null ? "-" : f.l)}, rule + " " + esc(f.t) + ": " + esc(eventText(f)));
  }).join("") + (verdict.not_replayed ? el("li", {class: "unreplayed"},
    esc(verdict.not_replayed + " later line" + (verdict.not_replayed === 1 ? "" : "s") + " not replayed")) : "");

  const slider = document.getElementById("slider");
  const here = document.getElementById("here");
  const board = document.getElementById("board");
  const players = document.getElementById("players");
  const key = document.getElementById("legend");
  const position = document.getElementById("position");
  const verdictBox = document.getElementById("verdict");
  const view = document.getElementById("view");
  const box = list.parentElement;
  let current = -1;

  // Scroll the event list only (never the window) so the item shows, centred when asked.
  function showInList(item, centre) {
    const top = item.offsetTop, bottom = top + item.offsetHeight;
    if (centre) box.scrollTop = top - (box.clientHeight - item.offsetHeight) / 2;
    else if (top < box.scrollTop) box.scrollTop = top;
    else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
  }

  // A ring drawn around an SVG element (in its own SVG, on top), or a class on an HTML one.
  function ring(elem, cls, caption, title) {
    const root = elem.ownerSVGElement;
    elem.classList.add(cls);
    if (!root) {
      if (title) elem.title = title;
      return;
    }
    const b = elem.getBBox();
    const r = document.createElementNS(SVG_NS, "rect");
    const attrs = {x: b.x - 4, y: b.y - 4, width: b.width + 8, height: b.height + 8, rx: 5, class: "ring " + cls};
    for (const [k, v] of Object.entries(attrs)) r.setAttribute(k, v);
    if (title) {
      const t = document.createElementNS(SVG_NS, "title");
      t.textContent = title;
      r.appendChild(t);
    }
    root.appendChild(r);
    if (caption) {
      const t = document.createElementNS(SVG_NS, "text");
      const attrsText = {x: b.x + b.width / 2, y: Math.max(9, b.y - 7), "text-anchor": "middle", class: "ring-caption " + cls};
      for (const [k, v] of Object.entries(attrsText)) t.setAttribute(k, v);
      t.textContent = caption;
      root.appendChild(t);
    }
  }

  // The events whose places a frame rings: its own, and at an event that was not applied
  // every event that was legal there (only when the verdict lists them all).
  function legalThere(frame) {
    const all = verdict.legal && verdict.legal.length === verdict.legal_count;
    return frame.x === 1 && frame.m === "failing" && all ? verdict.legal : [];
  }

  // The places the frame's event names: ringed; those not drawn anywhere are listed. Places
  // a legal event names are ringed green.
  function markTargets(frame) {
    const e = frame.e;
    const attempted = frame.x === 1;
    const found = [], missing = [], seen = new Set();
    if (e && typeof e === "object" && !Array.isArray(e)) {
      for (const target of game.targets(e)) {
        const elem = target.sel.map((s) => view.querySelector(s)).find((x) => x);
        if (elem) {
          const cls = !attempted ? "touched" : frame.m === "expected" ? "refused" : "attempted";
          ring(elem, cls, attempted ? cls === "refused" ? "refused" : "tried" : null, target.what);
          found.push(target.what);
          seen.add(elem);
        } else {
          missing.push(target.what);
        }
      }
    }
    const legal = [];
    for (const event of legalThere(frame)) {
      for (const target of game.targets(event)) {
        const elem = target.sel.map((s) => view.querySelector(s)).find((x) => x);
        if (elem && !seen.has(elem)) {
          ring(elem, "legal", null, "legal there: " + target.what);
          legal.push(target.what);
          seen.add(elem);
        }
      }
    }
    let out = "";
    if (found.length || missing.length) {
      const words = attempted ? "tried: " : "names: ";
      out += el("div", {class: "here-targets" + (attempted ? " tried" : "")}, esc(words + found.join(", ") +
        (found.length ? " (ringed)" : "") +
        (missing.length ? (found.length ? "; " : "") + missing.join(", ") + " (not on the board)" : "")));
    }
    if (legal.length) out += el("div", {class: "here-legal"}, esc("legal there: " + legal.join(", ") + " (ringed green)"));
    return out;
  }

  // At a divergent event: each divergent value marked where it is drawn (or, when it is not
  // drawn, the nearest drawn value that holds it), with the claimed and reference values.
  function markDivergences(frame) {
    if (frame.m !== "failing" || !verdict.divergences) return;
    for (const d of verdict.divergences) {
      const parts = String(d.path).split(".");
      let marked = [];
      while (parts.length && !marked.length) {
        marked = Array.from(view.querySelectorAll(attrIs("data-path", parts.join("."))));
        parts.pop();
      }
      const words = d.path + ": claimed " + shown(d.claimed) + ", reference " + shown(d.reference);
      here.insertAdjacentHTML("beforeend", el("div", {class: "here-divergence"},
        esc("\u2260 " + words + (marked.length ? " (marked where it is drawn)" : " (not drawn)"))));
      for (const elem of marked) {
        ring(elem, "divergent", elem.ownerSVGElement ? "≠" : null, words);
        if (!elem.ownerSVGElement) {
          elem.insertAdjacentHTML("afterend", el("span", {class: "claimed", title: words},
            esc("claimed " + shown(d.claimed))));
        }
      }
    }
  }

  function hereHtml(frame) {
    const line = frame.l === null ? "" : " (line " + frame.l + ")";
    let out = el("div", {class: "here-head"}, el("strong", {}, esc(frame.t)) + esc(line) +
      (frame.t === "result" ? "" : (frame.e ? ": " + esc(eventText(frame)) : "")));
    if (frame.t === "result") {
      if (verdict.result) {
        const [winners, scores] = resultText(verdict.result);
        out += el("div", {class: "result"}, "reference result: " + value("result.winners", esc(winners)) + " · " +
          value("result.scores", esc(scores)));
      }
      if (frame.e && frame.e.result) out += el("div", {class: "claimed-result"}, esc("the log's result line: " + shown(frame.e.result)));
    } else if (frame.e) {
      out += el("code", {class: "here-json"}, esc(shown(frame.e)));
    }
    if (frame.n) out += el("div", {class: "here-note"}, esc("(" + frame.n + ")"));
    return out;
  }

  function go(index, centre) {
    index = Math.max(0, Math.min(frames.length - 1, index));
    if (index === current) return;
    if (current >= 0) list.children[current].classList.remove("current");
    current = index;
    const frame = frames[index];
    const item = list.children[index];
    item.classList.add("current");
    showInList(item, centre);
    slider.value = String(index);
    position.textContent = frame.t + " (" + (index + 1) + "/" + frames.length + ")";
    here.className = frame.m;
    here.innerHTML = hereHtml(frame);
    verdictBox.classList.toggle("here", frame.m === "failing");
    const drawn = game.draw(states[index], R.layout, [frame.e, ...legalThere(frame)]);
    board.innerHTML = drawn.board;
    players.innerHTML = drawn.players;
    key.innerHTML = drawn.legend || "";
    here.insertAdjacentHTML("beforeend", markTargets(frame));
    markDivergences(frame);
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
  if (gotoVerdict) {
    gotoVerdict.onclick = (e) => { e.preventDefault(); go(failing >= 0 ? failing : frames.length - 1, true); };
  }
  document.addEventListener("keydown", (e) => {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;
    const moves = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: frames.length - 1};
    if (e.key in moves) { e.preventDefault(); go(moves[e.key]); }
  });
  window.addEventListener("hashchange", () => { const at = fromFragment(); if (at !== null) go(at, true); });
  const opened = fromFragment();
  go(opened !== null ? opened : failing >= 0 ? failing : 0, true);
  document.body.dataset.ready = "yes";
  document.body.dataset.readyMs = String(Math.round(performance.now()));
})();
