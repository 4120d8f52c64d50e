// The judge's viewer: a results list and a replay player. Plain JavaScript, no library, no
// network but the page's own server (judge view) or none at all (judge replay html). A film
// (judge/view/film.go) is the replay with the game's picture of each step; each game's
// renderer (games/<game>.js) draws a picture, this file does everything else.
"use strict";

const JudgeView = (() => {
  const FILM_VERSION = 1;
  const renderers = {};
  const COLORS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
  const SVGNS = "http://www.w3.org/2000/svg";

  // frameAt is the picture shown at a step: the last one known at or before it, or null.
  function frameAt(film, step) {
    for (let s = step; s >= 0; s--) {
      const i = film.frame_of[s];
      if (i !== undefined && i >= 0) return film.frames[i];
    }
    return null;
  }

  // el makes an HTML element: el("div", {class: "x"}, child, "text", ...).
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    setAttrs(e, attrs);
    append(e, children);
    return e;
  }
  // svg makes an SVG element the same way.
  function svg(tag, attrs, ...children) {
    const e = document.createElementNS(SVGNS, tag);
    setAttrs(e, attrs);
    append(e, children);
    return e;
  }
  function setAttrs(e, attrs) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
  }
  function append(e, children) {
    for (const c of children.flat(Infinity)) {
      if (c === undefined || c === null || c === false) continue;
      e.append(c instanceof Node ? c : String(c));
    }
  }
  const color = (i) => COLORS[i % COLORS.length];

  // ---------- Annotations: a bot's own drawings (docs/viewer.md#drawing-on-the-board) ----------

  // A bot draws on the board by writing stderr lines "@judge KIND ..." during a move: dot X Y,
  // line X1 Y1 X2 Y2, circle X Y R, text X Y TEXT..., note TEXT..., each with optional
  // color=C and layer=L before its text, in the game's own coordinates. At most MAX_MARKS a
  // move are kept; the stderr limits bound them over a match.
  const MAX_MARKS = 100;
  const MARK_ARGS = {dot: 2, line: 4, circle: 3, text: 2, note: 0};
  const NAMED = /^(black|white|red|green|blue|yellow|orange|purple|pink|brown|grey|gray|cyan|magenta|lime|navy|teal|olive|maroon|silver|gold)$/;
  const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

  // parseMarks reads a move's stderr: its marks, the lines of the form it could not read (with
  // why), and how many it dropped past MAX_MARKS.
  function parseMarks(stderr) {
    const out = {marks: [], bad: [], dropped: 0};
    for (const raw of String(stderr || "").split("\n")) {
      const line = raw.replace(/\r$/, "");
      if (!line.startsWith("@judge ")) continue;
      const words = line.slice(7).trim().split(/\s+/);
      const kind = words.shift();
      if (!(kind in MARK_ARGS)) { out.bad.push({line, why: `unknown mark "${kind}": want dot, line, circle, text or note`}); continue; }
      const nums = words.splice(0, MARK_ARGS[kind]).map(Number);
      if (nums.length < MARK_ARGS[kind] || nums.some((v) => !Number.isFinite(v))) {
        out.bad.push({line, why: `${kind} takes ${MARK_ARGS[kind]} numbers`}); continue;
      }
      const m = {kind, layer: "marks", color: null};
      let bad = "";
      while (words.length && /^(color|layer)=/.test(words[0])) {
        const [k, v] = words.shift().split(/=(.*)/);
        if (k === "color" && (NAMED.test(v) || HEX.test(v))) m.color = v;
        else if (k === "layer" && /^[\w.-]{1,32}$/.test(v)) m.layer = v;
        else bad = `${k}=${v}: want ${k === "color" ? "a colour name (red, blue, ...) or #rgb / #rrggbb" : "a layer name of 1 to 32 letters, digits, '_', '-' or '.'"}`;
      }
      if (bad) { out.bad.push({line, why: bad}); continue; }
      [m.x, m.y] = nums;
      if (kind === "line") [m.x2, m.y2] = nums.slice(2);
      if (kind === "circle") m.r = Math.abs(nums[2]);
      if (kind === "text" || kind === "note") m.text = words.join(" ").slice(0, 200);
      if (out.marks.length >= MAX_MARKS) { out.dropped++; continue; }
      out.marks.push(m);
    }
    return out;
  }

  // marksOf are the marks of the move shown at a step (the exchange just made), and its player.
  function marksOf(film, step) {
    const x = step > 0 ? film.exchanges[step - 1] : null;
    if (!x || !x.stderr) return {player: x ? x.player : -1, marks: [], bad: [], dropped: 0};
    if (!x._marks) Object.defineProperty(x, "_marks", {value: parseMarks(x.stderr), enumerable: false});
    return Object.assign({player: x.player}, x._marks);
  }

  // layersOf are the layers a film's marks use, in the order they first appear.
  function layersOf(film) {
    const seen = [];
    film.exchanges.forEach((x, i) => {
      if (!x.stderr || x.stderr.indexOf("@judge ") < 0) return;
      for (const m of marksOf(film, i + 1).marks) if (!seen.includes(m.layer)) seen.push(m.layer);
    });
    return seen;
  }

  // drawMarks draws marks into the SVG group g, for a renderer: at(x, y) places the game's
  // coordinates in g's, unit is the length of 1 in them; the marks take the player's colour
  // unless they name one. Text stays text (textContent).
  function drawMarks(g, marks, at, unit, player) {
    const out = svg("g", {"data-testid": "marks", "pointer-events": "none"});
    for (const m of marks) {
      if (m.kind === "note") continue;
      const c = m.color || color(player);
      const [x, y] = at(m.x, m.y);
      const attrs = {"data-testid": "mark", "data-kind": m.kind, "data-layer": m.layer};
      if (m.kind === "dot") out.append(svg("circle", Object.assign({cx: x, cy: y, r: Math.max(1.5, unit * 0.22), fill: c}, attrs)));
      else if (m.kind === "circle") out.append(svg("circle", Object.assign({cx: x, cy: y, r: m.r * unit, fill: "none", stroke: c, "stroke-width": Math.max(1, unit * 0.1)}, attrs)));
      else if (m.kind === "line") {
        const [x2, y2] = at(m.x2, m.y2);
        out.append(svg("line", Object.assign({x1: x, y1: y, x2, y2, stroke: c, "stroke-width": Math.max(1, unit * 0.12), "stroke-linecap": "round"}, attrs)));
      } else if (m.kind === "text") {
        const t = svg("text", Object.assign({x, y, fill: c, "font-size": Math.max(8, unit * 0.8), "font-family": "system-ui, sans-serif",
          stroke: "#fff", "stroke-width": 0.6, "paint-order": "stroke"}, attrs));
        t.textContent = m.text;
        out.append(t);
      }
    }
    g.append(out);
    return out;
  }

  // marksList lists a move's marks in words (every game: those a renderer cannot draw, and
  // the notes), each layer's shown when its layer is on.
  function marksList(film, step, layers) {
    const {player, marks, bad, dropped} = marksOf(film, step);
    if (!marks.length && !bad.length) return "";
    const shown = marks.filter((m) => layers[m.layer] !== false);
    const words = (m) => m.kind === "note" ? m.text :
      m.kind === "line" ? `line (${m.x}, ${m.y}) to (${m.x2}, ${m.y2})` :
      m.kind === "circle" ? `circle at (${m.x}, ${m.y}), radius ${m.r}` :
      m.kind === "text" ? `"${m.text}" at (${m.x}, ${m.y})` : `dot at (${m.x}, ${m.y})`;
    return el("div", {class: "marks", "data-testid": "marks-list"},
      el("div", {class: "label"}, "its drawings this move"),
      el("ul", {}, shown.map((m) => el("li", {"data-testid": "mark-item", "data-kind": m.kind, "data-layer": m.layer},
        swatch(player), ` ${m.layer}: ${m.kind === "note" ? "note: " : ""}${words(m)}`))),
      dropped ? el("p", {class: "muted", "data-testid": "marks-dropped"}, `${dropped} more marks not drawn: at most ${MAX_MARKS} a move`) : "",
      bad.map((b) => el("p", {class: "fault", "data-testid": "mark-bad"}, `not drawn: ${b.line}: ${b.why}`)));
  }

  // register adds a game's renderer:
  //   toggles: [{key, label, value}]   switches the page shows above the picture
  //   prepare(film) -> ctx             once per film (a layout, say)
  //   draw(box, view)                  draws one step into box (a <div> the renderer owns);
  //                                    view = {film, ctx, state, scores, step, exchange, toggles}
  //   roles(film) -> [label]           optional: each player's role in the game ("Fugitive"),
  //                                    shown beside its name in the result and the scoreboard
  //   scoreNotes(film) -> [{player, text}]  optional: why a score jumps or differs from what the
  //                                    picture shows (a fault that scores 0, a clamp), in words
  //                                    under the chart
  //   annotate(box, view, marks)       optional: draws the marks of the move just made (after
  //                                    draw), with drawMarks and the game's own coordinates;
  //                                    view.player is whose they are. Without it they are listed.
  function register(name, renderer) { renderers[name] = renderer; }

  // generic draws a game that has no renderer of its own (an organiser's game, docs/referee.md):
  // the state its referee gives with each picture, as an indented outline of its keys and
  // values. The scores, the chart, the exchanges and the faults are the page's own.
  // framed draws an added game with its own renderer: the organiser's script, in a frame of
  // its own that the server serves sandboxed (no origin, no cookie, no network: frame.go).
  // Each step's picture is posted to it; it answers {drawn: step}, or {error} when it fails.
  function framed(film) {
    const key = film.header.game_version ? `${film.header.game}@${film.header.game_version}` : film.header.game;
    let frame = null, note = null, ready = false, pending = null;
    const post = (view) => frame.contentWindow.postMessage(view, "*");
    return {
      draw(box, view) {
        const pic = {state: view.state, scores: view.scores, step: view.step,
          players: (film.header.players || []).map((p) => p.name), exchange: view.exchange || null,
          marks: view.marks || [], player: view.player};
        if (!frame || !box.contains(frame)) {
          frame = el("iframe", {class: "renderer", sandbox: "allow-scripts", "data-testid": "renderer",
            src: "frame/" + encodeURIComponent(key), title: `${film.header.game}: the game's own drawing`});
          ready = false;
          note = el("p", {class: "warning", "data-testid": "renderer-error"});
          box.replaceChildren(frame, note);
          window.addEventListener("message", (e) => {
            if (!frame || e.source !== frame.contentWindow || !e.data || typeof e.data !== "object") return;
            if (e.data.ready) { ready = true; if (pending) post(pending); }
            else if ("drawn" in e.data) { box.setAttribute("data-drawn", String(e.data.drawn)); note.textContent = ""; }
            else if ("error" in e.data) note.textContent = `the ${film.header.game} renderer failed at step ${e.data.step}: ${e.data.error}`;
          });
        }
        pending = pic;
        if (ready) post(pic);
      },
    };
  }

  const generic = {
    draw(box, view) {
      box.replaceChildren(el("div", {class: "generic"},
        el("p", {class: "muted"}, "The game's state at this step (the referee's picture; the game has no drawing of its own):"),
        el("pre", {class: "state", "data-testid": "state"}, JSON.stringify(view.state, null, 2) || "(none)")));
    },
  };

  // ---------- Loading ----------

  // parseFilm checks what a film's JSON holds and says clearly what is wrong with it.
  function checkFilm(f) {
    if (!f || typeof f !== "object") throw new Error("this is not a replay film (not a JSON object)");
    if (f.error) throw new Error(f.error);
    if (typeof f.version !== "number") throw new Error("this is not a replay film (no version)");
    if (f.version > FILM_VERSION) throw new Error(`this film is version ${f.version}, newer than this viewer reads (${FILM_VERSION}): open it with a newer judge`);
    if (!f.header || !Array.isArray(f.exchanges) || !Array.isArray(f.frame_of)) throw new Error("this replay film is incomplete (no header, exchanges or steps)");
    return f;
  }

  // readReplayText makes a film without pictures from a replay file read in the browser
  // (JSON Lines): what a page opened from disk can show without the judge.
  function filmFromReplayText(text) {
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    if (lines.length === 0) throw new Error("the file is empty");
    let first;
    try { first = JSON.parse(lines[0]); } catch (e) {
      // A film (or a result) may have been given instead of a replay.
      try { return checkFilm(JSON.parse(text)); } catch (e2) { throw new Error("this is not a replay: line 1 is not JSON"); }
    }
    if (first && first.frame_of) return checkFilm(first);
    if (!first || first.type !== "header") throw new Error("this is not a replay: line 1 is not a replay header");
    if (first.version > 3) throw new Error(`this replay is version ${first.version}, newer than this viewer reads: open it with a newer judge`);
    const film = {version: FILM_VERSION, header: first, exchanges: [], frames: [], frame_of: [], result: null,
      problem: "opened without the judge: only the exchanges are shown (judge view FILE draws the game)"};
    lines.slice(1).forEach((l, i) => {
      let r;
      try { r = JSON.parse(l); } catch (e) { throw new Error(`the replay is damaged: line ${i + 2} is not JSON`); }
      if (r.type === "move") film.exchanges.push(r);
      else if (r.type === "result") film.result = r.result;
      else if (r.type === "stderr" && film.exchanges[r.exchange]) film.exchanges[r.exchange].stderr = (film.exchanges[r.exchange].stderr || "") + r.text;
    });
    if (!film.result) throw new Error("the replay is truncated: it has no result line (the file was cut, or the match did not finish)");
    film.frame_of = new Array(film.exchanges.length + 1).fill(-1);
    return film;
  }

  async function fetchJSON(url, options) {
    const r = await fetch(url, options);
    let body;
    try { body = await r.json(); } catch (e) { throw new Error(`${url}: the server answered ${r.status} with no JSON`); }
    if (!r.ok) throw new Error(body && body.error ? (body.error.message || body.error) : `${url}: ${r.status}`);
    return body;
  }

  // ---------- The page ----------

  const root = () => document.getElementById("app");
  const served = () => !document.getElementById("film");

  function showError(where, message) {
    where.replaceChildren(el("div", {class: "error", role: "alert", "data-testid": "error"},
      el("strong", {}, "This cannot be shown. "), message));
  }

  // listTimer refreshes the list while it is shown: results keep coming during a round.
  let listTimer = null;
  const LIST_REFRESH_MS = 10000;

  let stopLive = null; // the live match the page follows, if any
  async function route() {
    const box = root();
    stopPlayer();
    clearTimeout(listTimer);
    if (stopLive) { stopLive(); stopLive = null; }
    const hash = decodeURIComponent(location.hash.slice(1));
    try {
      if (hash.startsWith("/live/")) {
        stopLive = startLive("api/live/" + encodeURIComponent(hash.slice("/live/".length)) + "?frames=1");
      } else if (hash.startsWith("/compare/")) {
        box.replaceChildren(el("p", {class: "muted"}, "Loading..."));
        const pair = await fetchJSON("api/pair" + location.hash.slice("#/compare/".length));
        showPair(pair);
      } else if (hash.startsWith("/m/")) {
        box.replaceChildren(el("p", {class: "muted"}, "Loading..."));
        const film = checkFilm(await fetchJSON("api/film/" + encodeURIComponent(hash.slice(3))));
        showFilm(film);
      } else {
        await showList(box);
      }
    } catch (e) {
      showError(box, e.message);
    }
  }

  async function showList(box) {
    const list = await fetchJSON("api/list");
    clearTimeout(listTimer);
    listTimer = setTimeout(() => showList(box).catch((e) => showError(box, e.message)), LIST_REFRESH_MS);
    box.replaceChildren();
    box.append(el("h1", {}, list.title || "Results"));
    if (list.note) box.append(el("p", {class: "muted"}, list.note));
    if (list.standings && list.standings.length) {
      box.append(el("h2", {}, "Standings"), standingsTable(list.standings));
    }
    const playing = list.playing || [];
    if (playing.length) {
      box.append(el("h2", {}, `Playing now (${playing.length})`),
        el("ul", {class: "playing", "data-testid": "playing"}, playing.map((id) => el("li", {},
          el("a", {href: "#/live/" + encodeURIComponent(id), "data-testid": "playing-link"}, id), el("span", {class: "muted"}, " \u00b7 watch it live")))));
    }
    box.append(el("h2", {}, `Matches (${list.matches.length})`));
    if (!list.matches.length) {
      box.append(el("p", {class: "muted"}, "No match yet."));
      return;
    }
    const rows = list.matches.map((m) => el("tr", {"data-testid": "match"},
      el("td", {}, m.replay ? el("a", {href: "#/m/" + encodeURIComponent(m.key)}, m.id) : m.id),
      ...gameAndSeed(m), el("td", {class: "when", "data-testid": "started"}, (m.started || "").replace(/Z$/, "")),
      el("td", {}, m.status === "ok" ? m.players.map((p, i) => el("span", {class: "pl"},
        swatch(i), `${p.name} ${fmt(p.score)}`, p.rank === 1 && !p.fault ? el("span", {"data-testid": "star"}, " \u2605") : "",
        p.fault ? el("span", {class: "fault", title: `${p.fault.kind} at turn ${p.fault.turn}: ${p.fault.detail}`}, ` ${p.fault.kind}`) : "")) :
        el("span", {class: "fault", "data-testid": "match-error"}, unreadable(m) ? m.unreadable : m.error || "not judged")),
      el("td", {}, m.mismatch ? el("span", {class: "fault", "data-testid": "mismatch-mark", title: "what this replay records is not what its game makes of its moves: open it to see what differs"}, "does not re-judge") :
        m.replay ? compareLinks(m, list.matches) : el("span", {class: "muted"}, "no replay"))));
    box.append(el("table", {class: "list"},
      el("caption", {class: "legend", "data-testid": "list-legend"},
        "\u2605 = winner (rank 1 without a fault; in a draw, every such player) \u00b7 each player's score follows its name \u00b7 Started: when the judge began the match (UTC)"),
      el("thead", {}, el("tr", {}, el("th", {}, "Match"), el("th", {}, "Game"), el("th", {}, "Seed"), el("th", {}, "Started (UTC)"), el("th", {}, "Players"), el("th", {}, ""))),
      el("tbody", {}, rows)));
  }

  // compareLinks offer the matches of m's game and seed, up to three, to watch beside it.
  function compareLinks(m, all) {
    const same = all.filter((o) => o !== m && o.replay && !o.mismatch && o.game === m.game && o.seed === m.seed).slice(0, 3);
    return same.map((o) => el("a", {class: "compare", "data-testid": "compare-link",
      href: `#/compare/?a=${encodeURIComponent(m.key)}&b=${encodeURIComponent(o.key)}`, title: "both matches side by side, where they part marked"}, `compare with ${o.id}`));
  }

  // unreadable says a list entry is a file that could not be read as a replay: no game, no
  // seed, only why (judge/view/server.go says it in m.unreadable).
  function unreadable(m) { return !!m.unreadable; }
  function gameAndSeed(m) {
    if (unreadable(m)) return [el("td", {class: "fault", "data-testid": "unreadable"}, "unreadable"), el("td", {})];
    // A match that could not be judged keeps the game and seed of its job, when it has one.
    return [el("td", {}, m.game), el("td", {}, m.game ? m.seed : "")];
  }

  // standingsTable shows a tournament's rows: each one's places it could truly hold and how
  // sure it stands above the next, when the standings say (docs/tournament.md), then the
  // rest of its numbers and words.
  function standingsTable(rows) {
    // A row's rank is its place (entrants level share one): shown first, not beside a count.
    const ranked = typeof rows[0].rank === "number";
    const cols = Object.keys(rows[0]).filter((k) => k !== "name" && k !== "above_next" && k !== "rank" && typeof rows[0][k] !== "object");
    const doubt = Array.isArray(rows[0].rank_range);
    const places = (rr) => rr[0] === rr[1] ? String(rr[0]) : `${rr[0]}\u2013${rr[1]}`;
    const sure = (p) => typeof p === "number" ? `${Math.floor(100 * p)}%` : "-";
    return el("table", {class: "list", "data-testid": "standings"},
      el("thead", {}, el("tr", {}, el("th", {}, ranked ? "rank" : "#"), doubt ? el("th", {title: "the places it could truly hold"}, "could truly be") : null,
        el("th", {}, "Entrant"), cols.map((c) => el("th", {}, c)), doubt ? el("th", {title: "how sure the round is that it stands above the next"}, "above the next") : "")),
      el("tbody", {}, rows.map((r, i) => el("tr", {}, el("td", {"data-testid": "standing-rank"}, ranked ? r.rank : i + 1),
        doubt ? el("td", {"data-testid": "rank-range"}, places(r.rank_range)) : null, el("td", {}, r.name),
        cols.map((c) => el("td", {}, typeof r[c] === "number" ? fmt(r[c]) : r[c])),
        doubt ? el("td", {"data-testid": "above-next"}, sure(r.above_next)) : null))));
  }

  function swatch(i) { return el("span", {class: "swatch", style: `background:${color(i)}`}); }
  function fmt(x) {
    if (typeof x !== "number") return x === undefined || x === null ? "" : String(x);
    return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
  }

  // ---------- The player ----------

  let player = null;

  function stopPlayer() {
    if (player) { clearInterval(player.timer); player.timer = null; }
  }

  // faultsOf lists the steps at which something went wrong: a fault the referee saw or a
  // verdict the game gave (step = exchange index + 1, the step that shows its outcome).
  function faultsOf(film) {
    const out = [];
    film.exchanges.forEach((x, i) => {
      const f = x.verdict || x.fault;
      if (f) out.push({step: i + 1, player: x.player, turn: x.turn, fault: f});
    });
    return out;
  }

  // aboutGame says in a line what the game is, with a link to its rules where a server
  // serves them (rules: their address, PageOptions.Rules).
  function aboutGame(h, rules) {
    const r = h.game_version ? null : renderers[h.game];
    if (!r || !r.about) {
      return h.game_version ? el("p", {class: "about", "data-testid": "about"}, "A game added to this judge: its rules are its author's.") : "";
    }
    return el("p", {class: "about", "data-testid": "about"}, r.about,
      rules ? [" ", el("a", {href: rules + encodeURIComponent(h.game), target: "_blank", rel: "noopener", "data-testid": "rules-link"}, "The rules \u2192")] : "");
  }

  function showFilm(film) {
    const box = root();
    stopPlayer();
    clearTimeout(listTimer);
    const h = film.header, n = film.exchanges.length;
    const frames = film.frames || [];
    const r = renderers[h.game] || (frames.length ? (film.renderer ? framed(film) : generic) : null);
    const players = h.players || [];
    const p = player = {film, step: n, playing: false, speed: 8, timer: null, toggles: {}, ctx: null};
    if (r) {
      for (const t of r.toggles || []) p.toggles[t.key] = t.value;
      try { p.ctx = r.prepare ? r.prepare(film) : null; } catch (e) { p.drawError = e.message; }
    }
    const faults = faultsOf(film);

    const board = el("div", {class: "board", "data-testid": "board"});
    const {slider, controls, stepLabel, go} = transport(p, n, () => draw());
    const timeline = el("div", {class: "timeline", "data-testid": "timeline"},
      faults.map((f) => el("button", {class: "mark", style: `left:${n ? (100 * f.step / n) : 0}%;border-color:${color(f.player)}`,
        "data-testid": "fault-mark", "data-step": f.step, "data-turn": f.turn, "data-player": f.player,
        title: `${players[f.player] ? players[f.player].name : "player " + f.player}: ${f.fault.kind} at turn ${f.turn}: ${f.fault.detail}`,
        onclick: () => go(f.step)}, "!")));
    const scoreboard = el("div", {class: "scoreboard", "data-testid": "scoreboard"});
    const chart = el("div", {class: "chart"});
    const exchangeBox = el("div", {class: "exchange", "data-testid": "exchange"});
    // The layers of the bots' own drawings, each on until unticked.
    p.layers = {};
    for (const l of layersOf(film)) p.layers[l] = true;
    const toggleBox = el("div", {class: "toggles"}, r ? (r.toggles || []).map((t) => el("label", {},
      el("input", {type: "checkbox", "data-testid": "toggle-" + t.key, checked: t.value, onchange: (e) => { p.toggles[t.key] = e.target.checked; draw(); }}), " ", t.label)) : [],
      Object.keys(p.layers).length ? el("span", {class: "layers", "data-testid": "layers"}, "drawings: ", Object.keys(p.layers).map((l) => el("label", {},
        el("input", {type: "checkbox", "data-testid": "layer-" + l, checked: true, onchange: (e) => { p.layers[l] = e.target.checked; draw(); }}), " ", l))) : "");

    const result = film.result || {};
    const info = el("div", {class: "info"},
      el("h1", {}, `${h.game}`, result.id ? el("span", {class: "muted"}, ` \u00b7 ${result.id}`) : ""),
      aboutGame(h, box.dataset.rules),
      el("div", {class: "meta"},
        el("span", {"data-testid": "seed"}, `seed ${h.seed}`),
        // An empty option is the game's default (a map generated from the seed): no chip.
        Object.keys(h.options || {}).sort().filter((k) => String(h.options[k]) !== "").map((k) => optionTag(k, String(h.options[k])))),
      resultTable(film));

    const problem = film.problem || p.drawError;
    const live = film.live ? el("div", {class: "live", "data-testid": "live-status", "data-over": film.result ? "1" : "0"},
      film.result ? "The match is over: this is all of it." : "Live: the match is being judged, and the picture follows it.") : "";
    box.replaceChildren(mismatchBanner(film), live, info,
      problem ? el("div", {class: "warning", "data-testid": "problem"}, problem) : "",
      // The slider and the buttons, above the picture, stay in view at the top of the window
      // when the page is scrolled (style.css: .dock).
      el("div", {class: "dock", "data-testid": "dock"}, el("div", {class: "bar"}, slider, timeline), controls),
      el("div", {class: "stage"},
        el("div", {class: "left"}, toggleBox, board),
        el("div", {class: "right"}, scoreboard, chart, exchangeBox)));

    function draw() {
      const x = p.step > 0 ? film.exchanges[p.step - 1] : null;
      stepLabel.textContent = `step ${p.step} / ${n}` + (x ? ` \u00b7 turn ${x.turn}` : "");
      stepLabel.setAttribute("data-step", p.step);
      const frame = frameAt(film, p.step);
      scoreboard.replaceChildren(scoreTable(film, frame ? frame.scores : null));
      drawChart(chart, film, frames, p.step, players.length);
      chart.append(cpuChart(film, p.step));
      exchangeBox.replaceChildren(exchangeView(film, x, p.step), marksList(film, p.step, p.layers));
      drawBoard(board, film, r, p, p.step);
    }
    p.n = n;
    // At the result, unless the page was opened to watch the match from its start.
    go(box.dataset.start === "first" ? 0 : n);
  }

  // transport is the player's slider over steps 0..n and its buttons (first, back, play,
  // forward, last, speed, the step shown) for the player p (its step, speed and timer), with
  // go and toggle, which the keys use too (p.go, p.toggle); draw shows p.step.
  function transport(p, n, draw) {
    const stepLabel = el("span", {class: "step", "data-testid": "step"});
    const slider = el("input", {type: "range", min: 0, max: n, value: n, "aria-label": "step", "data-testid": "slider", oninput: () => go(+slider.value)});
    const playBtn = el("button", {title: "play / pause (space)", "data-testid": "play", onclick: () => toggle()}, "\u25b6");
    const speedSel = el("select", {title: "steps per second (+ / -)", "data-testid": "speed", onchange: () => { p.speed = +speedSel.value; if (p.playing) { toggle(); toggle(); } }},
      [1, 2, 4, 8, 16, 32, 64, 128].map((sp) => el("option", {value: sp, selected: sp === p.speed}, `${sp}/s`)));
    const controls = el("div", {class: "controls"},
      el("button", {title: "first step (Home)", onclick: () => go(0)}, "|\u25c0"),
      el("button", {title: "step back (\u2190)", "data-testid": "back", onclick: () => go(p.step - 1)}, "\u25c0"),
      playBtn,
      el("button", {title: "step forward (\u2192)", "data-testid": "forward", onclick: () => go(p.step + 1)}, "\u25b6\u25b6"),
      el("button", {title: "last step (End)", onclick: () => go(n)}, "\u25b6|"),
      speedSel, stepLabel);
    function toggle() {
      p.playing = !p.playing;
      playBtn.textContent = p.playing ? "\u25ae\u25ae" : "\u25b6";
      clearInterval(p.timer);
      if (p.playing) {
        if (p.step >= n) go(0);
        p.timer = setInterval(() => { if (p.step >= n) toggle(); else go(p.step + 1); }, 1000 / p.speed);
      }
    }
    function go(step) {
      p.step = Math.max(0, Math.min(n, step));
      slider.value = p.step;
      draw();
    }
    p.go = go; p.toggle = toggle;
    return {slider, controls, stepLabel, go};
  }

  // scoreTable is the scoreboard at a step: each player's colour, line, name, role and score.
  function scoreTable(film, scores) {
    const roles = rolesOf(film);
    return el("table", {}, (film.header.players || []).map((pl, i) => el("tr", {},
      el("td", {}, swatch(i), lineSample(i)), el("td", {}, pl.name, roles[i] ? el("span", {class: "role", "data-testid": "role"}, ` ${roles[i]}`) : ""),
      el("td", {class: "num", "data-testid": "score", "data-player": i}, scores ? fmt(scores[i]) : ""))));
  }

  // drawBoard draws film's picture at step into board with its renderer r, and over it the
  // marks of the move just made on the layers p shows (p: ctx, toggles, layers, drawError).
  function drawBoard(board, film, r, p, step) {
    const x = step > 0 ? film.exchanges[step - 1] : null;
    const frame = frameAt(film, step);
    const mk = marksOf(film, step);
    const marks = mk.marks.filter((m) => p.layers[m.layer] !== false);
    if (r && frame && !p.drawError) {
      try {
        const view = {film, ctx: p.ctx, state: frame.state, scores: frame.scores, step, exchange: x, toggles: p.toggles, marks, player: mk.player};
        r.draw(board, view);
        if (marks.length && r.annotate) r.annotate(board, view, marks);
      } catch (e) {
        showError(board, `the ${film.header.game} renderer failed at step ${step}: ${e.message}`);
      }
    } else if (!frame) {
      board.replaceChildren(el("p", {class: "muted"}, "No picture for this step."));
    }
  }

  // ---------- Two matches side by side ----------

  // pairSteps lines two films of one match up by turn. Each step of either (the one after an
  // exchange) is keyed by its turn and its place among that turn's exchanges; the slider runs
  // over all the keys in order, and each side shows its last step at or before the slider's
  // key. While the matches agree both show the same step; after they part, the same turn.
  function pairSteps(films) {
    const keyed = films.map((f) => {
      let turn = null, k = 0;
      return f.exchanges.map((x, i) => {
        if (x.turn === turn) k++; else { turn = x.turn; k = 0; }
        return {turn: x.turn, k, step: i + 1};
      });
    });
    const all = new Map();
    for (const ks of keyed) for (const e of ks) all.set(`${e.turn}:${e.k}`, {turn: e.turn, k: e.k});
    const keys = [...all.values()].sort((a, b) => a.turn - b.turn || a.k - b.k);
    const at = keyed.map((ks) => {
      const steps = [0];
      let j = 0, cur = 0;
      for (const key of keys) {
        while (j < ks.length && (ks[j].turn < key.turn || ks[j].turn === key.turn && ks[j].k <= key.k)) cur = ks[j++].step;
        steps.push(cur);
      }
      return steps;
    });
    return {keys, at};
  }

  // showPair plays two films of one match side by side (view.Pair): one slider, both boards
  // at the same turn, the first exchange where they part marked on the timeline and named
  // above, each side's exchange there outlined.
  function showPair(pair) {
    const box = root();
    stopPlayer();
    clearTimeout(listTimer);
    const films = [checkFilm(pair.a), checkFilm(pair.b)];
    const c = pair.comparison || {};
    const first = c.first || null;
    const names = pair.names || ["A", "B"];
    const h = films[0].header;
    const {keys, at} = pairSteps(films);
    const n = keys.length;
    // The slider's first position where a side shows the exchange they part at.
    const firstPos = first ? at[0].findIndex((st, pos) => st > first.exchange || at[1][pos] > first.exchange) : -1;
    const p = player = {step: n, playing: false, speed: 8, timer: null, toggles: {}, layers: {}, n};
    const r0 = renderers[h.game];
    for (const t of (r0 && r0.toggles) || []) p.toggles[t.key] = t.value;
    for (const f of films) for (const l of layersOf(f)) p.layers[l] = true;

    const sides = films.map((film, i) => {
      const frames = film.frames || [];
      const r = renderers[h.game] || (frames.length ? generic : null);
      const q = {toggles: p.toggles, layers: p.layers, ctx: null, drawError: ""};
      if (r) { try { q.ctx = r.prepare ? r.prepare(film) : null; } catch (e) { q.drawError = e.message; } }
      const board = el("div", {class: "board", "data-testid": "board", "data-side": i});
      const scoreboard = el("div", {class: "scoreboard", "data-testid": "scoreboard", "data-side": i});
      const exchangeBox = el("div", {class: "exchange", "data-testid": "exchange", "data-side": i});
      const stepLabel = el("span", {class: "step", "data-testid": "side-step", "data-side": i});
      const res = film.result || {};
      const final = (res.players || []).map((q, j) => `${((film.header.players || [])[j] || {}).name || "player " + j} ${fmt(q.score)}`).join(" \u00b7 ");
      const column = el("section", {class: "side", "data-testid": "side", "data-side": i},
        el("h2", {}, el("span", {class: "which"}, i ? "B" : "A"), ` ${names[i]}`),
        el("p", {class: "muted", "data-testid": "side-result"}, final ? `ended: ${final}` : "not judged to the end"),
        mismatchBanner(film), film.problem || q.drawError ? el("div", {class: "warning", "data-testid": "problem"}, film.problem || q.drawError) : "",
        stepLabel, board, scoreboard, exchangeBox);
      return {film, r, q, board, scoreboard, exchangeBox, stepLabel, column, draw(step) {
        const x = step > 0 ? film.exchanges[step - 1] : null;
        stepLabel.textContent = `step ${step} / ${film.exchanges.length}` + (x ? ` \u00b7 turn ${x.turn}` : "");
        stepLabel.setAttribute("data-step", step);
        const frame = frameAt(film, step);
        scoreboard.replaceChildren(scoreTable(film, frame ? frame.scores : null));
        const parted = first && step === first.exchange + 1;
        exchangeBox.classList.toggle("parted", !!parted);
        exchangeBox.replaceChildren(parted ? el("div", {class: "fault", "data-testid": "parted"}, `here the two matches part: ${first.why}`) : "",
          exchangeView(film, x, step), marksList(film, step, p.layers));
        drawBoard(board, film, r, q, step);
      }};
    });

    const who = (i) => { const pl = (h.players || [])[i]; return pl ? `${pl.name} (player ${i})` : `player ${i}`; };
    const answer = (a) => a === null || a === undefined ? "nothing (its match was over)" : JSON.stringify(a);
    const summary = el("div", {class: first ? "banner" : "info", "data-testid": "pair-summary"},
      first ? [el("strong", {}, `They part at exchange ${first.exchange} (step ${first.exchange + 1}), turn ${first.turn}, ${who(first.player)}: `),
        `${first.why}. A answered ${answer(first.a)}, B answered ${answer(first.b)}. `,
        el("button", {"data-testid": "go-first", onclick: () => go(firstPos)}, "Go there")] :
        el("strong", {}, "The same match, exchange for exchange."));
    const {slider, controls, stepLabel, go} = transport(p, n, () => draw());
    const timeline = el("div", {class: "timeline", "data-testid": "timeline"}, firstPos >= 0 ?
      el("button", {class: "mark first", "data-testid": "first-difference", "data-step": firstPos, style: `left:${n ? 100 * firstPos / n : 0}%`,
        title: `where they part: ${first.why}`, onclick: () => go(firstPos)}, "\u2260") : "");
    const toggleBox = el("div", {class: "toggles"}, ((r0 && r0.toggles) || []).map((t) => el("label", {},
      el("input", {type: "checkbox", "data-testid": "toggle-" + t.key, checked: t.value, onchange: (e) => { p.toggles[t.key] = e.target.checked; draw(); }}), " ", t.label)),
      Object.keys(p.layers).length ? el("span", {class: "layers", "data-testid": "layers"}, "drawings: ", Object.keys(p.layers).map((l) => el("label", {},
        el("input", {type: "checkbox", "data-testid": "layer-" + l, checked: true, onchange: (e) => { p.layers[l] = e.target.checked; draw(); }}), " ", l))) : "");
    box.replaceChildren(
      el("div", {class: "info"}, el("h1", {}, `${h.game}: two matches side by side`), aboutGame(h, box.dataset.rules),
        el("div", {class: "meta"}, el("span", {"data-testid": "seed"}, `seed ${h.seed}`),
          Object.keys(h.options || {}).sort().filter((k) => String(h.options[k]) !== "").map((k) => optionTag(k, String(h.options[k]))))),
      summary,
      el("div", {class: "dock", "data-testid": "dock"}, el("div", {class: "bar"}, slider, timeline), controls),
      toggleBox,
      el("div", {class: "pair", "data-testid": "pair"}, sides.map((sd) => sd.column)));

    function draw() {
      const key = p.step > 0 ? keys[p.step - 1] : null;
      stepLabel.textContent = `${p.step} / ${n}` + (key ? ` \u00b7 turn ${key.turn}` : "");
      stepLabel.setAttribute("data-step", p.step);
      sides.forEach((sd, i) => sd.draw(at[i][p.step]));
    }
    go(firstPos >= 0 ? firstPos : n);
  }

  // mismatchBanner says, above everything, that a replay does not re-judge to what it
  // records, and what differs: the page must not pass an edited file off as a true one.
  function mismatchBanner(film) {
    const diffs = film.mismatch || [];
    if (!diffs.length) return "";
    return el("div", {class: "banner", role: "alert", "data-testid": "mismatch"},
      el("strong", {}, "This replay does not re-judge to what it records."),
      " It was edited, or made by a judge whose rules differ from this one's. The tables below show what the file records; the board shows what the game makes of its moves.",
      el("ul", {}, diffs.map((d) => el("li", {"data-testid": "difference"},
        el("b", {}, d.field), `: recorded ${d.recorded}, re-judged ${d.rejudged}`))));
  }

  // optionTag shows an option; a long value (a whole map or maze) is cut, and kept whole in
  // its tooltip.
  function optionTag(k, v) {
    const short = v.length > 32 ? v.replace(/\s+/g, " ").slice(0, 24) + `\u2026 (${v.length} characters)` : v;
    return el("span", {class: "opt", title: short === v ? null : v, "data-testid": "option"}, `${k}=${short}`);
  }

  function resultTable(film) {
    const res = film.result || {};
    const players = film.header.players || [];
    const rp = res.players || [];
    // What the compiler said, for a build that failed or warned: the bot's author wants it.
    const logs = players.map((pl, i) => {
      const b = (rp[i] || {}).build || {};
      if (!b.log && b.ok !== false) return "";
      return el("details", {class: "buildlog", "data-testid": "build-log", open: b.ok === false},
        el("summary", {}, swatch(i), `${pl.name}: ${b.ok === false ? "did not compile" + (b.failure ? ` (${b.failure})` : "") : "compiler output"}`),
        el("pre", {}, b.log || "(no output)"));
    });
    return el("div", {}, resultRows(players, rp, rolesOf(film)), logs);
  }

  // rolesOf is each player's role as the game's renderer names it (On The Run's Fugitive and
  // Detectives), or [] when the game has none.
  function rolesOf(film) {
    const r = renderers[film.header.game];
    if (!r || !r.roles) return [];
    try { return (r.roles(film) || []).map((x) => (x === undefined || x === null ? "" : String(x))); } catch (e) { return []; }
  }

  function resultRows(players, rp, roles) {
    roles = roles || [];
    const hasRoles = roles.some((x) => x);
    return el("table", {class: "result", "data-testid": "result"},
      el("thead", {}, el("tr", {}, ["", "player", hasRoles ? "role" : null, "lang", "score", "rank", "moves", "CPU ms", "fault"]
        .filter((c) => c !== null).map((c) => el("th", {}, c)))),
      el("tbody", {}, players.map((pl, i) => {
        const q = rp[i] || {};
        return el("tr", {},
          el("td", {}, swatch(i)), el("td", {}, pl.name),
          hasRoles ? el("td", {class: "role", "data-testid": "result-role", "data-player": i}, roles[i] || "") : "",
          el("td", {}, pl.lang),
          el("td", {class: "num", "data-testid": "final-score", "data-player": i}, fmt(q.score)),
          el("td", {class: "num"}, q.rank), el("td", {class: "num"}, q.moves), el("td", {class: "num"}, q.cpu_ms),
          el("td", {class: "fault"}, q.fault ? `${q.fault.kind} at turn ${q.fault.turn}: ${q.fault.detail}` : ""));
      })));
  }

  function exchangeView(film, x, step) {
    if (!x) return el("p", {class: "muted"}, "Before the first exchange. Step forward (\u2192) to see what was sent and answered.");
    const pl = (film.header.players || [])[x.player] || {name: "player " + x.player};
    const f = x.verdict || x.fault;
    const kind = x.expect === 0 && !x.ready ? "notice (no answer asked)" : `asked for ${x.ready ? "READY" : x.expect + " line" + (x.expect === 1 ? "" : "s")}`;
    return el("div", {},
      el("div", {class: "xhead"}, swatch(x.player), ` ${pl.name} \u00b7 turn ${x.turn} \u00b7 ${kind}`,
        x.expect || x.ready ? ` \u00b7 ${x.cpu_ms} ms CPU of ${Math.round(x.limit_us / 1000)}` : ""),
      el("div", {class: "label"}, "sent"), el("pre", {"data-testid": "sent"}, x.sent || "(nothing)"),
      x.expect || x.ready ? [el("div", {class: "label"}, "answered"), el("pre", {"data-testid": "received"}, (x.received || []).join("\n") || "(nothing)")] : "",
      f ? el("div", {class: "fault", "data-testid": "fault"}, `${f.kind} at turn ${f.turn}: ${f.detail}`) : "",
      x.stderr ? [el("div", {class: "label"}, "stderr during this move"), el("pre", {class: "stderr", "data-testid": "stderr"}, x.stderr)] : "");
  }

  // Each player's line in the chart has its own dash pattern as well as its colour, so that
  // lines over each other (a tie) still show; lineSample is the pattern beside its name.
  const DASHES = [null, "7 3", "2 2", "9 3 2 3", "1 3", "12 3", "5 2 1 2 1 2", "3 5"];
  const dash = (i) => DASHES[i % DASHES.length];
  function lineSample(i) {
    return svg("svg", {class: "linesample", viewBox: "0 0 22 6", width: 22, height: 6, "aria-hidden": "true"},
      svg("path", {d: "M1 3h20", stroke: color(i), "stroke-width": 2, "stroke-dasharray": dash(i)}));
  }

  // drawChart draws each player's score over the steps, with the current step marked. Lines
  // that overlap stay apart: each has its own dash pattern and a small vertical offset, and
  // ends in a label with its last score; what the renderer says of the scores (scoreNotes) is
  // written under it.
  // cpuChart draws the CPU each move took against its limit, a dot a move in its player's
  // colour, the step shown marked, and under it each player's closest call: the move that came
  // nearest its limit.
  function cpuChart(film, step) {
    const xs = film.exchanges.map((x, i) => ({x, i})).filter(({x}) => (x.expect || x.ready) && x.limit_us > 0);
    if (!xs.length) return "";
    const n = film.exchanges.length, W = 300, H = 70;
    const X = (i) => 4 + (W - 8) * (n > 1 ? i / (n - 1) : 0), Y = (f) => H - 6 - (H - 14) * Math.min(f, 1.1) / 1.1;
    const g = svg("svg", {viewBox: `0 0 ${W} ${H}`, class: "chartsvg", role: "img", "aria-label": "CPU each move against its limit", "data-testid": "cpu-chart"});
    g.append(svg("line", {x1: 4, x2: W - 4, y1: Y(1), y2: Y(1), stroke: "#e57373", "stroke-dasharray": "3 2"}),
      svg("text", {x: W - 4, y: Y(1) - 2, "text-anchor": "end", "font-size": 8, fill: "#b71c1c"}, "the limit"));
    const closest = {};
    for (const {x, i} of xs) {
      const f = x.cpu_us / x.limit_us;
      g.append(svg("circle", {cx: X(i), cy: Y(f), r: 1.4, fill: color(x.player)}));
      if (!closest[x.player] || f > closest[x.player].f) closest[x.player] = {f, turn: x.turn, step: i + 1};
    }
    if (step > 0) g.append(svg("line", {x1: X(step - 1), x2: X(step - 1), y1: 4, y2: H - 4, stroke: "#999", "stroke-dasharray": "2 2"}));
    const names = (film.header.players || []).map((p, i) => p.name || `player ${i}`);
    return el("div", {class: "cpu"},
      el("div", {class: "label"}, "CPU each move, against its limit"), g,
      Object.keys(closest).map((pl) => el("p", {class: "muted", "data-testid": "closest-call", "data-player": pl}, swatch(+pl),
        ` ${names[pl] || "player " + pl}: closest call ${Math.round(100 * closest[pl].f)}% of its limit, at turn ${closest[pl].turn} (step ${closest[pl].step})`)));
  }

  function drawChart(box, film, frames, step, nPlayers) {
    const n = film.exchanges.length;
    const series = [];
    let lo = 0, hi = 1, last = null;
    for (let s = 0; s <= n; s++) {
      const i = film.frame_of[s];
      if (i !== undefined && i >= 0) last = frames[i].scores;
      series.push(last);
      if (last) for (const v of last) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    }
    if (!frames.length) { box.replaceChildren(); return; }
    const W = 300, H = 120, RIGHT = 40, SEP = 1.6;
    const X = (s) => 4 + (W - RIGHT - 8) * (n ? s / n : 0), Y = (v) => H - 16 - (H - 28) * (v - lo) / (hi - lo || 1);
    const off = (pl) => (pl - (nPlayers - 1) / 2) * SEP;
    const names = (film.header.players || []).map((p, i) => p.name || `player ${i}`);
    const g = svg("svg", {viewBox: `0 0 ${W} ${H}`, class: "chartsvg", role: "img", "aria-label": "score over the match", "data-testid": "chart"});
    g.append(svg("line", {x1: 4, x2: W - RIGHT - 4, y1: Y(0), y2: Y(0), stroke: "#ddd"}));
    const ends = [];
    for (let pl = 0; pl < nPlayers; pl++) {
      let d = "", end = null;
      series.forEach((sc, s) => {
        if (!sc) return;
        d += `${d ? "L" : "M"}${X(s).toFixed(1)},${(Y(sc[pl]) + off(pl)).toFixed(1)}`;
        end = sc[pl];
      });
      g.append(svg("path", {d, fill: "none", stroke: color(pl), "stroke-width": 1.6, "stroke-dasharray": dash(pl),
        "data-testid": "series", "data-player": pl}, svg("title", {}, names[pl] || `player ${pl}`)));
      if (end !== null && end !== undefined) ends.push({pl, v: end, y: Y(end) + off(pl)});
    }
    // The end labels, pushed apart so that equal scores are all readable.
    ends.sort((a, b) => a.y - b.y || a.pl - b.pl);
    const GAP = 11;
    for (let k = 1; k < ends.length; k++) ends[k].y = Math.max(ends[k].y, ends[k - 1].y + GAP);
    const over = ends.length ? ends[ends.length - 1].y - (H - 14) : 0;
    if (over > 0) for (const e of ends) e.y -= over;
    for (let k = ends.length - 2; k >= 0; k--) ends[k].y = Math.min(ends[k].y, ends[k + 1].y - GAP);
    for (const e of ends) {
      g.append(svg("text", {x: W - RIGHT, y: (e.y + 3).toFixed(1), "font-size": 9, "font-weight": 600, fill: color(e.pl),
        "data-testid": "series-end", "data-player": e.pl}, fmt(e.v)));
    }
    g.append(svg("line", {x1: X(step), x2: X(step), y1: 0, y2: H - 12, stroke: "#888", "stroke-dasharray": "3 2"}));
    g.append(svg("text", {x: 4, y: H - 2, "font-size": 9, fill: "#666"}, `score \u00b7 ${fmt(lo)}..${fmt(hi)}`));
    const notes = scoreNotesOf(film);
    box.replaceChildren(g, notes.length ? el("ul", {class: "scorenotes", "data-testid": "score-notes"},
      notes.map((x) => el("li", {}, x.player >= 0 ? swatch(x.player) : "", x.text))) : "");
  }

  // scoreNotesOf is what the game's renderer says of the scores, or [].
  function scoreNotesOf(film) {
    const r = renderers[film.header.game];
    if (!r || !r.scoreNotes || !(film.frames || []).length) return [];
    try {
      return (r.scoreNotes(film) || []).filter((x) => x && x.text).map((x) => ({player: typeof x.player === "number" ? x.player : -1, text: String(x.text)}));
    } catch (e) { return []; }
  }

  // ---------- Keys and files ----------

  function onKey(e) {
    if (!player || !player.go || e.target.tagName === "INPUT" && e.target.type !== "range" || e.target.tagName === "SELECT") return;
    const p = player;
    const big = e.shiftKey ? 10 : 1;
    switch (e.key) {
      case " ": p.toggle(); break;
      case "ArrowRight": p.go(p.step + big); break;
      case "ArrowLeft": p.go(p.step - big); break;
      case "Home": p.go(0); break;
      case "End": p.go(p.n); break;
      case "+": case "=": setSpeed(2); break;
      case "-": setSpeed(0.5); break;
      default: return;
    }
    e.preventDefault();
  }
  function setSpeed(f) {
    const sel = document.querySelector("[data-testid=speed]");
    const opts = [...sel.options].map((o) => +o.value);
    const want = player.speed * f;
    const v = opts.reduce((a, b) => Math.abs(b - want) < Math.abs(a - want) ? b : a);
    sel.value = v;
    sel.dispatchEvent(new Event("change"));
  }

  // openFile loads another replay chosen by the user, without reloading the page: through the
  // judge when the page is served (it draws the game), else in the page (exchanges only).
  async function openFile(file) {
    const box = root();
    clearTimeout(listTimer);
    try {
      const text = await file.text();
      let film;
      if (served()) {
        film = checkFilm(await fetchJSON("api/film", {method: "POST", body: text}));
      } else {
        film = filmFromReplayText(text);
      }
      history.replaceState(null, "", location.pathname + location.search + "#/file");
      showFilm(film);
    } catch (e) {
      showError(box, `${file.name}: ${e.message}`);
    }
  }

  // startLive follows a match under way from its event stream (the portal's live endpoint):
  // each line of its replay as it is judged, and the game's picture after each exchange; the
  // page redraws at most every LIVE_REDRAW_MS, at the newest step unless the watcher stepped
  // back. A stream that drops is opened again by the browser, and starts over from the header.
  const LIVE_REDRAW_MS = 100, LIVE_RETRY_MS = 1000;
  function startLive(url) {
    const box = root();
    box.replaceChildren(el("p", {class: "muted", "data-testid": "live-wait"}, "Waiting for the match to start…"));
    let film = null, timer = null, stopped = false;
    const redraw = () => {
      timer = null;
      if (!film || stopped) return;
      const p = player;
      const wasAt = p && p.film === film && p.step < p.n ? p.step : -1;
      showFilm(film);
      if (wasAt >= 0 && player) player.go(wasAt);
    };
    const later = () => { if (!timer) timer = setTimeout(redraw, LIVE_REDRAW_MS); };
    const data = (e) => { try { return JSON.parse(e.data); } catch (err) { return null; } };
    // A match not played yet answers 409, which ends an EventSource for good: ask again.
    let es = null;
    const connect = () => {
      if (stopped) return;
      es = new EventSource(url);
      listen(es);
      es.onerror = () => { if (es.readyState === EventSource.CLOSED && !(film && film.result)) setTimeout(connect, LIVE_RETRY_MS); };
    };
    const listen = (es) => {
      es.addEventListener("header", (e) => {
        const h = data(e);
        if (!h) return;
        film = {version: FILM_VERSION, header: h, exchanges: [], frames: [], frame_of: [-1], result: null, live: true};
        later();
      });
      es.addEventListener("move", (e) => {
        const x = data(e);
        if (!film || !x) return;
        film.exchanges.push(x);
        film.frame_of.push(-1);
        later();
      });
      es.addEventListener("stderr", (e) => {
        const l = data(e);
        if (film && l && film.exchanges[l.exchange]) film.exchanges[l.exchange].stderr = (film.exchanges[l.exchange].stderr || "") + l.text;
        later();
      });
      es.addEventListener("problem", (e) => {
        const pr = data(e);
        if (film && pr) film.problem = pr.problem;
        later();
      });
      es.addEventListener("frame", (e) => {
        const f = data(e);
        if (!film || !f) return;
        film.frames.push(f.frame);
        while (film.frame_of.length <= f.step) film.frame_of.push(-1);
        film.frame_of[f.step] = film.frames.length - 1;
        later();
      });
      es.addEventListener("result", (e) => {
        const r = data(e);
        if (film && r) film.result = r.result;
        es.close();
        later();
      });
    };
    connect();
    return () => { stopped = true; clearTimeout(timer); if (es) es.close(); };
  }

  // startProjector shows a round on a big screen: beside the viewer, the round's standings
  // and progress (its API, asked every PROJECTOR_MS); the viewer follows the round's first
  // match not judged yet, and, once that one is judged, the next by itself.
  const PROJECTOR_MS = 3000;
  function startProjector(url) {
    document.body.classList.add("projecting");
    const side = el("aside", {class: "projector", "data-testid": "projector-side"});
    document.body.append(side);
    const full = el("button", {"data-testid": "fullscreen", onclick: () => { if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen(); }}, "Full screen");
    let following = null, stop = null;
    const tick = async () => {
      let r;
      try { r = await fetchJSON(url); } catch (e) {
        side.replaceChildren(full, el("p", {class: "warning"}, e.message));
        setTimeout(tick, PROJECTOR_MS);
        return;
      }
      side.replaceChildren(full, standingsPanel(r));
      const playing = r.playing || [];
      if (playing.length && !playing.includes(following)) {
        following = playing[0];
        if (stop) stop();
        side.setAttribute("data-following", following);
        stop = startLive("/api/v1/matches/" + encodeURIComponent(following) + "/live?frames=1");
      }
      if (r.status === "running") setTimeout(tick, PROJECTOR_MS);
    };
    tick();
  }

  // standingsPanel is a round's progress and standings: at its end the round's, while it runs
  // those of the matches judged so far (its entrants before any).
  function standingsPanel(r) {
    const done = (r.outcome && r.outcome.standings) || [];
    const soFar = r.status === "running" && r.judged > 0 ? r.so_far || [] : [];
    const rows = done.length ? done : soFar;
    return el("div", {},
      el("h2", {}, `${r.kind === "official" ? "The official round" : "Test competition"} ${r.id}`),
      el("p", {class: "muted", "data-testid": "projector-progress"}, r.status === "running" ?
        `${r.judged} matches judged, ${(r.playing || []).length} playing now` : `${r.status}: ${r.judged} matches judged`),
      !done.length && soFar.length ? el("p", {class: "muted", "data-testid": "projector-so-far"}, `Standings so far, after ${r.judged} matches:`) : "",
      rows.length ? el("table", {class: "result", "data-testid": "projector-standings", "data-final": done.length ? "1" : "0"},
        el("tbody", {}, rows.map((s) => el("tr", {}, el("td", {class: "num"}, s.rank), el("td", {}, s.name), el("td", {class: "num"}, fmt(s.points))))))
        : el("ul", {"data-testid": "projector-entrants"}, (r.entrants || []).map((e) => el("li", {}, e.login))));
  }

  function start() {
    document.addEventListener("keydown", onKey);
    const input = document.getElementById("open");
    if (input) input.addEventListener("change", () => { if (input.files[0]) openFile(input.files[0]); input.value = ""; });
    const projector = root().dataset.projector;
    if (projector) {
      const back = document.getElementById("home");
      if (back) back.remove();
      startProjector(projector);
      return;
    }
    const live = root().dataset.live;
    if (live) {
      const back = document.getElementById("home");
      if (back) back.remove();
      startLive(live);
      return;
    }
    const pair = document.getElementById("pair");
    if (pair) {
      const back = document.getElementById("home");
      if (back) back.remove();
      try {
        showPair(JSON.parse(pair.textContent));
      } catch (e) {
        showError(root(), `the replays in this page cannot be read: ${e.message}`);
      }
      return;
    }
    const embedded = document.getElementById("film");
    if (embedded) {
      const back = document.getElementById("home");
      if (back) back.remove();
      try {
        showFilm(checkFilm(JSON.parse(embedded.textContent)));
      } catch (e) {
        showError(root(), `the replay in this page cannot be read: ${e.message}`);
      }
      return;
    }
    window.addEventListener("hashchange", route);
    route();
  }

  return {register, el, svg, color, fmt, frameAt, start, filmFromReplayText, parseMarks, drawMarks, get player() { return player; }};
})();

window.addEventListener("DOMContentLoaded", () => JudgeView.start());
