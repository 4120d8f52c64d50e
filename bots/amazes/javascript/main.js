// Amazes sample bot (JavaScript): a right-hand wall follower.
// Each turn it reads the four corridor lines (ahead, right, behind, left) and the
// squared distance, then takes the first open direction of right, ahead, left,
// behind (one turn in eight, chosen by a fixed-seed generator, it picks a random
// open side or ahead instead, so it cannot circle an island forever). While the
// step lands in a corridor it has just seen, it keeps following the right-hand
// rule along that corridor, so one line may hold several steps (never more than
// 25). It exits on "Quit", at end of input, and after its 150th turn.
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

// One line without the trailing "\r" and surrounding spaces; null at end of file.
async function readLine() {
  const s = await nextLine();
  return s === null ? null : s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");
}

// ---- The bot ---------------------------------------------------------------------------

let rngState = 20100101;

// A small fixed-seed linear congruential generator: a number in 0..n-1. Math.imul keeps the
// low 32 bits of the product exactly (a plain * would lose them beyond 2^53); the mask keeps
// 31, as the other languages' versions do.
function nextRandom(n) {
  rngState = (Math.imul(rngState, 1103515245) + 12345) & 0x7fffffff;
  return (rngState >>> 16) % n;
}

async function main() {
  const moveChar = "FRTL"; // ahead, right, behind, left
  for (let turn = 1; turn <= 150; turn++) {
    let line = await readLine();
    if (line === null || line === "Quit") return;
    if (line === "Start") {
      line = await readLine();
      if (line === null || line === "Quit") return;
    }
    const corridor = [line];
    for (let d = 1; d < 4; d++) {
      line = await readLine();
      if (line === null) return;
      corridor.push(line);
    }
    if ((await readLine()) === null) return; // squared distance: not used
    const open = [];
    for (let d = 0; d < 4; d++) {
      if (!corridor[d].endsWith("W")) corridor[d] += "W";
      open.push(corridor[d][0] !== "W");
    }

    // First step: right-hand rule (right, ahead, left, behind), sometimes random.
    const order = [1, 0, 3, 2];
    let dir = -1;
    for (let k = 0; k < 4 && dir < 0; k++) {
      if (open[order[k]]) dir = order[k];
    }
    if (nextRandom(8) === 0) {
      const choices = [];
      for (let k = 0; k < 3; k++) {
        if (open[order[k]]) choices.push(order[k]);
      }
      if (choices.length > 0) dir = choices[nextRandom(choices.length)];
    }
    let answer;
    if (dir < 0) {
      answer = "T"; // no open side seen at all: just turn around
    } else {
      answer = moveChar[dir];
      // Follow the corridor just entered while the next step is known.
      const c = corridor[dir];
      let i = 0;
      while (answer.length < 25) {
        const here = c[i];
        const right = here === "R" || here === "B";
        const left = here === "L" || here === "B";
        const ahead = i + 1 < c.length && c[i + 1] !== "W";
        if (right) {
          answer += "R";
          break;
        }
        if (ahead) {
          answer += "F";
          i++;
          continue;
        }
        if (left) answer += "L";
        break; // a turn leaves the known corridor, or a dead end
      }
    }
    // A dot on its start square (drawn by the viewer: docs/viewer.md, Drawing on the board).
    process.stderr.write("@judge dot 0 0 layer=sample\n");
    process.stdout.write(answer + "\n");
  }
}

main()
  .catch((e) => {
    process.stderr.write(String((e && e.stack) || e) + "\n");
    process.exitCode = 1;
  })
  .finally(stop);
