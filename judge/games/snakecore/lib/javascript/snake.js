// snake.js - the SnakeCore helper library for JavaScript (Node.js) bots.
//
// The judge adds this file to every JavaScript submission for SnakeCore as snake.js beside
// main.js, so a bot just requires it:
//
//     const snake = require("./snake");
//
//     snake.run("my bot", (area) => {
//       return snake.NONE;
//     });
//
// run() answers getName with the name (cut to the 32 bytes the page allows, control
// characters made spaces) and each getAction with what the function returns for that
// request's AreaInfo (the function may also be async and return a promise), writing every
// answer as soon as it is known. It returns a promise that resolves at the end of the input
// (the program then ends by itself) and rejects with a FormatError on a malformed request.
// A bot may also read the requests itself with a LineReader and readRequest(), or ignore
// this file.
//
// Coordinates are x (column) and y (row), from 0 at the top left; UP is y-1.
//
// CommonJS, no packages; Node.js 18 and later.
"use strict";

// The actions a bot may answer.
const UP = "U";
const LEFT = "L";
const DOWN = "D";
const RIGHT = "R";
const NONE = "N"; // skip the move
const PROTECT = "A"; // spend an energy block for 10 moves of protection

// The four moving actions.
const MOVES = Object.freeze([UP, LEFT, DOWN, RIGHT]);

// The characters of the field.
const WALL = "W";
const REACTOR = "R";
const BLOCK = "b"; // an ordinary block, free or in a body
const ENERGY = "e"; // an energy block, free or in a body
const HEAD = "p"; // a python's head
const EMPTY = ".";

// A cell: x the column, y the row.
class Point {
  constructor(x, y) {
    this.x = x;
    this.y = y;
  }

  // The cell next to this one in the direction of a move action (an equal one for others).
  step(action) {
    switch (action) {
      case UP:
        return new Point(this.x, this.y - 1);
      case DOWN:
        return new Point(this.x, this.y + 1);
      case LEFT:
        return new Point(this.x - 1, this.y);
      case RIGHT:
        return new Point(this.x + 1, this.y);
      default:
        return new Point(this.x, this.y);
    }
  }

  // The Manhattan distance to q.
  dist(q) {
    return Math.abs(this.x - q.x) + Math.abs(this.y - q.y);
  }

  // Whether q is the same cell (=== compares objects, not cells).
  equals(q) {
    return q !== null && q !== undefined && this.x === q.x && this.y === q.y;
  }

  // "x,y": a key for a Map or Set of cells.
  key() {
    return this.x + "," + this.y;
  }
}

// One python: parts[0] is the head, the last part the tail; a python is never empty.
class Python {
  constructor(protection, parts) {
    // The number of the python's own moves its protection still lasts (0: unprotected).
    this.protection = protection;
    // The head and the body's blocks (Points), from the head to the tail.
    this.parts = parts;
  }

  // The python's length, head included.
  length() {
    return this.parts.length;
  }

  // The head's cell.
  head() {
    return this.parts[0];
  }

  // The last part's cell (the head's for a head alone).
  tail() {
    return this.parts[this.parts.length - 1];
  }

  // The body's blocks: all parts but the head.
  body() {
    return this.parts.slice(1);
  }
}

// A request that is not in the page's format.
class FormatError extends Error {
  constructor(message) {
    super("snake: malformed request: " + message);
    this.name = "FormatError";
  }
}

// One getAction request: the field and the pythons.
//   size     the side of the square field
//   rows     the field's rows, top first: rows[y][x] is the cell (x, y)
//   pythons  all pythons: pythons[0] is the bot's own, the others follow in the order of
//            the players' ids
//   turn     the getAction requests read so far, 1 for the first (set by run)
class AreaInfo {
  constructor(size, rows, pythons, turn = 0) {
    this.size = size;
    this.rows = rows;
    this.pythons = pythons;
    this.turn = turn;
    // Who owns each cell, and which part of its python it is: index y*size+x, -1 for none.
    this._owner = new Int32Array(size * size).fill(-1);
    this._index = new Int32Array(size * size).fill(-1);
    pythons.forEach((p, k) => {
      p.parts.forEach((q, i) => {
        if (this.inside(q.x, q.y)) {
          this._owner[q.y * size + q.x] = k;
          this._index[q.y * size + q.x] = i;
        }
      });
    });
  }

  // The bot's own python.
  me() {
    return this.pythons[0];
  }

  // The other pythons.
  others() {
    return this.pythons.slice(1);
  }

  // Whether (x, y) is on the field.
  inside(x, y) {
    return x >= 0 && y >= 0 && x < this.size && y < this.size;
  }

  // The character of (x, y); off the field it is a WALL.
  cell(x, y) {
    return this.inside(x, y) ? this.rows[y][x] : WALL;
  }

  // cell() for a Point.
  at(p) {
    return this.cell(p.x, p.y);
  }

  // The index in pythons of the python with a part on (x, y), or -1.
  owner(x, y) {
    return this.inside(x, y) ? this._owner[y * this.size + x] : -1;
  }

  // The index in its python's parts of the part on (x, y) (0 for a head), or -1.
  partIndex(x, y) {
    return this.inside(x, y) ? this._index[y * this.size + x] : -1;
  }

  // A block on (x, y) that belongs to no python.
  isFreeBlock(x, y) {
    const c = this.cell(x, y);
    return (c === BLOCK || c === ENERGY) && this.owner(x, y) < 0;
  }

  // An empty cell.
  isEmpty(x, y) {
    return this.inside(x, y) && this.rows[y][x] === EMPTY;
  }
}

// LineReader hands out the lines of a stream (default: standard input) as soon as each is
// complete: the judge sends a request and waits for the answer, so nothing may wait for
// more input than the request holds. next() resolves with the next line (without its "\n"),
// or with null at the end of the input.
class LineReader {
  constructor(stream = process.stdin) {
    this.stream = stream;
    this.lines = []; // complete lines not taken yet
    this.partial = ""; // the start of a line whose "\n" has not come yet
    this.ended = false;
    this.waiting = null; // the resolve function of a next() that found no line
    if (typeof stream.setEncoding === "function") stream.setEncoding("utf8");
    stream.on("data", (chunk) => {
      const parts = (this.partial + chunk).split("\n");
      this.partial = parts.pop();
      for (const p of parts) this.lines.push(p);
      this._wake();
    });
    const end = () => {
      if (this.partial !== "") this.lines.push(this.partial);
      this.partial = "";
      this.ended = true;
      this._wake();
    };
    stream.on("end", end);
    stream.on("error", end);
  }

  _wake() {
    if (this.waiting !== null && (this.lines.length > 0 || this.ended)) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve(this.lines.length > 0 ? this.lines.shift() : null);
    }
  }

  next() {
    if (this.lines.length > 0) return Promise.resolve(this.lines.shift());
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  // close reads no more input (so that the program can end before its input does).
  close() {
    this.ended = true;
    if (typeof this.stream.destroy === "function") this.stream.destroy();
    this._wake();
  }
}

// One line without its end ("\n" or "\r\n"); null at the end of the input.
async function readRaw(reader) {
  const s = await reader.next();
  return s === null ? null : s.replace(/\r+$/, "");
}

// One line without its end and surrounding spaces; null at the end of the input.
async function readLine(reader) {
  const s = await reader.next();
  return s === null ? null : s.trim();
}

// s as an integer; NaN when it is not one.
function toInt(s) {
  s = s.trim();
  return /^[+-]?[0-9]+$/.test(s) ? parseInt(s, 10) : NaN;
}

// Reads the rest of a getAction request (after its first line) and resolves with its
// AreaInfo; null at the end of the input. The number of python lines is the number of heads
// on the field. Rejects with a FormatError on a malformed request.
async function readArea(reader) {
  let line = await readLine(reader);
  if (line === null) return null;
  const n = toInt(line);
  if (!(n > 0)) throw new FormatError(JSON.stringify(line) + " is not the field size");
  const rows = [];
  let heads = 0;
  for (let y = 0; y < n; y++) {
    let row = await readRaw(reader);
    if (row === null) return null;
    if (row.length < n) row += EMPTY.repeat(n - row.length);
    row = row.slice(0, n);
    rows.push(row);
    for (let x = 0; x < n; x++) if (row[x] === HEAD) heads++;
  }
  const pythons = [];
  for (let k = 0; k < heads; k++) {
    line = await readLine(reader);
    if (line === null) return null;
    const v = line.split(/\s+/).filter((f) => f !== "").map(toInt);
    if (v.some(Number.isNaN) || v.length < 2 || v[1] < 1 || v.length !== 2 + 2 * v[1]) {
      throw new FormatError("python line " + JSON.stringify(line));
    }
    const parts = [];
    for (let i = 0; i < v[1]; i++) parts.push(new Point(v[2 + 2 * i], v[3 + 2 * i]));
    pythons.push(new Python(v[0], parts));
  }
  if (heads === 0) throw new FormatError("no python on the field");
  return new AreaInfo(n, rows, pythons);
}

// Reads the next request: resolves with {kind: 'getName', area: null} or
// {kind: 'getAction', area}; unknown lines are skipped. At the end of the input it resolves
// with null. Rejects with a FormatError on a malformed request.
async function readRequest(reader) {
  for (;;) {
    const line = await readLine(reader);
    if (line === null) return null;
    if (line === "getName") return { kind: line, area: null };
    if (line === "getAction") {
      const area = await readArea(reader);
      return area === null ? null : { kind: line, area };
    }
  }
}

// The name as the page allows it: at most 32 bytes of UTF-8 (a character cut in two is
// dropped), characters below 0x20 made spaces.
function cleanName(name) {
  const full = Buffer.from(String(name), "utf8");
  let end = Math.min(full.length, 32);
  while (end > 0 && end < full.length && (full[end] & 0xc0) === 0x80) end--; // a character's middle
  const b = Buffer.from(full.subarray(0, end));
  for (let i = 0; i < b.length; i++) if (b[i] < 0x20) b[i] = 0x20;
  return b.toString("utf8");
}

// Plays: answers getName with name and each getAction with action(area) (one character:
// U L D R N A; action may return a promise of it). Resolves at the end of the input; rejects
// with a FormatError on a malformed request (or with what action threw). options.input and
// options.output default to standard input and output.
async function run(name, action, options = {}) {
  const input = options.input || process.stdin;
  const output = options.output || process.stdout;
  const reader = new LineReader(input);
  // An error on the output (the judge is gone): read no more, so that the program ends.
  if (typeof output.on === "function") output.on("error", () => reader.close());
  let turn = 0;
  try {
    for (;;) {
      const req = await readRequest(reader);
      if (req === null) return;
      if (req.kind === "getName") {
        output.write(cleanName(name) + "\n");
      } else {
        turn++;
        req.area.turn = turn;
        output.write(String(await action(req.area)) + "\n");
      }
    }
  } finally {
    reader.close(); // read no more: the program ends once the answers are written
  }
}

module.exports = {
  UP,
  LEFT,
  DOWN,
  RIGHT,
  NONE,
  PROTECT,
  MOVES,
  WALL,
  REACTOR,
  BLOCK,
  ENERGY,
  HEAD,
  EMPTY,
  Point,
  Python,
  AreaInfo,
  FormatError,
  LineReader,
  readRequest,
  readArea,
  cleanName,
  run,
};
