// Red-team bot in JavaScript for the script game: each line is a command, and each command
// answers one line. "echo X" answers itself; "alloc N" touches N MiB; "threads N" starts N
// worker threads; "spawn" runs another program (child_process); "write P" creates a file;
// "net" connects out; "env" lists the environment's names.
"use strict";
const fs = require("fs");
const kept = [];
const workers = [];

function say(s) {
  fs.writeSync(1, s + "\n");
}

function handle(line) {
  const sp = line.indexOf(" ");
  const cmd = sp < 0 ? line : line.slice(0, sp);
  const arg = sp < 0 ? "" : line.slice(sp + 1);
  switch (cmd) {
    case "echo":
      say(line);
      break;
    case "alloc": {
      const n = parseInt(arg, 10);
      for (let i = 0; i < n; i++) kept.push(Buffer.alloc(1 << 20, 1));
      say("allocated " + n);
      break;
    }
    case "threads": {
      const { Worker } = require("worker_threads");
      const n = parseInt(arg, 10);
      let started = 0, why = "";
      try {
        for (; started < n; started++) {
          const w = new Worker("setInterval(() => {}, 1e9)", { eval: true });
          w.on("error", () => {});
          workers.push(w);
        }
      } catch (e) {
        why = " " + e;
      }
      say("threads " + started + why);
      break;
    }
    case "spawn":
      try {
        const r = require("child_process").spawnSync("/usr/bin/node", ["-e", "0"]);
        say("spawn " + (r.error ? r.error : r.status));
      } catch (e) {
        say("spawn " + e);
      }
      break;
    case "write":
      try {
        fs.closeSync(fs.openSync(arg, "w"));
        say("write " + arg + " succeeded");
      } catch (e) {
        say("write " + e.code);
      }
      break;
    case "net": {
      const c = require("net").connect(53, "1.1.1.1");
      c.on("error", (e) => say("net " + e.code));
      c.on("connect", () => { say("net connected"); c.destroy(); });
      break;
    }
    case "env":
      say("env " + Object.keys(process.env).sort().join(","));
      break;
    default:
      say("unknown " + cmd);
  }
}

let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const l = buf.slice(0, i);
    buf = buf.slice(i + 1);
    handle(l);
  }
});
process.stdin.on("end", () => process.exit(0));
