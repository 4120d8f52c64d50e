// Amazes (judge/games/amazes, docs/games/amazes.md): two panels, the 25 x 25 maze as each
// player knows it - its discovered squares and the walls it knows - with both players (a
// triangle pointing the way each faces), their start squares and the path walked in the
// exchange just made. "Real maze" adds the walls the player does not know, in grey.
//
// The real maze comes from the header's world (the maze option's layout); each frame's
// state is {p: [{r, c, d, pts, n, t, f, path, map}]} for Red and Blue (judge/games/amazes/view.go):
// path is the squares (row * 25 + column) the player passed through in its last turn; map is
// 25 rows of 25 characters, each one of DIGITS, whose index has bit 1 for a
// discovered square, 2 for a dead end, and 4, 8, 16, 32 for a known edge on its north, east,
// south and west side.
"use strict";

(() => {
  const {svg, color, fmt, frameAt, drawMarks} = JudgeView;
  const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/";
  const VALUE = {};
  for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS[i]] = i;
  const DIRS = "NESW";
  const S = 10; // a square, in SVG units
  const GAP = 24, TOP = 51, PAD = 6;
  const NAMES = ["Red", "Blue"];
  const MAX_SCORE = 1000; // a score is the points clamped to 0..1000 (docs/games/amazes.md)
  const UNKNOWN_WALL = "#6f777e";

  // parseMaze reads the maze option's layout: two start lines, then 51 lines of flags,
  // horizontal lines of 25 (top border first) alternating with rows of 26 vertical flags.
  function parseMaze(text, n) {
    const lines = String(text || "").split("\n").map((l) => l.trim()).filter((l) => l !== "");
    const h = [], v = [];
    for (let k = 0; k < 2 * n + 1; k++) {
      const flags = (lines[2 + k] || "").replace(/\s+/g, "");
      const row = [];
      const len = k % 2 === 0 ? n : n + 1;
      for (let x = 0; x < len; x++) row.push(flags[x] !== "0");
      (k % 2 === 0 ? h : v).push(row);
    }
    return {h, v}; // h[i][c]: the edge above row i; v[r][j]: the edge left of column j
  }

  // faultsOf finds each player's first fault: its turn and the step that shows it.
  function faultsOf(film) {
    const out = [];
    film.exchanges.forEach((x, i) => {
      const f = x.fault || x.verdict;
      if (f && !out[x.player]) out[x.player] = {turn: f.turn || x.turn, step: i + 1};
    });
    return out;
  }

  JudgeView.register("amazes", {
    about: "Two players explore the same hidden 25 x 25 maze: new squares seen and reached earn points, each step costs one, landing on the opponent pays a bonus (CodeCup 2010).",
    toggles: [{key: "real", label: "Real maze", value: false}],

    prepare(film) {
      const world = film.header.world || {};
      const n = world.size || 25;
      const maze = parseMaze(world.maze, n);
      // Every wall of the real maze, by edge, for the real-maze overlay.
      const edges = [];
      for (let i = 0; i <= n; i++) for (let c = 0; c < n; c++) if (maze.h[i][c]) edges.push({h: true, i, c});
      for (let r = 0; r < n; r++) for (let j = 0; j <= n; j++) if (maze.v[r][j]) edges.push({h: false, r, j});
      // The path of each answer: the squares the mover passed through, which the game's own
      // picture holds (state.p[k].path).
      const paths = [null];
      film.exchanges.forEach((x, i) => {
        const after = frameAt(film, i + 1);
        const me = after && (x.expect || x.ready) && after.state.p[x.player];
        const faulted = x.fault || x.verdict;
        const line = faulted ? "" : ((x.received || [])[0] || "").trim();
        paths.push(me && me.path ? {player: x.player, line, cells: me.path.map((sq) => [Math.floor(sq / n), sq % n])} : null);
      });
      const turns = +((film.header.options || {}).turns) || 150;
      return {n, maze, edges, paths, turns, starts: world.starts || [], faults: faultsOf(film)};
    },

    // scoreNotes says why the chart's score differs from the points in the panels: a faulted
    // player scores 0, and the final score is the points clamped to 0..1000.
    scoreNotes(film) {
      const last = film.frames[film.frames.length - 1];
      if (!last || !last.state || !last.state.p) return [];
      const names = (film.header.players || []).map((p) => p.name);
      const faults = faultsOf(film);
      const notes = [];
      last.state.p.forEach((me, k) => {
        const who = `${NAMES[k] || "player " + k}${names[k] ? " (" + names[k] + ")" : ""}`;
        const score = last.scores[k];
        if (me.f) {
          const f = faults[k];
          notes.push({player: k, text: `${who} faulted${f ? ` at turn ${f.turn} (step ${f.step})` : ""}: a faulted player scores 0, ` +
            `so its line drops to 0 there, whatever its points (${fmt(me.pts)} at the end).`});
        } else if (score !== me.pts) {
          notes.push({player: k, text: `${who} ends with ${fmt(me.pts)} points, final score ${fmt(score)}: ` +
            `the score is the points clamped to 0..${MAX_SCORE}, hence the jump at the last step.`});
        }
      });
      return notes;
    },

    // annotate draws a bot's marks on its own panel. A bot knows the maze from its start only,
    // so its coordinates are its own: x squares to the right and y ahead of its start square,
    // as it faced there (docs/viewer.md).
    annotate(box, v, marks) {
      const k = v.player;
      const g = box.querySelector(`[data-testid=panel][data-player="${k}"]`);
      const first = frameAt(v.film, 0);
      const st = ctx0(v.ctx, first, k);
      if (!g || !st) return;
      const ahead = {N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1]}[st.d] || [-1, 0];
      const right = [ahead[1], -ahead[0]];
      drawMarks(g, marks, (x, y) => {
        const r = st.r + y * ahead[0] + x * right[0], c = st.c + y * ahead[1] + x * right[1];
        return [c * S + S / 2, r * S + S / 2];
      }, S, k);
    },

    draw(box, v) {
      const {ctx, state} = v;
      const n = ctx.n, W = n * S;
      const ps = state.p;
      const names = (v.film.header.players || []).map((p) => p.name);
      const path = ctx.paths[v.step] || null;
      const width = 2 * W + GAP + 2 * PAD, height = TOP + W + 40;
      const root = svg("svg", {viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "the maze as each player knows it",
        "font-family": "system-ui, sans-serif", "data-testid": "amazes"});
      for (let k = 0; k < ps.length; k++) {
        root.append(panel(ctx, v, k, PAD + k * (W + GAP), path, names[k]));
      }
      root.append(legend(ctx, v, ps, width, TOP + W + 18));
      box.replaceChildren(root);
      fitLines(root, W);
    },
  });

  // panel draws player k's knowledge at x0.
  function panel(ctx, v, k, x0, path, name) {
    const n = ctx.n, W = n * S, ps = v.state.p, me = ps[k];
    const g = svg("g", {transform: `translate(${x0},${TOP})`, "data-testid": "panel", "data-player": k});
    const val = (r, c) => VALUE[me.map[r][c]] || 0;
    let disc = "", dead = "", known = "", unknown = "";
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const x = val(r, c);
        if (x & 1) disc += `M${c * S} ${r * S}h${S}v${S}h${-S}z`;
        if (x & 2) dead += `M${c * S + 3.5} ${r * S + 3.5}h3v3h-3z`;
      }
    }
    // An edge is known when a square on either side says so.
    for (const e of ctx.edges) {
      let isKnown, d;
      if (e.h) {
        isKnown = (e.i < n && val(e.i, e.c) & 4) || (e.i > 0 && val(e.i - 1, e.c) & 16);
        d = `M${e.c * S} ${e.i * S}h${S}`;
      } else {
        isKnown = (e.j < n && val(e.r, e.j) & 32) || (e.j > 0 && val(e.r, e.j - 1) & 8);
        d = `M${e.j * S} ${e.r * S}v${S}`;
      }
      if (isKnown) known += d;
      else unknown += d;
    }
    let grid = "";
    for (let i = 1; i < n; i++) grid += `M0 ${i * S}h${W}M${i * S} 0v${W}`;
    const moved = path && path.player === k;
    // Three lines, each kept within the panel (fitLines): who and its move; what it has
    // discovered and its turns; its points and, when they are not its score, why.
    const who = `${NAMES[k] || "player " + k}${name ? ": " + clip(name) : ""}`;
    g.append(
      svg("text", {x: 0, y: -36, "font-size": 11.5, "font-weight": moved ? "bold" : "normal", fill: color(k), "data-testid": "who", "data-player": k},
        `${who}${moved ? " \u00b7 moved " + clip(path.line || "T, by the judge") : ""}`),
      svg("text", {x: 0, y: -22, "font-size": 10.5, fill: "#333", "data-testid": "counts", "data-player": k},
        `discovered ${me.n}/${n * n} \u00b7 turn ${me.t}/${ctx.turns}${me.f ? " \u00b7 the judge plays T" : ""}`),
      svg("text", {x: 0, y: -8, "font-size": 10.5, fill: me.f ? "#b71c1c" : "#333", "data-testid": "points", "data-player": k},
        pointsLine(ctx, v, k, me)),
      svg("rect", {x: 0, y: 0, width: W, height: W, fill: "#c9ced3"}),
      svg("path", {d: disc, fill: "#fff"}),
      svg("path", {d: disc, fill: color(k), "fill-opacity": 0.22}),
      svg("path", {d: grid, stroke: "#000", "stroke-opacity": 0.07, "stroke-width": 0.5, fill: "none"}),
      dead ? svg("path", {d: dead, fill: "#555", "fill-opacity": 0.6}) : null,
      v.toggles.real && unknown ? svg("path", {d: unknown, stroke: UNKNOWN_WALL, "stroke-width": 1, "stroke-linecap": "square", fill: "none"}) : null,
      known ? svg("path", {d: known, stroke: "#111", "stroke-width": 2, "stroke-linecap": "square", fill: "none"}) : null);
    // The start squares: a ring in each player's colour.
    ctx.starts.forEach((st, i) => g.append(svg("circle", {cx: (st.col - 0.5) * S, cy: (st.row - 0.5) * S, r: S * 0.32,
      fill: "none", stroke: color(i), "stroke-width": 1.2, "stroke-dasharray": "2 1.2"})));
    if (path && path.cells.length > 1) {
      const pts = path.cells.map(([r, c]) => `${c * S + S / 2},${r * S + S / 2}`).join(" ");
      g.append(svg("polyline", {points: pts, fill: "none", stroke: color(path.player), "stroke-width": 2.6,
        "stroke-opacity": 0.75, "stroke-linejoin": "round", "stroke-linecap": "round", "data-testid": "path"}));
      const [r0, c0] = path.cells[0];
      g.append(svg("circle", {cx: c0 * S + S / 2, cy: r0 * S + S / 2, r: 1.8, fill: color(path.player)}));
    }
    // Both players; the one that moved last on top, smaller when it is on the other's square.
    const top = path ? path.player : ps.length - 1;
    const order = ps.map((_, i) => i).filter((i) => i !== top).concat([top]);
    for (const i of order) {
      const shared = ps.some((q, j) => j !== i && q.r === ps[i].r && q.c === ps[i].c);
      g.append(marker(ps[i], i, shared && i === top));
    }
    g.append(svg("rect", {x: 0, y: 0, width: W, height: W, fill: "none", stroke: "#111", "stroke-width": 0.5}));
    return g;
  }

  // marker is a player's triangle pointing the way it faces (small: on top of the other's).
  function marker(p, i, small) {
    const a = DIRS.indexOf(p.d) * 90, s = small ? 0.62 : 1;
    return svg("polygon", {points: "0,-4.3 3.6,3.4 -3.6,3.4", fill: color(i), stroke: "#fff", "stroke-width": 0.9,
      "stroke-linejoin": "round", transform: `translate(${p.c * S + S / 2},${p.r * S + S / 2}) rotate(${a}) scale(${s})`,
      "data-testid": "player", "data-player": i, "data-row": p.r, "data-col": p.c, "data-dir": p.d});
  }

  // pointsLine is the player's points and, when its score is not its points, why: a fault
  // scores 0, and the final score is the points clamped to 0..1000.
  function pointsLine(ctx, v, k, me) {
    const pts = `points ${fmt(me.pts)}`;
    const score = v.scores ? v.scores[k] : me.pts;
    if (me.f) {
      const f = ctx.faults[k];
      return `${pts} \u00b7 final score 0: faulted${f ? " at turn " + f.turn : ""}`;
    }
    if (score !== me.pts) return `${pts} \u00b7 final score ${fmt(score)} (clamped to 0..${MAX_SCORE})`;
    if (me.pts < 0) return `${pts} (below 0 counts as 0 at the end)`;
    if (me.pts > MAX_SCORE) return `${pts} (counts as ${MAX_SCORE} at the end)`;
    return pts;
  }

  // fitLines narrows a panel's line that would run into the other panel (a long name).
  function fitLines(root, w) {
    for (const t of root.querySelectorAll("[data-testid=who], [data-testid=counts], [data-testid=points]")) {
      const len = t.getComputedTextLength ? t.getComputedTextLength() : 0;
      if (len > w) t.setAttribute("font-size", (+t.getAttribute("font-size") * w / len * 0.98).toFixed(2));
    }
  }

  // ctx0 is player k's start: its square and the way it faced, before the first exchange.
  function ctx0(ctx, first, k) {
    const p = first && first.state && first.state.p && first.state.p[k];
    return p ? {r: p.r, c: p.c, d: p.d} : null;
  }

  function clip(s) { return s.length > 24 ? s.slice(0, 22) + "\u2026" : s; }

  // legend explains the marks, in two rows below the panels.
  function legend(ctx, v, ps, width, y) {
    const g = svg("g", {"font-size": 9.5, fill: "#444", "data-testid": "legend"});
    let x = PAD;
    const item = (shape, label) => {
      g.append(shape(x), svg("text", {x: x + 13, y: y + 3}, label));
      x += 24 + label.length * 5.3;
    };
    item((x) => svg("rect", {x, y: y - 4, width: 9, height: 9, fill: "#c9ced3"}), "unknown square");
    item((x) => svg("rect", {x, y: y - 4, width: 9, height: 9, fill: color(0), "fill-opacity": 0.22, stroke: "#ccc", "stroke-width": 0.4}), "discovered");
    item((x) => svg("g", {}, svg("rect", {x, y: y - 4, width: 9, height: 9, fill: "#fff", stroke: "#ccc", "stroke-width": 0.4}),
      svg("rect", {x: x + 3, y: y - 1, width: 3, height: 3, fill: "#555", "fill-opacity": 0.6})), "dead end");
    item((x) => svg("line", {x1: x, x2: x + 10, y1: y, y2: y, stroke: "#111", "stroke-width": 2}), "known wall");
    if (v.toggles.real) item((x) => svg("line", {x1: x, x2: x + 10, y1: y, y2: y, stroke: UNKNOWN_WALL, "stroke-width": 1}), "wall not known");
    x = PAD;
    y += 14;
    item((x) => svg("polygon", {points: "0,-4.3 3.6,3.4 -3.6,3.4", fill: "#666", transform: `translate(${x + 5},${y}) rotate(90)`}), "player, facing");
    item((x) => svg("circle", {cx: x + 5, cy: y, r: 3.2, fill: "none", stroke: "#666", "stroke-width": 1.2, "stroke-dasharray": "2 1.2"}), "start");
    item((x) => svg("line", {x1: x, x2: x + 10, y1: y, y2: y, stroke: "#666", "stroke-width": 2.6, "stroke-linecap": "round"}), "path of the move just made");
    if (ps.length === 2) {
      const dr = ps[0].r - ps[1].r, dc = ps[0].c - ps[1].c;
      g.append(svg("text", {x: width - PAD, y: y + 3, "text-anchor": "end", "data-testid": "distance"}, `distance\u00b2 between the players: ${dr * dr + dc * dc}`));
    }
    return g;
  }
})();
