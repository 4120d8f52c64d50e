/*
 * Python-arena bot: collect loose blocks, bring them to a reactor,
 * and take a bite out of rivals when it pays off.
 */
"use strict";

const snake = require("./snake");  // protocol helpers shipped by the judge

const DELIVER_AT = 7;  // body length at which we go and cash in

/** Can our head move onto p without a fight? */
function passable(a, p) {
  if (a.isEmpty(p.x, p.y) || a.isFreeBlock(p.x, p.y)) return true;
  const me = a.me();
  return me.length() > 1 && p.equals(me.tail());  // our own tail moves away
}

/** Goal test: a loose block. */
function freeBlock(a, p) {
  return a.isFreeBlock(p.x, p.y);
}

/** Goal test: a cell touching a reactor. */
function nextToReactor(a, p) {
  for (const d of snake.MOVES) {
    if (a.at(p.step(d)) === snake.REACTOR) return true;
  }
  return false;
}

/**
 * BFS from the head; returns the initial direction of the shortest route
 * to any cell accepted by goal, or null if none can be reached.
 */
function toward(a, goal) {
  const n = a.size;
  const first = new Array(n * n).fill(null);  // direction that first reached each cell
  const queue = [];
  const h = a.me().head();
  // seed the search with the four neighbours of the head
  for (const d of snake.MOVES) {
    const t = h.step(d);
    if (!passable(a, t)) continue;
    if (goal(a, t)) return d;
    if (first[t.y * n + t.x] === null) {
      first[t.y * n + t.x] = d;
      queue.push(t);
    }
  }
  for (let q = 0; q < queue.length; q++) {  // queue grows while we iterate
    const c = queue[q];
    for (const d of snake.MOVES) {
      const t = c.step(d);
      if (!passable(a, t) || t.equals(h) || first[t.y * n + t.x] !== null) continue;
      if (goal(a, t)) return first[c.y * n + c.x];  // inherit the first step
      first[t.y * n + t.x] = first[c.y * n + c.x];
      queue.push(t);
    }
  }
  return null;  // unreachable
}

/** Decide the move for one getAction request. */
function action(a) {
  const me = a.me();
  const body = me.length() - 1;
  const h = me.head();
  // viewer marker
  process.stderr.write(`@judge dot ${h.x} ${h.y} layer=sample\n`);
  // attack: bite a rival's body if that cuts off at least two blocks
  for (const d of snake.MOVES) {
    const t = h.step(d);
    const o = a.owner(t.x, t.y);
    const i = a.partIndex(t.x, t.y);
    if (o > 0 && i > 0) {
      const other = a.pythons[o];
      if (other.protection === 0 && i < other.length() - 1 && other.length() - i >= 2) return d;
    }
  }
  // full enough: drop the load at an adjacent reactor
  if (body >= DELIVER_AT) {
    for (const d of snake.MOVES) {
      if (a.at(h.step(d)) === snake.REACTOR) return d;
    }
  }
  // otherwise walk to a block, or to a reactor when loaded
  let d = toward(a, body >= DELIVER_AT ? nextToReactor : freeBlock);
  if (d !== null) return d;
  // nothing to collect: unload whatever we carry
  if (body > 0) {
    // any safe step at all
    for (const e of snake.MOVES) {
      if (a.at(h.step(e)) === snake.REACTOR) return e;
    }
    d = toward(a, nextToReactor);
    if (d !== null) return d;
  }
  for (const e of snake.MOVES) {
    if (passable(a, h.step(e))) return e;
  }
  return snake.NONE;  // stuck
}

// start the request loop; malformed input ends the program with status 1
snake.run("sample-javascript", action).catch((e) => {
  if (!(e instanceof snake.FormatError)) throw e;
  process.exitCode = 1;
});
