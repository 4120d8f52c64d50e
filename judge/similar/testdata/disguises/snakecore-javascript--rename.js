// SnakeCore sample bot (JavaScript), written with the judge's helper library (snake.js,
// which the judge adds beside main.js).
// Each move: bite an adjacent unprotected body block of another python when that cuts off
// at least 2 blocks; deliver to an adjacent reactor once the body has 7 blocks; otherwise
// walk (breadth-first search over empty cells, free blocks and the own tail) toward the
// nearest free block, or toward a cell next to a reactor when the body is long enough or no
// free block is reachable. Deterministic; exits at the end of the input (snake.run).
"use strict";

const lib = require("./snake");

const CARGO_LIMIT = 7;

// passable: a cell the head may step on without a fight: empty, a free block, the own tail.
function walkable(area, cell) {
  if (area.isEmpty(cell.x, cell.y) || area.isFreeBlock(cell.x, cell.y)) return true;
  const self = area.me();
  return self.length() > 1 && cell.equals(self.tail());
}

function isLoot(area, cell) {
  return area.isFreeBlock(cell.x, cell.y);
}

function besideCore(area, cell) {
  for (const mv of lib.MOVES) {
    if (area.at(cell.step(mv)) === lib.REACTOR) return true;
  }
  return false;
}

// toward is the first move of a shortest path to a goal cell, or null.
function pathTo(area, target) {
  const width = area.size;
  const firstStep = new Array(width * width).fill(null); // the first move of the path that reached each cell
  const frontier = [];
  const head = area.me().head();
  for (const mv of lib.MOVES) {
    const nxt = head.step(mv);
    if (!walkable(area, nxt)) continue;
    if (target(area, nxt)) return mv;
    if (firstStep[nxt.y * width + nxt.x] === null) {
      firstStep[nxt.y * width + nxt.x] = mv;
      frontier.push(nxt);
    }
  }
  for (let qi = 0; qi < frontier.length; qi++) {
    const cur = frontier[qi];
    for (const mv of lib.MOVES) {
      const nxt = cur.step(mv);
      // passable cells are all on the field, so t's index is valid once it has passed
      if (!walkable(area, nxt) || nxt.equals(head) || firstStep[nxt.y * width + nxt.x] !== null) continue;
      if (target(area, nxt)) return firstStep[cur.y * width + cur.x];
      firstStep[nxt.y * width + nxt.x] = firstStep[cur.y * width + cur.x];
      frontier.push(nxt);
    }
  }
  return null;
}

function think(area) {
  const self = area.me();
  const load = self.length() - 1;
  const head = self.head();
  // A dot on its head (drawn by the viewer: docs/viewer.md, Drawing on the board).
  process.stderr.write(`@judge dot ${head.x} ${head.y} layer=sample\n`);
  // Bite: an adjacent block of another unprotected python, neither head nor tail.
  for (const mv of lib.MOVES) {
    const nxt = head.step(mv);
    const ownerId = area.owner(nxt.x, nxt.y);
    const part = area.partIndex(nxt.x, nxt.y);
    if (ownerId > 0 && part > 0) {
      const prey = area.pythons[ownerId];
      if (prey.protection === 0 && part < prey.length() - 1 && prey.length() - part >= 2) return mv;
    }
  }
  // Deliver.
  if (load >= CARGO_LIMIT) {
    for (const mv of lib.MOVES) {
      if (area.at(head.step(mv)) === lib.REACTOR) return mv;
    }
  }
  let mv = pathTo(area, load >= CARGO_LIMIT ? besideCore : isLoot);
  if (mv !== null) return mv;
  if (load > 0) {
    for (const alt of lib.MOVES) {
      if (area.at(head.step(alt)) === lib.REACTOR) return alt;
    }
    mv = pathTo(area, besideCore);
    if (mv !== null) return mv;
  }
  for (const alt of lib.MOVES) {
    if (walkable(area, head.step(alt))) return alt;
  }
  return lib.NONE;
}

lib.run("sample-javascript", think).catch((alt) => {
  if (!(alt instanceof lib.FormatError)) throw alt;
  process.exitCode = 1; // a request the library could not read: give up, as the Go bot does
});
