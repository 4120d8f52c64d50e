// SnakeCore: the field (walls, reactors, free blocks) and every python, its head a disc with
// the player's number and its body a chain of blocks in the player's colour. A protected
// python has a halo and a badge with its protection counter. The state is the game's
// (judge/games/snakecore/view.go): rows as the requests show the field, and per python its
// cells (x, y pairs, head first), body kinds, counter, bot name and fault.
"use strict";

(() => {
  const {svg, el, color, fmt, frameAt, drawMarks} = JudgeView;
  const C = 10; // a cell's side in SVG units
  const HALO = "#26c6da";

  // square is a path of a square of side s centred in cell x, y.
  const square = (x, y, s) => `M${x * C + (C - s) / 2} ${y * C + (C - s) / 2}h${s}v${s}h${-s}z`;
  // diamond is a path of a diamond of width s centred in cell x, y.
  const diamond = (x, y, s) => `M${x * C + C / 2} ${y * C + (C - s) / 2}l${s / 2} ${s / 2}l${-s / 2} ${s / 2}l${-s / 2} ${-s / 2}z`;
  const mid = (v) => v * C + C / 2;

  // whatHappened says in words what the exchange just made did, from the pictures before
  // and after it (the rules stay in Go: this only compares them).
  function whatHappened(v, names) {
    const x = v.exchange;
    if (!x) return "Before the first round: every python is a head alone.";
    const who = names[x.player];
    const now = v.state.py[x.player];
    if (x.turn === 0) return `${who} gives its name` + (now.name ? `: \u201c${now.name}\u201d.` : ".");
    const fault = x.verdict || x.fault;
    if (fault) return `${who}: ${fault.kind} \u2014 disqualified; its python stays and never moves again.`;
    const answer = (x.received || []).join(" ").trim();
    const prev = frameAt(v.film, v.step - 1);
    if (!prev) return `${who} answers ${answer}.`;
    const was = prev.state.py[x.player];
    const gain = v.scores[x.player] - prev.scores[x.player];
    const moved = was.at[0] !== now.at[0] || was.at[1] !== now.at[1];
    const len = now.at.length / 2, wasLen = was.at.length / 2;
    let did;
    if (!moved && now.prot > was.prot) did = `spends an energy block: protected, counter ${now.prot}`;
    else if (!moved && gain > 0) did = `delivers ${wasLen - 1} blocks to a reactor (+${fmt(gain)})`;
    else if (!moved) did = "no move (skip)";
    else if (gain > 0) {
      const victims = prev.state.py.map((p, i) => i).filter((i) => i !== x.player && v.state.py[i].at.length < prev.state.py[i].at.length);
      did = `bites ${victims.map((i) => names[i]).join(", ") || "another python"} (+${fmt(gain)})`;
    } else if (len > wasLen) did = "eats a block";
    else if (len < wasLen) did = `bites itself (loses ${wasLen - len} blocks)`;
    else did = "moves";
    return `${who} answers ${answer}: ${did}.`;
  }

  JudgeView.register("snakecore", {
    about: "Each player steers a python over a square field: it grows by eating blocks, scores by biting other pythons and unloading into reactors, and spends energy to be unbitable for a while (SnakeCore 2008).",
    toggles: [
      {key: "coords", label: "coordinates", value: true},
      {key: "chain", label: "body chains", value: true},
    ],

    prepare(film) {
      const w = film.header.world || {};
      const n = w.size || (w.rows ? w.rows.length : 30);
      let walls = "", reactors = [], grid = "";
      (w.rows || []).forEach((row, y) => {
        for (let x = 0; x < row.length; x++) {
          if (row[x] === "W") walls += square(x, y, C);
          else if (row[x] === "R") reactors.push([x, y]);
        }
      });
      for (let i = 1; i < n; i++) grid += `M${i * C} 0v${n * C}M0 ${i * C}h${n * C}`;
      const names = (film.header.players || []).map((p, i) => p.name || `player ${i}`);
      return {n, walls, reactors, grid, names};
    },

    // annotate draws a bot's marks on the field: x a column, y a row, from 0 (the game's own).
    annotate(box, v, marks) {
      const root = box.querySelector("svg");
      if (root) drawMarks(root, marks, (x, y) => [mid(x), mid(y)], C, v.player);
    },

    draw(box, v) {
      const {n, walls, reactors, grid, names} = v.ctx;
      const st = v.state;
      const M = v.toggles.coords ? 12 : 2;
      const size = n * C;
      const root = svg("svg", {viewBox: `${-M} ${-M} ${size + M + 2} ${size + M + 2}`, role: "img",
        "aria-label": `SnakeCore field, round ${st.round}`, "font-family": "sans-serif"});

      // The ground: the field, its grid, walls and reactors (static: from the world).
      root.append(
        svg("rect", {x: 0, y: 0, width: size, height: size, fill: "#f7f5ef", stroke: "#999", "stroke-width": 0.6}),
        svg("path", {d: grid, stroke: "#e4e0d4", "stroke-width": 0.4, fill: "none"}),
        svg("path", {d: walls, fill: "#455a64"}));
      for (const [x, y] of reactors) {
        root.append(svg("rect", {x: x * C + 0.5, y: y * C + 0.5, width: C - 1, height: C - 1, rx: 1.5, fill: "#212121"}),
          svg("circle", {cx: mid(x), cy: mid(y), r: C * 0.3, fill: "#ffeb3b", stroke: "#ff6f00", "stroke-width": 1}),
          svg("circle", {cx: mid(x), cy: mid(y), r: C * 0.1, fill: "#ff6f00"}));
      }
      if (v.toggles.coords) {
        const labels = svg("g", {"font-size": 5.5, fill: "#888", "text-anchor": "middle"});
        for (let i = 0; i < n; i += 5) {
          labels.append(svg("text", {x: mid(i), y: -3, text: i}), svg("text", {x: -6, y: mid(i) + 2, text: i}));
        }
        root.append(labels);
      }

      // The free blocks: every block in the rows that no python carries.
      const taken = new Set();
      for (const p of st.py) for (let i = 0; i < p.at.length; i += 2) taken.add(p.at[i + 1] * n + p.at[i]);
      let ordinary = "", energy = "";
      st.rows.forEach((row, y) => {
        for (let x = 0; x < row.length; x++) {
          const c = row[x];
          if ((c === "b" || c === "e") && !taken.has(y * n + x)) {
            if (c === "b") ordinary += square(x, y, C * 0.56);
            else energy += diamond(x, y, C * 0.72);
          }
        }
      });
      root.append(svg("path", {d: ordinary, fill: "#bdbdbd", stroke: "#757575", "stroke-width": 0.6}),
        svg("path", {d: energy, fill: "#ffca28", stroke: "#e65100", "stroke-width": 0.6}));

      // The pythons: halos first, so that no halo covers another python.
      const chainOf = (p) => {
        let d = "";
        for (let i = 0; i < p.at.length; i += 2) d += `${i ? "L" : "M"}${mid(p.at[i])} ${mid(p.at[i + 1])}`;
        return p.at.length === 2 ? d + "l0 0" : d;
      };
      st.py.forEach((p) => {
        if (p.prot > 0) root.append(svg("path", {d: chainOf(p), fill: "none", stroke: HALO, "stroke-opacity": 0.55,
          "stroke-width": C * 1.3, "stroke-linecap": "round", "stroke-linejoin": "round"}));
      });
      const mover = v.exchange && v.exchange.turn > 0 ? v.exchange.player : -1;
      st.py.forEach((p, i) => {
        const col = color(i);
        const g = svg("g", {opacity: p.out ? 0.45 : 1});
        if (v.toggles.chain && p.at.length > 2) {
          g.append(svg("path", {d: chainOf(p), fill: "none", stroke: col, "stroke-width": C * 0.28, "stroke-linejoin": "round"}));
        }
        let body = "", marks = "";
        for (let k = 2; k < p.at.length; k += 2) {
          const x = p.at[k], y = p.at[k + 1];
          body += square(x, y, C * 0.8);
          if (p.kinds[k / 2 - 1] === "e") marks += diamond(x, y, C * 0.5);
        }
        if (body) g.append(svg("path", {d: body, fill: col, "fill-opacity": 0.6, stroke: col, "stroke-width": 0.8}));
        if (marks) g.append(svg("path", {d: marks, fill: "#ffca28", stroke: "#e65100", "stroke-width": 0.5}));
        const hx = mid(p.at[0]), hy = mid(p.at[1]);
        if (i === mover) g.append(svg("circle", {cx: hx, cy: hy, r: C * 0.85, fill: "none", stroke: "#111", "stroke-width": 0.8, "stroke-dasharray": "2 1.5"}));
        g.append(svg("circle", {cx: hx, cy: hy, r: C * 0.5, fill: col, stroke: "#111", "stroke-width": 1}),
          svg("text", {x: hx, y: hy + 2.2, "font-size": 6.5, "font-weight": "bold", fill: "#fff", "text-anchor": "middle", text: i}));
        if (p.out) g.append(svg("path", {d: `M${hx - 4} ${hy - 4}l8 8m0 -8l-8 8`, stroke: "#000", "stroke-width": 1.4}));
        g.append(svg("title", {text: `${names[i]}${p.name ? " \u201c" + p.name + "\u201d" : ""}: length ${p.at.length / 2}` +
          (p.prot > 0 ? `, protected (counter ${p.prot})` : "") + (p.out ? `, disqualified (${p.out})` : "")}));
        root.append(g);
      });
      // Protection badges on top of everything: the counter next to the head.
      st.py.forEach((p, i) => {
        if (p.prot <= 0) return;
        const bx = Math.min(mid(p.at[0]) + 6, size - 4), by = Math.max(mid(p.at[1]) - 6, 4);
        root.append(svg("rect", {x: bx - 4.5, y: by - 3.6, width: 9, height: 7.2, rx: 2, fill: "#fff", stroke: HALO, "stroke-width": 1}),
          svg("text", {x: bx, y: by + 2.2, "font-size": 6, "font-weight": "bold", fill: "#00838f", "text-anchor": "middle", text: p.prot}));
      });

      const caption = el("div", {style: "margin:0 0 4px;font-size:13px", "data-testid": "snakecore-caption"},
        el("b", {}, st.round ? `Round ${st.round}. ` : ""), whatHappened(v, names));
      const rows = st.py.map((p, i) => el("tr", {style: i === mover ? "background:#eef" : ""},
        el("td", {}, el("span", {class: "swatch", style: `background:${color(i)}`}), i),
        el("td", {}, names[i]),
        el("td", {}, p.name ? `\u201c${p.name}\u201d` : el("span", {class: "muted"}, "no name")),
        el("td", {class: "num"}, p.at.length / 2),
        el("td", {class: "num"}, [...p.kinds].filter((k) => k === "e").length),
        el("td", {class: "num", style: p.prot > 0 ? `color:#00838f;font-weight:bold` : ""}, p.prot > 0 ? p.prot : "\u2013"),
        el("td", {class: "num"}, fmt(v.scores[i])),
        el("td", {class: "fault"}, p.out ? p.out : "")));
      const table = el("table", {class: "list", style: "font-size:12px;margin-top:4px"},
        el("thead", {}, el("tr", {}, ["", "bot", "name", "length", "energy", "protection", "score", ""].map((h) => el("th", {}, h)))),
        el("tbody", {}, rows));
      const key = (mark, text) => el("span", {style: "margin-right:1.1em;white-space:nowrap"}, mark, " ", text);
      const icon = (...parts) => svg("svg", {viewBox: `0 0 ${C} ${C}`, width: 13, height: 13, style: "width:13px;height:13px;display:inline-block;vertical-align:middle"}, ...parts);
      const legend = el("div", {style: "font-size:12px;color:#555;margin:2px 0 4px", "data-testid": "legend"},
        key(icon(svg("path", {d: square(0, 0, C), fill: "#455a64"})), "wall"),
        key(icon(svg("rect", {x: 0.5, y: 0.5, width: C - 1, height: C - 1, rx: 1.5, fill: "#212121"}), svg("circle", {cx: C / 2, cy: C / 2, r: 3, fill: "#ffeb3b", stroke: "#ff6f00"})), "reactor"),
        key(icon(svg("path", {d: square(0, 0, C * 0.56), fill: "#bdbdbd", stroke: "#757575", "stroke-width": 0.6})), "block"),
        key(icon(svg("path", {d: diamond(0, 0, C * 0.72), fill: "#ffca28", stroke: "#e65100", "stroke-width": 0.6})), "energy block"),
        key(icon(svg("circle", {cx: C / 2, cy: C / 2, r: C * 0.45, fill: "#888", stroke: "#111"})), "head (player number), body in the player's colour"),
        key(icon(svg("circle", {cx: C / 2, cy: C / 2, r: C * 0.45, fill: HALO, "fill-opacity": 0.55})), "halo: protected; badge: protection counter (\u22121 as each own move begins, protected while above 0)"),
        key(icon(svg("circle", {cx: C / 2, cy: C / 2, r: C * 0.42, fill: "none", stroke: "#111", "stroke-dasharray": "2 1.5"})), "just moved"),
        key(icon(svg("path", {d: "M1 1l8 8m0 -8l-8 8", stroke: "#000", "stroke-width": 1.4})), "disqualified"));
      // The legend above the board, where it is seen without scrolling.
      box.replaceChildren(caption, legend, root, table);
    },
  });
})();
