// Lang Wars: the eight languages as columns (attention degree on top), each player's believers
// as a coloured bar, what each language is worth to whom underneath. The state
// (judge/games/langwars/view.go): t turn, s stage, c the turn's picks counted, rv / rl
// revealed / real believers [language][player], h the last holiday's picks per language,
// pk this turn's picks per player, vp / sv victory points in twelfths [language][player]
// from the real / revealed believers, out the stopped players.
"use strict";

(() => {
  const {svg, color, fmt} = JudgeView;
  const W = 900, H = 468, LEFT = 44, RIGHT = 8;
  const TOP = 86, BASE = 318; // the bars' area
  const NL = 8, NP = 4;
  const colW = (W - LEFT - RIGHT) / NL, barW = 20, barGap = 5;
  const barX = (l, p) => LEFT + l * colW + (colW - NP * barW - (NP - 1) * barGap) / 2 + p * (barW + barGap);
  const pts = (twelfths) => (twelfths > 0 ? "+" : twelfths < 0 ? "\u2212" : "") + fmt(Math.abs(twelfths) / 12);

  JudgeView.register("langwars", {
    about: "Four players spread eight programming languages for ten turns; for each language, the most believers win its attention in points and the fewest lose it (JavaChallenge 2014).",
    toggles: [{key: "real", label: "real believers (holiday picks, hidden from the players, included)", value: true}],

    prepare(film) {
      const world = film.header.world || {};
      const attention = world.attention || new Array(NL).fill(0);
      // One scale per view for the whole film, so that bars do not jump from step to step.
      let maxReal = 5, maxSeen = 5;
      for (const f of film.frames || []) {
        const s = f.state;
        if (!s || !s.rl) continue;
        for (let l = 0; l < NL; l++) {
          for (let p = 0; p < NP; p++) {
            let n = s.rl[l][p];
            if (!s.c && s.pk && s.pk[p]) n += s.pk[p].filter((x) => x === l).length;
            maxReal = Math.max(maxReal, n);
            maxSeen = Math.max(maxSeen, s.rv[l][p]);
          }
        }
      }
      const scale = (max) => {
        const top = Math.ceil(max / 5) * 5;
        return {top, step: top <= 10 ? 1 : top <= 40 ? 5 : 10};
      };
      const names = (film.header.players || []).map((pl, i) => pl.name || `player ${i}`);
      const turns = +((film.header.options || {}).turns || 10);
      return {attention, real: scale(maxReal), seen: scale(maxSeen), names, turns, defs: makeDefs()};
    },

    draw(box, v) {
      const {ctx, state: s, toggles, exchange} = v;
      const real = toggles.real;
      const counts = real ? s.rl : s.rv;
      const vp = real ? s.vp : s.sv;
      const sc = real ? ctx.real : ctx.seen;
      const Y = (n) => BASE - (BASE - TOP) * n / sc.top;
      const g = svg("svg", {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "Lang Wars: believers per language and player",
        "font-family": "system-ui, sans-serif", "font-size": 11});
      g.append(ctx.defs.cloneNode(true));
      const mover = exchange && (exchange.expect || exchange.ready) ? exchange.player : -1;
      const workday = s.t % 2 === 1;

      // The status line.
      let status;
      if (s.s === "ready") status = "Before the match: each player prints READY";
      else if (s.s === "settings") status = "The settings (turns, players, languages, attention degrees) are sent";
      else if (s.t === ctx.turns && s.c || s.s === "over") status = `Turn ${ctx.turns} of ${ctx.turns} \u00b7 the match is over: final believers and victory points`;
      else status = `Turn ${s.t} of ${ctx.turns} \u00b7 ${workday ? "workday: 5 picks each, revealed" : "holiday: 2 picks each, hidden"}` +
        (s.c ? " \u00b7 all have picked: counted" : " \u00b7 picking: counted once all four have picked");
      g.append(svg("text", {x: 4, y: 15, "font-size": 14, "font-weight": 600, text: status}));
      g.append(svg("text", {x: W - 4, y: 15, "text-anchor": "end", "font-size": 12, fill: real ? "#555" : "#0d47a1",
        text: real ? "real believers" : "as the players see it"}));

      // The grid and the axis.
      for (let n = 0; n <= sc.top; n += sc.step) {
        g.append(svg("line", {x1: LEFT - 4, x2: W - RIGHT, y1: Y(n), y2: Y(n), stroke: n ? "#eee" : "#999"}));
        g.append(svg("text", {x: LEFT - 7, y: Y(n) + 4, "text-anchor": "end", fill: "#888", "font-size": 10, text: n}));
      }
      g.append(svg("text", {x: 10, y: (TOP + BASE) / 2, fill: "#888", "font-size": 10, "text-anchor": "middle",
        transform: `rotate(-90 10 ${(TOP + BASE) / 2})`, text: "believers"}));

      for (let l = 0; l < NL; l++) {
        const x0 = LEFT + l * colW, cx = x0 + colW / 2, a = ctx.attention[l];
        if (l > 0) g.append(svg("line", {x1: x0, x2: x0, y1: 26, y2: H - 92, stroke: "#ddd"}));
        // The header: the language and its attention degree as pips.
        g.append(svg("text", {x: cx, y: 40, "text-anchor": "middle", "font-size": 13, "font-weight": 600, text: `language ${l}`}));
        const pip = 9, pipsW = 6 * pip + 5 * 2;
        for (let i = 0; i < 6; i++) {
          g.append(svg("rect", {x: cx - pipsW / 2 + i * (pip + 2), y: 47, width: pip, height: pip, rx: 2,
            fill: i < a ? "#455a64" : "none", stroke: i < a ? "none" : "#ccc"}));
        }
        g.append(svg("text", {x: cx, y: 70, "text-anchor": "middle", fill: "#555", "font-size": 10, text: `attention ${a}`}));

        const hi = Math.max(...counts[l]), lo = Math.min(...counts[l]);
        for (let p = 0; p < NP; p++) {
          const x = barX(l, p), n = counts[l][p], shown = s.rv[l][p];
          const mine = s.pk && s.pk[p] ? s.pk[p].filter((k) => k === l).length : 0;
          // What this turn's counted picks added (shown only where the view shows them).
          const added = s.c && (real || workday) ? mine : 0;
          if (real && n > shown) {
            g.append(svg("rect", {x, y: Y(n), width: barW, height: Y(shown) - Y(n), fill: `url(#lw-hid-${p})`, stroke: color(p), "stroke-width": 0.6}));
          }
          if (shown > 0) g.append(svg("rect", {x, y: Y(shown), width: barW, height: BASE - Y(shown), fill: color(p)}));
          if (added > 0) {
            const end = workday ? shown : n; // workday picks are revealed, holiday picks hidden on top
            g.append(svg("rect", {x: x + 0.75, y: Y(end) + 0.75, width: barW - 1.5, height: Y(end - added) - Y(end) - 1.5, fill: "none",
              stroke: "#111", "stroke-width": 1.5}));
          }
          // Picks made this turn, not counted yet (real view only: nobody sees them yet).
          if (real && !s.c && mine > 0) {
            g.append(svg("rect", {x: x + 0.5, y: Y(n + mine), width: barW - 1, height: Y(n) - Y(n + mine), fill: "none",
              stroke: color(p), "stroke-width": 1.2, "stroke-dasharray": "3 2"}));
          }
          const topY = Y(n + (real && !s.c ? mine : 0));
          g.append(svg("text", {x: x + barW / 2, y: topY - 3, "text-anchor": "middle", "font-size": 10,
            "font-weight": n === hi && hi !== lo ? 700 : 400, fill: n === hi && hi !== lo ? "#000" : "#666", text: n}));
          if (p === mover) {
            g.append(svg("rect", {x: x - 1.5, y: BASE + 2, width: barW + 3, height: 3, fill: "#111"}));
          }
          // What the language is worth to this player now.
          const w = vp[l][p];
          const label = pts(w);
          g.append(svg("rect", {x: x - barGap / 2 + 0.5, y: BASE + 8, width: barW + barGap - 1, height: 16, rx: 2,
            fill: w > 0 ? "#c8e6c9" : w < 0 ? "#ffcdd2" : "#f5f5f5"}));
          g.append(svg("text", {x: x + barW / 2, y: BASE + 20, "text-anchor": "middle", "font-size": 9.5,
            textLength: label.length > 4 ? barW + barGap - 3 : null, lengthAdjust: "spacingAndGlyphs",
            fill: w > 0 ? "#1b5e20" : w < 0 ? "#b71c1c" : "#999", text: label}));
        }
        // Who wins the language now.
        const best = [0, 1, 2, 3].filter((p) => vp[l][p] > 0);
        g.append(svg("text", {x: cx, y: BASE + 40, "text-anchor": "middle", "font-size": 10, fill: "#333"},
          hi === lo ? "all tied" : [best.map((p) => svg("tspan", {fill: color(p), "font-size": 12, text: "\u2605"})),
            best.length === 1 ? ` ${ctx.names[best[0]]}` : ` ${best.length} share`]));
        g.append(svg("text", {x: cx, y: BASE + 56, "text-anchor": "middle", "font-size": 10, fill: "#777",
          text: `last holiday: ${s.h[l]} pick${s.h[l] === 1 ? "" : "s"}`}));
      }
      g.append(svg("text", {x: LEFT - 7, y: BASE + 20, "text-anchor": "end", "font-size": 9, fill: "#888", text: real ? "points" : "seen"}));

      // The legend: the players with their points, then what the marks mean.
      const ly = H - 60;
      g.append(svg("line", {x1: 0, x2: W, y1: ly - 14, y2: ly - 14, stroke: "#ddd"}));
      const legW = (W - 8) / NP;
      for (let p = 0; p < NP; p++) {
        const x = 4 + p * legW;
        const total = vp.reduce((sum, row) => sum + row[p], 0);
        const picks = s.pk && s.pk[p] ? s.pk[p].join(" ") : null;
        g.append(svg("rect", {x, y: ly - 6, width: 12, height: 12, rx: 2, fill: color(p), stroke: p === mover ? "#111" : "none", "stroke-width": 2}));
        g.append(svg("text", {x: x + 17, y: ly + 4, "font-size": 12, "font-weight": p === mover ? 700 : 400,
          text: `${ctx.names[p]}: ${pts(total)} ${real ? "pts" : "pts seen"}`}));
        const notes = [];
        if (s.out[p]) notes.push("stopped: picks language 0");
        if (picks !== null && (real || workday && s.c)) notes.push(`${s.c ? "picked" : "picks"} ${picks}${s.c ? "" : " (not counted yet)"}`);
        if (notes.length) g.append(svg("text", {x: x + 17, y: ly + 19, "font-size": 10, fill: s.out[p] ? "#b71c1c" : "#555", text: notes.join(" \u00b7 ")}));
      }
      const ky = H - 14;
      let kx = 4;
      const keys = svg("g", {"data-testid": "legend"});
      g.append(keys);
      const key = (mark, label) => { keys.append(mark(kx)); keys.append(svg("text", {x: kx + 16, y: ky + 4, "font-size": 10, fill: "#555", text: label})); kx += 22 + label.length * 5.2; };
      key((x) => svg("rect", {x, y: ky - 6, width: 11, height: 11, fill: "#78909c"}), "revealed (workday picks)");
      if (real) key((x) => svg("rect", {x, y: ky - 6, width: 11, height: 11, fill: "url(#lw-hid-key)", stroke: "#78909c", "stroke-width": 0.6}), "hidden (holiday picks)");
      key((x) => svg("rect", {x: x + 0.75, y: ky - 5.25, width: 9.5, height: 9.5, fill: "none", stroke: "#111", "stroke-width": 1.5}), "counted this turn");
      if (real) key((x) => svg("rect", {x, y: ky - 6, width: 11, height: 11, fill: "none", stroke: "#78909c", "stroke-dasharray": "3 2"}), "picked, not counted yet");
      key((x) => svg("rect", {x, y: ky - 6, width: 11, height: 11, fill: "#c8e6c9"}), real ? "points: most believers +attention, fewest \u2212attention (ties share)" : "points as the revealed believers give them");
      box.replaceChildren(g);
    },
  });

  // makeDefs makes the stripes of hidden believers, one pattern per player and one grey for
  // the key.
  function makeDefs() {
    const defs = svg("defs", {});
    const stripes = (id, c) => svg("pattern", {id, width: 5, height: 5, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)"},
      svg("rect", {width: 5, height: 5, fill: "#fff"}),
      svg("rect", {width: 2.4, height: 5, fill: c, "fill-opacity": 0.75}));
    for (let p = 0; p < NP; p++) defs.append(stripes(`lw-hid-${p}`, color(p)));
    defs.append(stripes("lw-hid-key", "#78909c"));
    return defs;
  }
})();
