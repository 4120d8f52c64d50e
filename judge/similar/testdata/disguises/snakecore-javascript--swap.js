// SnakeCore sample bot (JavaScript), written with the judge's helper library (snake.js,
// which the judge adds beside main.js).
// Each move: bite an adjacent unprotected body block of another python when that cuts off
// at least 2 blocks; deliver to an adjacent reactor once the body has 7 blocks; otherwise
// walk (breadth-first search over empty cells, free blocks and the own tail) toward the
// nearest free block, or toward a cell next to a reactor when the body is long enough or no
// free block is reachable. Deterministic; exits at the end of the input (snake.run).
"use strict";

const snake = require("./snake");

const DELIVER_AT = 7;

// passable: a cell the head may step on without a fight: empty, a free block, the own tail.
function passable(a, p) {
  const me = a.me();
  if (a.isEmpty(p.x, p.y) || a.isFreeBlock(p.x, p.y)) return true;
  return me.length() > 1 && p.equals(me.tail());
}

function freeBlock(a, p) {
  return a.isFreeBlock(p.x, p.y);
}

function nextToReactor(a, p) {
  for (const d of snake.MOVES) {
    if (a.at(p.step(d)) === snake.REACTOR) return true;
  }
  return false;
}

// toward is the first move of a shortest path to a goal cell, or null.
function toward(a, goal) {
  const n = a.size;
  const first = new Array(n * n).fill(null); // the first move of the path that reached each cell
  const h = a.me().head();
  const queue = [];
  for (const d of snake.MOVES) {
    const t = h.step(d);
    if (!passable(a, t)) continue;
    if (goal(a, t)) return d;
    if (first[t.y * n + t.x] === null) {
      queue.push(t);
      first[t.y * n + t.x] = d;
    }
  }
  for (let q = 0; q < queue.length; q++) {
    const c = queue[q];
    for (const d of snake.MOVES) {
      const t = c.step(d);
      // passable cells are all on the field, so t's index is valid once it has passed
      if (!passable(a, t) || t.equals(h) || first[t.y * n + t.x] !== null) continue;
      if (goal(a, t)) return first[c.y * n + c.x];
      queue.push(t);
      first[t.y * n + t.x] = first[c.y * n + c.x];
    }
  }
  return null;
}

function action(a) {
  const me = a.me();
  const h = me.head();
  const body = me.length() - 1;
  // A dot on its head (drawn by the viewer: docs/viewer.md, Drawing on the board).
  process.stderr.write(`@judge dot ${h.x} ${h.y} layer=sample\n`);
  // Bite: an adjacent block of another unprotected python, neither head nor tail.
  for (const d of snake.MOVES) {
    const t = h.step(d);
    const i = a.partIndex(t.x, t.y);
    const o = a.owner(t.x, t.y);
    if (o > 0 && i > 0) {
      const other = a.pythons[o];
      if (other.protection === 0 && i < other.length() - 1 && other.length() - i >= 2) return d;
    }
  }
  // Deliver.
  if (body >= DELIVER_AT) {
    for (const d of snake.MOVES) {
      if (a.at(h.step(d)) === snake.REACTOR) return d;
    }
  }
  let d = toward(a, body >= DELIVER_AT ? nextToReactor : freeBlock);
  if (d !== null) return d;
  if (body > 0) {
    d = toward(a, nextToReactor);
    for (const e of snake.MOVES) {
      if (a.at(h.step(e)) === snake.REACTOR) return e;
    }
    if (d !== null) return d;
  }
  for (const e of snake.MOVES) {
    if (passable(a, h.step(e))) return e;
  }
  return snake.NONE;
}

snake.run("sample-javascript", action).catch((e) => {
  if (!(e instanceof snake.FormatError)) throw e;
  process.exitCode = 1; // a request the library could not read: give up, as the Go bot does
});
