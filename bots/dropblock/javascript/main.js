// Drop the Block sample bot (JavaScript). Prints READY, then answers every turn's input
// (id, T, 6 block rows, 4 player lines "R C D S", EOD) with one action:
//   - fallen, or waiting after an attack (S > 0): N;
//   - standing on a block that is about to fall: the quickest step off it onto a
//     standing block;
//   - an enemy on a standing block in line within 3 blocks: A when facing it,
//     otherwise a move toward it (which turns it; it steps only onto a standing block);
//   - otherwise a step toward the centre onto a standing block (never onto a
//     falling or fallen one), or N.
//
// Deterministic. Exits at end of input.
"use strict";

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

// ---- The bot ---------------------------------------------------------------------------

const SIZE = 18; // squares per side
const SIDE = 3; // squares per block side
const BLOCKS = 6; // blocks per side
const PLAYERS = 4;
const LETTERS = "URDL";
const DR = [-1, 0, 1, 0];
const DC = [0, 1, 0, -1];

const blk = []; // the block counters
for (let r = 0; r < BLOCKS; r++) blk.push(new Array(BLOCKS).fill(0));
const pr = [-1, -1, -1, -1]; // each player's row (-1: fallen)
const pc = [-1, -1, -1, -1]; // column
const pd = [0, 0, 0, 0]; // direction, an index in LETTERS
const ps = [0, 0, 0, 0]; // wait
let id = 0; // the own id
let turn = 0; // the global turn T

function blockAt(r, c) {
  return blk[Math.floor(r / SIDE)][Math.floor(c / SIDE)];
}

function onBoard(r, c) {
  return r >= 0 && r < SIZE && c >= 0 && c < SIZE;
}

// legal: the move would step (on the board, not onto a fallen block, more than 3 from everyone).
function legal(d) {
  const r = pr[id] + DR[d];
  const c = pc[id] + DC[d];
  if (!onBoard(r, c) || blockAt(r, c) < 0) return false;
  for (let j = 0; j < PLAYERS; j++) {
    if (j !== id && pr[j] >= 0 && Math.abs(r - pr[j]) + Math.abs(c - pc[j]) <= 3) return false;
  }
  return true;
}

function safe(d) {
  return legal(d) && blockAt(pr[id] + DR[d], pc[id] + DC[d]) === 0;
}

function decide() {
  const r = pr[id];
  const c = pc[id];
  if (r < 0 || ps[id] > 0 || !onBoard(r, c)) return "N";
  const br = Math.floor(r / SIDE);
  const bc = Math.floor(c / SIDE);
  if (blk[br][bc] > 0) {
    // get off a falling block
    let best = -1;
    let bestSteps = 0;
    // Steps to leave the own block going up, right, down, left.
    const steps = [(r % SIDE) + 1, SIDE - (c % SIDE), SIDE - (r % SIDE), (c % SIDE) + 1];
    for (let d = 0; d < 4; d++) {
      const nr = br + DR[d];
      const nc = bc + DC[d];
      if (!legal(d) || nr < 0 || nr >= BLOCKS || nc < 0 || nc >= BLOCKS || blk[nr][nc] !== 0) continue;
      if (best < 0 || steps[d] < bestSteps) {
        best = d;
        bestSteps = steps[d];
      }
    }
    if (best >= 0) return LETTERS[best];
  }
  for (let k = 0; k < 4; k++) {
    // an enemy in line: attack, or turn to it
    const d = (pd[id] + k) % 4;
    for (let j = 0; j < PLAYERS; j++) {
      if (j === id || pr[j] < 0 || !onBoard(pr[j], pc[j])) continue;
      const qr = Math.floor(pr[j] / SIDE);
      const qc = Math.floor(pc[j] / SIDE);
      if (blk[qr][qc] !== 0) continue;
      const n = (qr - br) * DR[d] + (qc - bc) * DC[d];
      const inLine = (DR[d] !== 0 && qc === bc) || (DC[d] !== 0 && qr === br);
      if (!inLine || n < 1 || n > 3) continue;
      if (k === 0) return "A";
      if (safe(d) || !legal(d)) return LETTERS[d];
    }
  }
  const want = []; // toward the centre
  if (r < SIZE / 2 - 1) want.push(2);
  else if (r > SIZE / 2) want.push(0);
  if (c < SIZE / 2 - 1) want.push(1);
  else if (c > SIZE / 2) want.push(3);
  for (let k = 0; k < want.length; k++) {
    const d = want[(k + Math.floor(turn / PLAYERS)) % want.length];
    if (safe(d)) return LETTERS[d];
  }
  return "N";
}

// s as an integer, 0 when it is not one.
function atoi(s) {
  s = s.trim();
  return /^[+-]?[0-9]+$/.test(s) ? parseInt(s, 10) : 0;
}

// One line without surrounding spaces; null at end of file.
async function readLine() {
  const s = await nextLine();
  return s === null ? null : s.trim();
}

function fields(s) {
  return s.split(/\s+/).filter((f) => f !== "");
}

async function main() {
  process.stdout.write("READY\n");
  for (;;) {
    let line = await readLine();
    if (line === null) return;
    id = atoi(line);
    if ((line = await readLine()) === null) return;
    turn = atoi(line);
    for (let r = 0; r < BLOCKS; r++) {
      if ((line = await readLine()) === null) return;
      fields(line)
        .slice(0, BLOCKS)
        .forEach((f, c) => {
          blk[r][c] = atoi(f);
        });
    }
    for (let p = 0; p < PLAYERS; p++) {
      if ((line = await readLine()) === null) return;
      const f = fields(line);
      pr[p] = -1;
      pc[p] = -1;
      pd[p] = 0;
      ps[p] = 0;
      if (f.length === 4) {
        pr[p] = atoi(f[0]);
        pc[p] = atoi(f[1]);
        ps[p] = atoi(f[3]);
        pd[p] = Math.max(LETTERS.indexOf(f[2]), 0);
      }
    }
    if ((await readLine()) === null) return; // EOD
    if (id < 0 || id >= PLAYERS) id = 0;
    // A dot on its square, a note once fallen (drawn by the viewer: docs/viewer.md, Drawing on the board).
    if (pr[id] >= 0) process.stderr.write(`@judge dot ${pc[id]} ${pr[id]} layer=sample\n`);
    else process.stderr.write("@judge note layer=sample fallen\n");
    process.stdout.write(decide() + "\n");
  }
}

main()
  .catch((e) => {
    process.stderr.write(String((e && e.stack) || e) + "\n");
    process.exitCode = 1;
  })
  .finally(stop);
