// The referee of {{.Title}} (rules.md): the judge writes one line of JSON to its stdin, and it
// answers one line on its stdout, as docs/referee.md says. Its stderr is for you: the judge
// keeps the end of it when the referee fails.
"use strict";
const readline = require("readline");

class Match {
  constructor(start) {
    this.options = start.options; // every option, the defaults applied, as strings
    this.seed = BigInt(start.seed);
    this.n = start.players;
    this.turns = parseInt(this.options.turns, 10);
    this.turn = 1;
    this.asked = -1; // the player whose answer is awaited this turn
    this.scores = new Array(this.n).fill(0);
    this.out = new Array(this.n).fill(false);
    this.picks = new Map();
  }

  // Every random choice comes from the seed: the same seed and answers give the same match,
  // which is how the judge re-judges a replay.
  bonus() {
    return Number((this.seed % 9n + BigInt(this.turn)) % 9n) + 1;
  }

  view() {
    return { scores: this.scores, state: { turn: this.turn } };
  }

  // What comes next: the request to the next player of the turn, or the end.
  next() {
    for (;;) {
      let p = this.asked + 1;
      while (p < this.n && this.out[p]) p++;
      if (p < this.n) {
        this.asked = p;
        return { next: [{ player: p, turn: this.turn, send: `TURN ${this.turn}\n`, expect: 1, limit_us: 1000000 }] };
      }
      if (this.picks.size > 0) {
        const best = Math.max(...this.picks.values());
        for (const [q, v] of this.picks) {
          this.scores[q] += (v === best ? 1 : 0) + (v === this.bonus() ? 1 : 0);
        }
      }
      this.picks = new Map();
      this.turn++;
      this.asked = -1;
      if (this.turn > this.turns || this.out.every((o) => o)) {
        return { next: [], done: { scores: this.scores } };
      }
    }
  }

  // The verdict on a player's answer: null, or the rule it broke.
  reply(m) {
    const p = m.player;
    if (m.fault !== null) { // a timeout or a crash the judge saw: the player is out
      this.out[p] = true;
      return null;
    }
    const line = m.lines[0].replace(/^[ \t\r]+|[ \t\r]+$/g, "");
    if (!/^[1-9]$/.test(line)) {
      this.out[p] = true;
      return { kind: "illegal_move", detail: "not a number from 1 to 9" };
    }
    this.picks.set(p, parseInt(line, 10));
    return null;
  }
}

let match = null;
const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  const m = JSON.parse(line);
  let answer;
  if (m.type === "start") {
    match = new Match(m);
    answer = { type: "setup", options: match.options, memory: parseInt(match.options.memory, 10) * 1048576 };
  } else {
    answer = { type: "judged", fault: match.reply(m) };
  }
  Object.assign(answer, match.next());
  answer.view = match.view(); // the picture once the answer is judged
  process.stdout.write(JSON.stringify(answer) + "\n");
});
