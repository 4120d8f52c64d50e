// Lang Wars sample bot (JavaScript): propagates the languages with the best attention
// to competition ratio.
// It prints READY, reads the settings (turns, players, languages, attention
// degrees), then each turn reads the revealed believers, its own real
// believers and (on workdays) how often each language was propagated in the
// last holiday. It estimates every opponent's believers as the revealed ones
// plus an equal share of the holiday propagations that were not its own. Then,
// pick by pick (5 on a workday, 2 on a holiday), it takes the language with the
// highest attention / (1 + |best opponent's believers - its own|): languages
// it can just win or just keep, weighted by what they are worth (ties: the
// lowest language). It prints the picks on one line, and exits at end of input
// or after the last turn. Deterministic.
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

// Words: the whitespace-separated words of the input, taken line by line as they are needed
// (never waiting for more than the line that holds the word asked for).
let words = [];

// The next word; null at end of input.
async function token() {
  while (words.length === 0) {
    const line = await nextLine();
    if (line === null) return null;
    words = line.split(/\s+/).filter((w) => w !== "");
  }
  return words.shift();
}

// The next word as an integer; null at end of input or on a non-number.
async function number() {
  const s = await token();
  if (s === null || !/^[+-]?[0-9]+$/.test(s)) return null;
  return parseInt(s, 10);
}

// ---- The bot ---------------------------------------------------------------------------

async function main() {
  process.stdout.write("READY\n");
  const turns = await number();
  const players = await number();
  const langs = await number();
  if (turns === null || players === null || langs === null || players < 2 || langs < 1) return;
  const attention = [];
  const holidayTotal = new Array(langs).fill(0); // all players' holiday propagations so far
  for (let l = 0; l < langs; l++) {
    const a = await number();
    if (a === null) return;
    attention.push(a);
  }
  for (let t = 1; t <= turns; t++) {
    if ((await number()) === null) return; // the turn number
    const day = await token();
    if (day === null) return;
    const revealed = [];
    for (let l = 0; l < langs; l++) {
      const row = [];
      for (let j = 0; j < players; j++) {
        const v = await number();
        if (v === null) return;
        row.push(v);
      }
      revealed.push(row);
    }
    const real = [];
    for (let l = 0; l < langs; l++) {
      const v = await number();
      if (v === null) return;
      real.push(v);
    }
    const workday = day === "W";
    if (workday) {
      for (let l = 0; l < langs; l++) {
        const p = await number();
        if (p === null) return;
        holidayTotal[l] += p;
      }
    }
    const mine = new Array(langs).fill(0);
    const best = new Array(langs).fill(0);
    for (let l = 0; l < langs; l++) {
      // Holiday believers of the others: all holiday picks minus its own.
      let hidden = holidayTotal[l] - (real[l] - revealed[l][0]);
      if (hidden < 0) hidden = 0;
      mine[l] = real[l];
      for (let j = 1; j < players; j++) {
        const other = revealed[l][j] + hidden / (players - 1);
        if (other > best[l]) best[l] = other;
      }
    }
    const picks = workday ? 5 : 2;
    const chosen = [];
    for (let k = 0; k < picks; k++) {
      let choice = 0;
      let top = -1;
      for (let l = 0; l < langs; l++) {
        const v = attention[l] / (1 + Math.abs(best[l] - mine[l]));
        if (v > top) {
          top = v;
          choice = l;
        }
      }
      mine[choice]++;
      chosen.push(String(choice));
    }
    // A note of its picks (listed by the viewer: docs/viewer.md, Drawing on the board).
    process.stderr.write("@judge note layer=sample picked " + chosen.join(" ") + "\n");
    process.stdout.write(chosen.join(" ") + "\n");
  }
}

main()
  .catch((e) => {
    process.stderr.write(String((e && e.stack) || e) + "\n");
    process.exitCode = 1;
  })
  .finally(stop);
