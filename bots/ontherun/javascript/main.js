// On The Run sample bot (JavaScript). Reads the map from connect.txt, then plays the
// role named on its first input line.
// Fugitive: starts on the city farthest (fewest connections of any type) from
// the nearest detective; each turn takes the connection whose city is farthest
// from the detectives, never a detective's city unless every move is one.
// Detectives: start on the four cities with the most connections; they keep
// the set of cities where the fugitive can be (its announced city, widened
// each turn along connections of the type it used) and each detective steps to
// the neighbour nearest to that set, the four new cities made distinct by a
// small backtracking search. Exits on "Quit", at end of input, and after its
// 50th move. Deterministic.
"use strict";

const fs = require("fs");

// ---- Input: whole lines, as soon as they arrive --------------------------------------
// The judge sends a request and waits for the answer, so the bot must answer as soon as the
// request's lines are in (never wait for the end of the input). A request may arrive in
// several chunks: only complete lines are handed out. nextLine() resolves with the next
// line (without its "\n"), or with null at the end of the input.
const pending = []; // complete lines not taken yet
let partial = ""; // the start of a line whose "\n" has not come yet
let ended = false;
let waiting = null; // the resolve function of a nextLine() that found no line

function wake() {
  if (waiting !== null && (pending.length > 0 || ended)) {
    const resolve = waiting;
    waiting = null;
    resolve(pending.length > 0 ? pending.shift() : null);
  }
}

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const parts = (partial + chunk).split("\n");
  partial = parts.pop();
  for (const p of parts) pending.push(p);
  wake();
});
process.stdin.on("end", () => {
  if (partial !== "") pending.push(partial);
  partial = "";
  ended = true;
  wake();
});
process.stdin.on("error", () => {
  ended = true;
  wake();
});
process.stdout.on("error", () => stop()); // the judge is gone: nothing left to do

function nextLine() {
  if (pending.length > 0) return Promise.resolve(pending.shift());
  if (ended) return Promise.resolve(null);
  return new Promise((resolve) => {
    waiting = resolve;
  });
}

// stop reads no more input; the program then ends by itself once the answers written are
// flushed (no process.exit(), which could cut them off).
function stop() {
  process.stdin.destroy();
}

// Thrown to end the game: at end of input or on "Quit".
class GameOver {}

// One trimmed line; ends the game at end of file or on "Quit".
async function readLineOrExit() {
  let s = await nextLine();
  if (s === null) throw new GameOver();
  s = s.trim();
  if (s === "Quit") throw new GameOver();
  return s;
}

function answer(line) {
  process.stdout.write(line + "\n");
}

// A dot on city c, one an answer (drawn by the viewer: docs/viewer.md, Drawing on the board).
function markCity(c) {
  process.stderr.write(`@judge dot ${c} 0 layer=sample\n`);
}

// ---- The bot ---------------------------------------------------------------------------

const FAR = 1 << 20; // the distance of a city no source reaches

let n = 0;
let adj = [[]]; // adj[c]: the connections {type, to} of city c (1..n)

// The integers of s in order (any non-digit separates them).
function numbers(s) {
  const m = s.match(/[0-9]+/g);
  return m === null ? [] : m.map(Number);
}

function readMap() {
  let lines = [];
  try {
    lines = fs.readFileSync("connect.txt", "latin1").split("\n");
  } catch (e) {
    lines = [];
  }
  let k = 0;
  for (; k < lines.length && n === 0; k++) {
    const v = numbers(lines[k]);
    if (v.length > 0) n = v[0];
  }
  adj = [];
  for (let c = 0; c <= n; c++) adj.push([]);
  for (; k < lines.length; k++) {
    const line = lines[k].trim();
    if (line === "END") break;
    const v = numbers(line);
    if (line === "" || v.length < 2) continue;
    const a = v[0];
    const b = v[1];
    if (a < 1 || a > n || b < 1 || b > n || a === b) continue;
    adj[a].push({ type: line[0], to: b });
    adj[b].push({ type: line[0], to: a });
  }
}

// Breadth-first distances (connections of any type) from the cities marked in src.
function distances(src) {
  const dist = new Array(n + 1).fill(FAR);
  const queue = [];
  for (let c = 1; c <= n; c++) {
    if (src[c]) {
      dist[c] = 0;
      queue.push(c);
    }
  }
  for (let q = 0; q < queue.length; q++) {
    const c = queue[q];
    for (const l of adj[c]) {
      if (dist[l.to] > dist[c] + 1) {
        dist[l.to] = dist[c] + 1;
        queue.push(l.to);
      }
    }
  }
  return dist;
}

async function readFour() {
  const det = [];
  for (let i = 0; i < 4; i++) {
    const v = numbers(await readLineOrExit());
    det.push(v.length > 0 ? v[0] : 0);
  }
  return det;
}

function detectiveMap(det) {
  const m = new Array(n + 1).fill(false);
  for (const d of det) if (d >= 1 && d <= n) m[d] = true;
  return m;
}

async function playFugitive() {
  let det = await readFour();
  let isDet = detectiveMap(det);
  let dist = distances(isDet);
  let cur = 0;
  for (let c = 1; c <= n; c++) {
    if (!isDet[c] && (cur === 0 || dist[c] > dist[cur])) cur = c;
  }
  markCity(cur);
  answer(String(cur));

  for (let turn = 1; turn <= 50; turn++) {
    isDet = detectiveMap(det);
    dist = distances(isDet);
    const links = cur >= 1 && cur <= n ? adj[cur] : [];
    let best = -1;
    for (let k = 0; k < links.length; k++) {
      if (isDet[links[k].to]) continue;
      if (best < 0 || dist[links[k].to] > dist[links[best].to]) best = k;
    }
    if (best < 0) best = 0; // every move ends on a detective: caught anyway
    if (links.length === 0) return; // no map: nothing legal to say
    const move = links[best];
    cur = move.to;
    markCity(cur);
    answer(move.type + " " + cur);
    if (turn === 50) break;
    det = await readFour();
  }
}

// Gives detective i (and the following ones) a new city, trying the neighbours in the order
// of choices[i]; false when no distinct assignment exists.
function assign(i, choices, target, used) {
  if (i === 4) return true;
  for (const c of choices[i]) {
    if (used[c]) continue;
    used[c] = true;
    target[i] = c;
    if (assign(i + 1, choices, target, used)) return true;
    used[c] = false;
  }
  return false;
}

async function playDetectives() {
  // Start on the four cities with the most connections (lowest number on ties).
  const det = [];
  const taken = new Array(n + 1).fill(false);
  for (let i = 0; i < 4; i++) {
    let best = 0;
    for (let c = 1; c <= n; c++) {
      if (!taken[c] && (best === 0 || adj[c].length > adj[best].length)) best = c;
    }
    taken[best] = true;
    det.push(best);
  }
  markCity(det[0]);
  answer(det.join("\n"));

  let cand = new Array(n + 1).fill(false); // where the fugitive may be
  const start = numbers(await readLineOrExit());
  if (start.length > 0 && start[0] >= 1 && start[0] <= n) cand[start[0]] = true;

  for (let turn = 1; turn <= 50; turn++) {
    const line = await readLineOrExit();
    const type = line !== "" ? line[0] : "C";
    const v = numbers(line);
    const isDet = detectiveMap(det);
    let next = new Array(n + 1).fill(false);
    let any = false;
    if (v.length > 0 && v[0] >= 1 && v[0] <= n) {
      // announcement turn
      next[v[0]] = true;
      any = true;
    } else {
      for (let c = 1; c <= n; c++) {
        if (!cand[c]) continue;
        for (const l of adj[c]) {
          if (l.type === type && !isDet[l.to]) {
            next[l.to] = true;
            any = true;
          }
        }
      }
    }
    if (!any) {
      // lost track: the fugitive may be anywhere
      next = new Array(n + 1).fill(false);
      for (let c = 1; c <= n; c++) next[c] = !isDet[c];
    }
    cand = next;

    // Each detective prefers the neighbours nearest to the possible cities (Array.sort is
    // stable: equally near ones stay in the map's order).
    const dist = distances(cand);
    const choices = [];
    for (let i = 0; i < 4; i++) {
      const ch = adj[det[i]].map((l) => l.to);
      ch.sort((a, b) => dist[a] - dist[b]);
      choices.push(ch);
    }
    const target = [0, 0, 0, 0];
    if (!assign(0, choices, target, new Array(n + 1).fill(false))) {
      for (let i = 0; i < 4; i++) {
        target[i] = adj[det[i]].length > 0 ? adj[det[i]][0].to : det[i];
      }
    }
    for (let i = 0; i < 4; i++) {
      det[i] = target[i];
      cand[det[i]] = false;
    }
    markCity(det[0]);
    answer(det.join("\n"));
  }
}

async function main() {
  readMap();
  if ((await readLineOrExit()) === "Fugitive") {
    await playFugitive();
  } else {
    await playDetectives();
  }
}

main()
  .catch((e) => {
    if (e instanceof GameOver) return;
    process.stderr.write(String((e && e.stack) || e) + "\n");
    process.exitCode = 1;
  })
  .finally(stop);
