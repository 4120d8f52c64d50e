// On The Run: the map (cities; car, train and plane connections, each its own style), the four
// detectives (discs numbered 1 to 4 in the Detectives' colour) and the fugitive (a diamond in
// the Fugitive's colour, with its trail, each move drawn in its transport's style). With the
// toggle off the picture is the Detectives' knowledge instead: no fugitive, only the city they
// last heard it was in, when, and the transports they heard of since. The state is the game's
// (judge/games/ontherun/view.go); the map is the replay header's world. A generated map has
// coordinates; a supplied one is laid out here, once per film, by a seeded force layout.
"use strict";

(() => {
  const {svg, el, color, fmt, frameAt, drawMarks} = JudgeView;
  const S = 1000;      // the map's side in SVG units
  const PAD = 24;      // room around the map for the pieces and labels
  const LEGEND = 84;   // the legend's strip above the map
  const STYLE = {
    C: {name: "car", stroke: "#b8b8b8", width: 1.6, dash: null},
    T: {name: "train", stroke: "#f0a030", width: 2.2, dash: "10 5"},
    P: {name: "plane", stroke: "#8e44ad", width: 2.4, dash: "2 5"},
  };
  const FUG = color(0), DET = color(1);

  // layout places cities 1..n in [0, S]: the world's coordinates when it has them, else a
  // force layout seeded from the map itself (the same map always gets the same picture).
  function layout(w) {
    const n = w.cities || 0;
    const xy = new Array(n + 1).fill(null).map(() => [S / 2, S / 2]);
    if (w.positions && w.positions.length) {
      const size = w.size || 1;
      for (const p of w.positions) if (p.id >= 1 && p.id <= n) xy[p.id] = [p.x * S / size, p.y * S / size];
      return xy;
    }
    // Seeded generator (mulberry32) from the connections.
    let seed = n;
    for (const c of w.connections || []) seed = (Math.imul(seed, 31) + c.a * 7 + c.b * 13 + c.type.charCodeAt(0)) | 0;
    const rnd = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pairs = new Map();
    for (const c of w.connections || []) {
      const a = Math.min(c.a, c.b), b = Math.max(c.a, c.b);
      const k = a * 1000 + b;
      pairs.set(k, Math.max(pairs.get(k) || 0, c.type === "C" ? 1 : 0.35));
    }
    const edges = [...pairs].map(([k, wgt]) => [Math.floor(k / 1000), k % 1000, wgt]);
    const px = new Float64Array(n + 1), py = new Float64Array(n + 1);
    for (let i = 1; i <= n; i++) {
      const a = 2 * Math.PI * i / n;
      px[i] = 0.5 + 0.4 * Math.cos(a) + 0.05 * (rnd() - 0.5);
      py[i] = 0.5 + 0.4 * Math.sin(a) + 0.05 * (rnd() - 0.5);
    }
    const k = Math.sqrt(1 / Math.max(n, 1)), dx = new Float64Array(n + 1), dy = new Float64Array(n + 1);
    const iters = 400;
    for (let it = 0; it < iters; it++) {
      const temp = 0.1 * (1 - it / iters) + 0.002;
      dx.fill(0); dy.fill(0);
      for (let i = 1; i <= n; i++) {
        for (let j = i + 1; j <= n; j++) {
          let ex = px[i] - px[j], ey = py[i] - py[j];
          let d2 = ex * ex + ey * ey;
          if (d2 < 1e-9) { ex = rnd() * 1e-3; ey = rnd() * 1e-3; d2 = ex * ex + ey * ey; }
          const f = k * k / d2;
          dx[i] += ex * f; dy[i] += ey * f; dx[j] -= ex * f; dy[j] -= ey * f;
        }
      }
      for (const [a, b, wgt] of edges) {
        const ex = px[a] - px[b], ey = py[a] - py[b];
        const d = Math.sqrt(ex * ex + ey * ey) || 1e-6;
        const f = wgt * d / k;
        dx[a] -= ex * f; dy[a] -= ey * f; dx[b] += ex * f; dy[b] += ey * f;
      }
      for (let i = 1; i <= n; i++) {
        // A weak pull to the centre keeps parts that are not linked together.
        dx[i] += (0.5 - px[i]) * 0.5; dy[i] += (0.5 - py[i]) * 0.5;
        const d = Math.sqrt(dx[i] * dx[i] + dy[i] * dy[i]) || 1;
        const step = Math.min(d, temp);
        px[i] += dx[i] / d * step; py[i] += dy[i] / d * step;
      }
    }
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (let i = 1; i <= n; i++) { x0 = Math.min(x0, px[i]); x1 = Math.max(x1, px[i]); y0 = Math.min(y0, py[i]); y1 = Math.max(y1, py[i]); }
    const sc = 0.9 * S / Math.max(x1 - x0, y1 - y0, 1e-6);
    const ox = (S - sc * (x1 - x0)) / 2, oy = (S - sc * (y1 - y0)) / 2;
    for (let i = 1; i <= n; i++) xy[i] = [ox + (px[i] - x0) * sc, oy + (py[i] - y0) * sc];
    return xy;
  }

  // segment is the path of a connection of type t from a to b: a straight line, or for a
  // plane a gentle arc, always bent to the same side whichever way it is travelled.
  function segment(xy, t, a, b) {
    const [x1, y1] = xy[a], [x2, y2] = xy[b];
    if (t !== "P") return `M${r1(x1)} ${r1(y1)}L${r1(x2)} ${r1(y2)}`;
    const [lo, hi] = a < b ? [xy[a], xy[b]] : [xy[b], xy[a]];
    const mx = (lo[0] + hi[0]) / 2, my = (lo[1] + hi[1]) / 2;
    const cx = mx - (hi[1] - lo[1]) * 0.18, cy = my + (hi[0] - lo[0]) * 0.18;
    return `M${r1(x1)} ${r1(y1)}Q${r1(cx)} ${r1(cy)} ${r1(x2)} ${r1(y2)}`;
  }
  const r1 = (v) => Math.round(v * 10) / 10;

  // The map (drawn once per film): connections by type, then the cities, sized by the
  // networks they are on.
  function mapLayer(w, xy, types) {
    const g = svg("g", {});
    // Cities and labels grow on a small map.
    const u = Math.min(2.2, Math.max(1, Math.sqrt(120 / Math.max(xy.length - 1, 1))));
    const paths = {C: "", T: "", P: ""};
    for (const c of w.connections || []) if (paths[c.type] !== undefined) paths[c.type] += segment(xy, c.type, c.a, c.b);
    for (const t of ["C", "T", "P"]) {
      const s = STYLE[t];
      if (paths[t]) g.append(svg("path", {d: paths[t], fill: "none", stroke: s.stroke, "stroke-width": s.width,
        "stroke-dasharray": s.dash, "stroke-linecap": "round", opacity: t === "C" ? 1 : 0.9}));
    }
    // The city numbers: at least LABEL_PX on the screen (fitLabels), with a halo so that they
    // stay readable over the lines.
    const labels = svg("g", {"font-size": 11 * u, fill: "#333", "text-anchor": "middle", stroke: "#fbfaf6", "stroke-width": 3,
      "paint-order": "stroke", "stroke-linejoin": "round", "data-testid": "city-labels"});
    for (let i = 1; i < xy.length; i++) {
      const [x, y] = xy[i];
      if (types[i].has("P")) {
        g.append(svg("circle", {cx: r1(x), cy: r1(y), r: 8 * u, fill: "#fff", stroke: STYLE.P.stroke, "stroke-width": 2.2}),
          svg("circle", {cx: r1(x), cy: r1(y), r: 4.5 * u, fill: "#fff", stroke: STYLE.T.stroke, "stroke-width": 1.6}));
      } else if (types[i].has("T")) {
        g.append(svg("circle", {cx: r1(x), cy: r1(y), r: 5.5 * u, fill: "#fff", stroke: STYLE.T.stroke, "stroke-width": 2}));
      } else {
        g.append(svg("circle", {cx: r1(x), cy: r1(y), r: 3.6 * u, fill: "#fff", stroke: "#888", "stroke-width": 1.2}));
      }
      labels.append(svg("text", {x: r1(x), y: r1(y - (types[i].has("P") ? 11 : 7.5) * u), text: i, "data-testid": "city"}));
    }
    return {g, labels, u}; // drawn over the map, under the pieces
  }

  // fitLabels sizes the city numbers for the size the map is drawn at: never under LABEL_PX
  // pixels on the screen, however small the map is shown.
  const LABEL_PX = 12;
  function fitLabels(ctx) {
    // The screen pixels per unit: the picture is scaled to fit its box, width or height.
    const m = ctx.root.isConnected && ctx.root.getScreenCTM ? ctx.root.getScreenCTM() : null;
    const scale = m ? Math.hypot(m.a, m.b) : 0;
    if (!scale) return;
    const size = Math.round(Math.max(11 * ctx.map.u, LABEL_PX / scale) * 10) / 10;
    if (size !== ctx.labelSize) {
      ctx.labelSize = size;
      ctx.map.labels.setAttribute("font-size", size);
      ctx.map.labels.setAttribute("stroke-width", Math.max(3, size / 5));
    }
  }

  function legendLayer() {
    // Above the map, where it is seen without scrolling.
    const y = -PAD - LEGEND + 20, g = svg("g", {"font-size": 21, fill: "#333", "data-testid": "legend"});
    let x = -PAD + 4;
    const item = (draw, label, w) => { g.append(draw(x), svg("text", {x: x + w + 6, y: y + 5, text: label})); x += w + 22 + label.length * 10.6; };
    for (const t of ["C", "T", "P"]) {
      const s = STYLE[t];
      item((x0) => svg("path", {d: t === "P" ? `M${x0} ${y + 3}Q${x0 + 15} ${y - 7} ${x0 + 30} ${y + 3}` : `M${x0} ${y}h30`, fill: "none",
        stroke: s.stroke, "stroke-width": s.width + 0.6, "stroke-dasharray": s.dash, "stroke-linecap": "round"}), s.name, 30);
    }
    item((x0) => svg("g", {}, svg("circle", {cx: x0 + 8, cy: y, r: 5.5, fill: "#fff", stroke: STYLE.T.stroke, "stroke-width": 2})), "train city", 14);
    item((x0) => svg("g", {}, svg("circle", {cx: x0 + 8, cy: y, r: 8, fill: "#fff", stroke: STYLE.P.stroke, "stroke-width": 2.2}),
      svg("circle", {cx: x0 + 8, cy: y, r: 4.5, fill: "#fff", stroke: STYLE.T.stroke, "stroke-width": 1.6})), "airport", 16);
    const y2 = y + 38;
    x = -PAD + 4;
    const item2 = (draw, label, w) => { g.append(draw(x), svg("text", {x: x + w + 6, y: y2 + 5, text: label})); x += w + 22 + label.length * 10.6; };
    item2((x0) => detective(x0 + 12, y2, 1, 12), "detective 1..4", 24);
    item2((x0) => fugitiveMark(x0 + 12, y2, 10), "fugitive", 24);
    item2((x0) => svg("path", {d: `M${x0} ${y2}h30`, stroke: FUG, "stroke-width": 4, opacity: 0.55}), "its trail", 30);
    item2((x0) => lastSeen(x0 + 13, y2, 12), "where the Detectives last heard of it", 26);
    return g;
  }

  function detective(x, y, k, r) {
    return svg("g", {}, svg("circle", {cx: r1(x), cy: r1(y), r, fill: DET, stroke: "#fff", "stroke-width": 2}),
      svg("text", {x: r1(x), y: r1(y + r * 0.42), "font-size": r * 1.25, "font-weight": "bold", fill: "#fff", "text-anchor": "middle", text: k}));
  }
  function fugitiveMark(x, y, r) {
    return svg("path", {d: `M${r1(x)} ${r1(y - r * 1.3)}l${r} ${r * 1.3}l${-r} ${r * 1.3}l${-r} ${-r * 1.3}z`,
      fill: FUG, stroke: "#fff", "stroke-width": 2});
  }
  function lastSeen(x, y, r) {
    return svg("circle", {cx: r1(x), cy: r1(y), r, fill: "none", stroke: FUG, "stroke-width": 2.5, "stroke-dasharray": "4 3"});
  }

  const word = (t) => (STYLE[t] ? STYLE[t].name : t);

  JudgeView.register("ontherun", {
    about: "A fugitive hides on a map of cities joined by roads, railways and flights; four detectives hear how it travels, see where it is every fifth turn, and try to catch it within 50 turns (CodeCup 2007).",
    toggles: [{key: "truth", label: "fugitive where it really is (off: as the Detectives know it)", value: true}],

    prepare(film) {
      const w = film.header.world || {};
      const xy = layout(w);
      const n = xy.length - 1;
      const types = new Array(n + 1).fill(null).map(() => new Set());
      const links = new Map(); // "a-b" -> the types joining a and b
      for (const c of w.connections || []) {
        if (c.a < 1 || c.a > n || c.b < 1 || c.b > n) continue;
        types[c.a].add(c.type); types[c.b].add(c.type);
        for (const k of [`${c.a}-${c.b}`, `${c.b}-${c.a}`]) links.set(k, (links.get(k) || "") + c.type);
      }
      const names = (film.header.players || []).map((p, i) => p.name || `player ${i}`);
      const root = svg("svg", {viewBox: `${-PAD} ${-PAD - LEGEND} ${S + 2 * PAD} ${S + 2 * PAD + LEGEND}`, role: "img",
        "aria-label": "On The Run map", "font-family": "sans-serif"});
      const pieces = svg("g", {});
      const map = mapLayer(w, xy, types);
      root.append(svg("rect", {x: -PAD, y: -PAD, width: S + 2 * PAD, height: S + 2 * PAD, fill: "#fbfaf6"}),
        map.g, map.labels, pieces, legendLayer());
      const info = el("div", {class: "otr-info", style: "font-size:13px;line-height:1.45;margin:0 0 4px"});
      const wrap = el("div", {}, info, root);
      const ctx = {xy, links, names, root, pieces, info, wrap, map, labelSize: 0};
      if (typeof ResizeObserver === "function") new ResizeObserver(() => fitLabels(ctx)).observe(root);
      return ctx;
    },

    // Player 0 is the Fugitive, player 1 the Detectives (docs/games/ontherun.md).
    roles() { return ["Fugitive", "Detectives"]; },

    // annotate draws a bot's marks on the map: x is a city's number (y, below it in the map's
    // units: 0 on the city); a line runs from city x1 to city x2; a radius is in city spacings.
    annotate(box, v, marks) {
      const {xy, pieces} = v.ctx;
      const unit = S / Math.max(6, Math.sqrt(xy.length));
      drawMarks(pieces, marks.map((m) => m.kind === "line" ? Object.assign({}, m, {y: 0, x2: m.x2, y2: 0}) : m), (c, dy) => {
        const p = xy[Math.round(c)];
        return p ? [p[0], p[1] + dy] : [-1000, -1000];
      }, unit, v.player);
    },

    draw(box, v) {
      const {xy, links, names, pieces, info, wrap} = v.ctx;
      if (box.firstChild !== wrap || box.childNodes.length !== 1) box.replaceChildren(wrap);
      fitLabels(v.ctx);
      const st = v.state, truth = v.toggles.truth;
      const ok = (c) => c >= 1 && c < xy.length;
      const at = (c) => xy[c];
      const g = [];
      const x = v.exchange;

      // The fugitive's trail, each move in its transport's style; the move just made bolder.
      const moves = st.by || "";
      if (truth && st.trail) {
        for (let i = 0; i < moves.length; i++) {
          const a = st.trail[i], b = st.trail[i + 1], t = moves[i];
          if (!ok(a) || !ok(b)) continue;
          const last = i === moves.length - 1 && x && x.player === 0 && x.turn === i + 1;
          g.push(svg("path", {d: segment(xy, t, a, b), fill: "none", stroke: FUG, "stroke-linecap": "round",
            "stroke-width": last ? 7 : 4.5, opacity: last ? 0.85 : 0.2 + 0.35 * (i + 1) / moves.length,
            "stroke-dasharray": STYLE[t] ? STYLE[t].dash : null}));
        }
      }

      // The last city the Detectives heard of.
      if (ok(st.known)) {
        const [kx, ky] = at(st.known);
        g.push(lastSeen(kx, ky, 22));
        const since = moves.slice(st.kt);
        g.push(svg("text", {x: r1(kx + 24), y: r1(ky - 16), "font-size": 18, fill: FUG, "font-weight": "bold",
          text: (st.kt ? `turn ${st.kt}` : "start") + (truth || !since ? "" : ` +${since}`), stroke: "#fff", "stroke-width": 4, "paint-order": "stroke"}));
      }

      // The detectives' move just made, from the picture before it.
      const prev = x && x.player === 1 && x.turn > 0 ? frameAt(v.film, v.step - 1) : null;
      (st.d || []).forEach((c, k) => {
        const p = prev && prev.state.d ? prev.state.d[k] : 0;
        if (ok(p) && ok(c) && p !== c) {
          const t = (links.get(`${p}-${c}`) || "C")[0];
          g.push(svg("path", {d: segment(xy, t, p, c), fill: "none", stroke: DET, "stroke-width": 5, opacity: 0.5, "stroke-linecap": "round"}));
        }
      });

      // The fugitive itself, then the detectives on top.
      const f = st.f;
      (st.d || []).forEach((c, k) => {
        if (!ok(c)) return;
        const [dx, dy] = at(c);
        g.push(detective(dx, dy, k + 1, 15));
      });
      if (truth && ok(f)) {
        // Beside a detective in the same city (an arrest), so that both show.
        const [fx, fy] = at(f), shared = (st.d || []).includes(f);
        g.push(fugitiveMark(fx + (shared ? 17 : 0), fy - (shared ? 12 : 0), shared ? 10 : 13));
      }
      if (st.caught && ok(f)) {
        const [fx, fy] = at(f);
        g.push(svg("circle", {cx: r1(fx), cy: r1(fy), r: 32, fill: "none", stroke: "#000", "stroke-width": 3.5}),
          svg("text", {x: r1(fx), y: r1(fy + 54), "font-size": 22, "font-weight": "bold", "text-anchor": "middle", fill: "#000",
            stroke: "#fff", "stroke-width": 4, "paint-order": "stroke", text: "ARREST"}));
      }
      pieces.replaceChildren(...g);

      // The words: turn, whose move, the last move, what the Detectives were told.
      const lines = [];
      const fugName = names[0] || "Fugitive", detName = names[1] || "Detectives";
      if (st.next === "over") lines.push(el("div", {}, el("b", {}, `Turn ${st.turn} of 50 \u00b7 over: `), st.end || ""));
      else lines.push(el("div", {}, el("b", {}, st.turn ? `Turn ${st.turn} of 50` : "Start"),
        ` \u00b7 next to answer: `, el("span", {style: `color:${st.next === "fugitive" ? FUG : DET}`},
          st.next === "fugitive" ? `Fugitive (${fugName})` : `Detectives (${detName})`)));
      if (moves.length) {
        const t = moves[moves.length - 1];
        lines.push(el("div", {}, "Fugitive's last move (turn ", moves.length, "): ", swatchLine(t), ` by ${word(t)}`,
          truth && ok(f) ? ` to ${f}` : "",
          ` \u00b7 moves so far: car ${count(moves, "C")}, train ${count(moves, "T")}, plane ${count(moves, "P")}`));
      }
      if (st.told) {
        const parts = st.told.split(/\s+/);
        const what = parts.length === 1 && /^\d+$/.test(parts[0]) ? `starts in ${parts[0]}` :
          parts.length === 2 ? `by ${word(parts[0])}, now in ${parts[1]}` : `by ${word(parts[0])}`;
        lines.push(el("div", {}, "Detectives last told: ", el("code", {}, st.told), ` (${what})`));
      }
      if (ok(st.known)) {
        const heard = [`start ${st.trail && st.trail[0] ? st.trail[0] : st.known}`];
        for (let t = 5; t <= st.kt; t += 5) if (st.trail && ok(st.trail[t])) heard.push(`turn ${t}: ${st.trail[t]}`);
        const since = moves.slice(st.kt);
        lines.push(el("div", {}, el("span", {style: `color:${FUG}`}, "\u25cc"), ` Last heard of in ${st.known} (${st.kt ? "turn " + st.kt : "its start"})`,
          since ? `, moves since: ${since.split("").join(" ")}` : "", ` \u00b7 announcements: ${heard.join(" \u00b7 ")}`));
      }
      if (st.catch) lines.push(el("div", {class: "muted"}, `An arrest now would score Detectives ${fmt(st.catch[1])} \u2013 Fugitive ${fmt(st.catch[0])}; an escape after turn 50, Fugitive 20 \u2013 0.`));
      if (st.d && st.d.some(ok)) lines.push(el("div", {}, "Detectives: ",
        st.d.map((c, k) => el("span", {style: "margin-right:.8em;white-space:nowrap"}, el("b", {style: `color:${DET}`}, `${k + 1}`), ` in ${ok(c) ? c : "-"}`))));
      info.replaceChildren(...lines);
    },
  });

  function count(s, ch) { let n = 0; for (const c of s) if (c === ch) n++; return n; }
  function swatchLine(t) {
    const s = STYLE[t] || STYLE.C;
    return svg("svg", {width: 26, height: 10, viewBox: "0 0 26 10", style: "vertical-align:middle;width:26px;height:10px;display:inline"},
      svg("path", {d: "M1 5h24", stroke: s.stroke, "stroke-width": s.width + 0.8, "stroke-dasharray": s.dash, "stroke-linecap": "round"}));
  }
})();
