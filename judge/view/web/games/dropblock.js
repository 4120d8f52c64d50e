// Drop the Block (judge/games/dropblock): the 18 x 18 board of 6 x 6 blocks with their
// counters, the four players with their direction and wait, the falls. The state is
// judge/games/dropblock/view.go's viewState: t (the next global turn), b (block counters,
// rows of ints: 0 standing, k > 0 falling, -k fallen and back in k turns), p (players:
// r, c, d, s, f = the turn it fell or -1, x = program stopped).
"use strict";

(() => {
  const {svg, color, fmt, drawMarks} = JudgeView;
  const CELL = 30, PAD = 22, TOP = 34;
  const ARROW = {U: "\u2191", R: "\u2192", D: "\u2193", L: "\u2190"};
  const DR = {U: -1, R: 0, D: 1, L: 0}, DC = {U: 0, R: 1, D: 0, L: -1};
  const COL = {
    standing: "#ece6d6", grid: "#d3cab4", edge: "#a89f88",
    fall1: "#e4572e", fall2: "#f29e4c", fall3: "#f7d58b",
    hole: "#263238", back: "#4fc3f7", justFell: "#ff1744", text: "#333",
  };

  // frameBefore is the state shown one step earlier (null at step 0).
  function frameBefore(film, step) {
    for (let s = step - 1; s >= 0; s--) {
      const i = film.frame_of[s];
      if (i !== undefined && i >= 0) return film.frames[i].state;
    }
    return null;
  }

  // holeFill: a fallen block's colour, from dark (just fell) to grey (about to stand again).
  const DOWN = 19;
  function holeFill(frac) {
    const a = [0x26, 0x32, 0x38], b = [0x6a, 0x7b, 0x84];
    return `rgb(${a.map((v, i) => Math.round(v + (b[i] - v) * frac)).join(",")})`;
  }
  // fallingFill: the sooner the block falls, the hotter its colour.
  const fallingFill = (k) => k <= 4 ? COL.fall1 : k <= 8 ? COL.fall2 : COL.fall3;

  // what says what the exchange's player did, from the state before and after it.
  function what(x, prev, cur, names) {
    if (!x) return "before the first turn";
    const name = names[x.player];
    if (x.ready) return `${name}: READY${x.fault ? " - " + x.fault.kind : ""}`;
    if (!prev) return "";
    const a = (x.received && x.received.length ? x.received[0] : "").trim();
    const p0 = prev.p[x.player], p1 = cur.p[x.player];
    const said = x.fault ? x.fault.kind : `answered ${JSON.stringify(a)}`;
    let did;
    if (p0.f >= 0) did = "has fallen: ignored";
    else if (x.fault || p0.x) did = "does N";
    else if (p0.s > 0) did = `must wait (S=${p0.s}): N`;
    else if (a === "A") did = `attacks ${ARROW[p0.d]}`;
    else if ("URDL".includes(a) && a.length === 1) did = p0.r !== p1.r || p0.c !== p1.c ? `moves ${ARROW[a]}` : `turns ${ARROW[a]}, cannot step`;
    else did = "N";
    return `turn ${x.turn} \u00b7 ${name} ${said}: ${did}`;
  }

  // legend explains the marks, in rows from y across W, above the board where it is seen at
  // once; into g when given, and it says the height it takes.
  function legend(W, y, g) {
    const y0 = y;
    const items = [
      ["standing", (lx) => svg("rect", {x: lx, y: y, width: 16, height: 16, fill: COL.standing, stroke: COL.edge})],
      ["falls in k turns", (lx) => [svg("rect", {x: lx, y: y, width: 16, height: 16, fill: COL.fall2}), svg("rect", {x: lx, y: y, width: 16, height: 16, fill: "url(#db-hatch)"}),
        svg("text", {x: lx + 8, y: y + 12, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#b71c1c", text: "k"})]],
      ["fallen, back in k", (lx) => [svg("rect", {x: lx, y: y, width: 16, height: 16, fill: COL.hole}),
        svg("text", {x: lx + 8, y: y + 12, "text-anchor": "middle", "font-size": 9, "font-weight": 700, fill: COL.back, text: "\u21bbk"})]],
      ["just fell", (lx) => svg("rect", {x: lx + 1, y: y + 1, width: 14, height: 14, fill: COL.hole, stroke: COL.justFell, "stroke-width": 2.5})],
      ["player, wait", (lx) => [svg("circle", {cx: lx + 8, cy: y + 9, r: 7, fill: "#777"}), svg("circle", {cx: lx + 15, cy: y + 3, r: 5, fill: "#222"}),
        svg("text", {x: lx + 15, y: y + 6, "text-anchor": "middle", "font-size": 8, fill: "#fff", text: "2"})]],
      ["fell here", (lx) => [svg("circle", {cx: lx + 8, cy: y + 8, r: 7.5, fill: "#fff", stroke: "#777", "stroke-width": 1.5, "stroke-dasharray": "3 2"}),
        svg("path", {d: `M${lx + 4},${y + 4}L${lx + 12},${y + 12}M${lx + 12},${y + 4}L${lx + 4},${y + 12}`, stroke: "#777", "stroke-width": 2})]],
      ["program stopped", (lx) => svg("text", {x: lx + 6, y: y + 13, "font-size": 14, "font-weight": 700, fill: "#b71c1c", text: "!"})],
    ];
    let lx = PAD;
    for (const [label, icon] of items) {
      const w = 24 + label.length * 5.6 + 12;
      if (lx + w > W) { lx = PAD; y += 22; }
      if (g) g.append(svg("g", {}, icon(lx)), svg("text", {x: lx + 21, y: y + 12.5, "font-size": 11, fill: "#555", text: label}));
      lx += w;
    }
    return y + 22 - y0;
  }

  JudgeView.register("dropblock", {
    about: "Four players walk on a board of blocks and make the blocks ahead of them drop a few turns later, taking down whoever stands there: the last one on the board wins (JavaChallenge 2015).",
    toggles: [{key: "coords", label: "square numbers", value: true}],
    prepare(film) {
      const w = film.header.world || {};
      const size = w.size || 18, bs = w.block || 3;
      const names = (film.header.players || []).map((p, i) => p.name || `player ${i}`);
      const turns = +((film.header.options || {}).turns || 1000);
      const W = PAD + size * CELL + 40;
      const LH = legend(W, 0, null);
      const top = TOP + LH;
      const boardH = top + size * CELL;
      return {size, bs, names, turns, W, top, LH, boardH, H: boardH + 16 + 4 * 22 + 12};
    },
    // annotate draws a bot's marks on the board: x a column, y a row, from 0 (the game's own).
    annotate(box, v, marks) {
      const root = box.querySelector("svg");
      if (root) drawMarks(root, marks, (x, y) => [PAD + x * CELL + CELL / 2, v.ctx.top + y * CELL + CELL / 2], CELL, v.player);
    },

    draw(box, v) {
      const {ctx, state: s, film, step, exchange: x, toggles} = v;
      const {size, bs, names, W, H, boardH, top} = ctx;
      const nb = size / bs;
      const prev = frameBefore(film, step);
      const X = (c) => PAD + c * CELL, Y = (r) => top + r * CELL;
      const root = svg("svg", {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Drop the Block, global turn ${s.t}`});
      root.append(svg("defs", {}, svg("pattern", {id: "db-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)"},
        svg("rect", {width: 3, height: 8, fill: "rgba(0,0,0,0.13)"}))));

      const fallen = s.p.filter((p) => p.f >= 0).length;
      root.append(svg("text", {x: PAD, y: 17, "font-size": 15, "font-weight": 600, fill: COL.text,
        // Global turns count from 0, as the step label's "turn" does: after turn 77, 78 are played.
        text: `${s.t > 0 ? `after global turn ${s.t - 1}` : "before global turn 0"} (0 to ${ctx.turns - 1}) \u00b7 on the board ${s.p.length - fallen} \u00b7 fallen ${fallen}`}));
      const key = svg("g", {"data-testid": "legend"});
      legend(W, 24, key);
      root.append(key);

      // The blocks.
      const blocksG = svg("g", {});
      const badges = svg("g", {});
      for (let br = 0; br < nb; br++) {
        for (let bc = 0; bc < nb; bc++) {
          const k = s.b[br][bc];
          const x0 = X(bc * bs), y0 = Y(br * bs), side = bs * CELL;
          const was = prev ? prev.b[br][bc] : 0;
          if (k === 0) {
            blocksG.append(svg("rect", {x: x0, y: y0, width: side, height: side, fill: COL.standing}));
          } else if (k > 0) {
            blocksG.append(svg("rect", {x: x0, y: y0, width: side, height: side, fill: fallingFill(k)}),
              svg("rect", {x: x0, y: y0, width: side, height: side, fill: "url(#db-hatch)"}));
            badges.append(svg("rect", {x: x0 + 3, y: y0 + 3, width: 26, height: 18, rx: 4, fill: "#fff", stroke: COL.fall1, "stroke-width": 1.5}),
              svg("text", {x: x0 + 16, y: y0 + 16.5, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#b71c1c", text: k}));
          } else {
            // Fallen: a hole that lightens, with a bar filling up, as it comes back.
            const back = -k, frac = Math.max(0, Math.min(1, (DOWN - back) / DOWN));
            blocksG.append(svg("rect", {x: x0, y: y0, width: side, height: side, fill: holeFill(frac)}));
            if (frac > 0) blocksG.append(svg("rect", {x: x0 + 4, y: y0 + side - 9, width: (side - 8) * frac, height: 5, rx: 2, fill: COL.back}));
            badges.append(svg("text", {x: x0 + side / 2, y: y0 + side / 2 + 6, "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: COL.back, text: `\u21bb${back}`}));
            if (was > 0) {
              badges.append(svg("rect", {x: x0 + 2, y: y0 + 2, width: side - 4, height: side - 4, fill: "none", stroke: COL.justFell, "stroke-width": 4}));
            }
          }
        }
      }
      root.append(blocksG);
      // The square grid, then the block borders.
      let d = "";
      for (let i = 0; i <= size; i++) d += `M${X(i)},${Y(0)}V${Y(size)}M${X(0)},${Y(i)}H${X(size)}`;
      root.append(svg("path", {d, stroke: COL.grid, "stroke-width": 0.6, fill: "none", opacity: 0.8}));
      d = "";
      for (let i = 0; i <= size; i += bs) d += `M${X(i)},${Y(0)}V${Y(size)}M${X(0)},${Y(i)}H${X(size)}`;
      root.append(svg("path", {d, stroke: COL.edge, "stroke-width": 2, fill: "none"}));
      root.append(badges);
      if (toggles.coords) {
        const g = svg("g", {"font-size": 9, fill: "#888", "text-anchor": "middle"});
        for (let i = 0; i < size; i++) {
          g.append(svg("text", {x: X(i) + CELL / 2, y: top - 3, text: i}), svg("text", {x: PAD / 2, y: Y(i) + CELL / 2 + 3, text: i}));
        }
        root.append(g);
      }

      // The move or attack just made.
      const acted = x && !x.ready && prev ? x.player : -1;
      if (acted >= 0) {
        const p0 = prev.p[acted], p1 = s.p[acted];
        if (p0.f < 0 && p0.s === 0 && p1.s === 2 && p0.x !== true) {
          // An attack: an arrow over the blocks ahead, to the edge.
          const br = Math.floor(p1.r / bs), bc = Math.floor(p1.c / bs);
          let n = 0;
          while (br + (n + 1) * DR[p1.d] >= 0 && br + (n + 1) * DR[p1.d] < nb && bc + (n + 1) * DC[p1.d] >= 0 && bc + (n + 1) * DC[p1.d] < nb) n++;
          if (n > 0) {
            const cx = X(bc * bs) + bs * CELL / 2, cy = Y(br * bs) + bs * CELL / 2;
            const ex = cx + DC[p1.d] * n * bs * CELL, ey = cy + DR[p1.d] * n * bs * CELL;
            root.append(svg("line", {x1: cx, y1: cy, x2: ex, y2: ey, stroke: color(acted), "stroke-width": 5, "stroke-dasharray": "10 6", opacity: 0.75, "stroke-linecap": "round"}),
              svg("circle", {cx: ex, cy: ey, r: 7, fill: color(acted), opacity: 0.75}));
          }
        } else if (p0.f < 0 && (p0.r !== p1.r || p0.c !== p1.c)) {
          root.append(svg("line", {x1: X(p0.c) + CELL / 2, y1: Y(p0.r) + CELL / 2, x2: X(p1.c) + CELL / 2, y2: Y(p1.r) + CELL / 2,
            stroke: color(acted), "stroke-width": 4, opacity: 0.5, "stroke-linecap": "round"}));
        }
      }

      // The players: fallen ones as a dashed ring with a cross where they fell.
      s.p.forEach((p, i) => {
        const cx = X(p.c) + CELL / 2, cy = Y(p.r) + CELL / 2;
        const g = svg("g", {});
        if (i === acted) g.append(svg("circle", {cx, cy, r: 15, fill: "none", stroke: "#ffd400", "stroke-width": 4}));
        if (p.f >= 0) {
          g.append(svg("circle", {cx, cy, r: 11, fill: "rgba(255,255,255,0.85)", stroke: color(i), "stroke-width": 2.5, "stroke-dasharray": "4 3"}),
            svg("path", {d: `M${cx - 6},${cy - 6}L${cx + 6},${cy + 6}M${cx + 6},${cy - 6}L${cx - 6},${cy + 6}`, stroke: color(i), "stroke-width": 3}));
        } else {
          const dx = DC[p.d], dy = DR[p.d];
          // A wedge on the side faced.
          const tx = cx + dx * 17, ty = cy + dy * 17, bx = cx + dx * 6, by = cy + dy * 6;
          g.append(svg("polygon", {points: `${tx},${ty} ${bx - dy * 9},${by - dx * 9} ${bx + dy * 9},${by + dx * 9}`, fill: color(i), stroke: "#fff", "stroke-width": 1.5}),
            svg("circle", {cx, cy, r: 10.5, fill: color(i), stroke: "#fff", "stroke-width": 2}),
            svg("text", {x: cx, y: cy + 4.5, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#fff", text: i}));
          if (p.s > 0) {
            g.append(svg("circle", {cx: cx + 10, cy: cy - 10, r: 7, fill: "#222", stroke: "#fff", "stroke-width": 1}),
              svg("text", {x: cx + 10, y: cy - 6.5, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#fff", text: p.s}));
          }
          if (p.x) g.append(svg("text", {x: cx - 12, y: cy - 7, "font-size": 12, "font-weight": 700, fill: "#b71c1c", text: "!"}));
        }
        g.append(svg("title", {text: `${names[i]}: ` + (p.f >= 0 ? `fell in turn ${p.f} at (${p.r},${p.c})` : `(${p.r},${p.c}) facing ${p.d}, wait ${p.s}`)}));
        root.append(g);
      });

      // The players' lines: place, direction, wait, fall, score.
      const ordinal = (n) => n + (n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th");
      let y = boardH + 22;
      root.append(svg("text", {x: PAD, y: y - 2, "font-size": 12, fill: "#555", text: what(x, prev, s, names)}));
      s.p.forEach((p, i) => {
        y += 22;
        // Players that fell in the same turn fell together: they share their place.
        const nth = 1 + s.p.filter((q) => q.f >= 0 && q.f < p.f).length;
        const status = p.f >= 0 ? `FELL in turn ${p.f} at (${p.r},${p.c}), ${ordinal(nth)} to fall`
          : `at (${p.r},${p.c}) facing ${ARROW[p.d]} ${p.d} \u00b7 wait ${p.s}`;
        const name = names[i].length > 20 ? names[i].slice(0, 19) + "\u2026" : names[i];
        root.append(svg("circle", {cx: PAD + 8, cy: y - 5, r: 8, fill: p.f >= 0 ? "#fff" : color(i), stroke: color(i), "stroke-width": 2}),
          svg("text", {x: PAD + 8, y: y - 1, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: p.f >= 0 ? color(i) : "#fff", text: i}),
          svg("text", {x: PAD + 22, y, "font-size": 13, "font-weight": i === acted ? 700 : 400, fill: COL.text, text: name}),
          svg("text", {x: PAD + 170, y, "font-size": 13, "font-weight": 700, fill: COL.text, text: `score ${fmt(v.scores[i])}`}),
          svg("text", {x: PAD + 235, y, "font-size": 12, fill: p.f >= 0 ? "#b71c1c" : COL.text, "font-weight": p.f >= 0 ? 700 : 400,
            text: status + (p.x ? " \u00b7 stopped" : "")}));
      });

      box.replaceChildren(root);
    },
  });
})();
