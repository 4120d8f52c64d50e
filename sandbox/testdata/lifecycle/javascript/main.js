// Test bot for the judge's bot-lifecycle tests (JavaScript version).
//
// Before reading stdin it runs each line of ./start.txt, if that file exists, as a command
// ("burn 500" then "echo READY", say). Then it runs every stdin line as a command and exits
// with status 0 at end of input. Commands:
//   echo ...   print the whole line back        exit N     exit with status N
//   burn MS    burn MS ms of CPU, say "burned"  sleep MS   sleep MS ms, say "slept"
//   signal N   send signal N to itself, then say "alive" if still running
//   close      close stdout, then spin forever  hang       block forever
//   other      say "unknown"
// Answers are written with fs.writeSync, so each is out before the next command runs (sleep
// and hang block the thread); start.txt commands answer only "echo".
"use strict";
const fs = require("fs");

function say(s) {
  fs.writeSync(1, s + "\n");
}

function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const pause = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms) {
  Atomics.wait(pause, 0, 0, ms);
}

function run(line, fromStdin) {
  line = line.replace(/\r$/, "");
  const f = line.trim().split(/\s+/);
  const cmd = f[0] || "";
  const n = parseInt(f[1], 10) || 0;
  switch (cmd) {
    case "echo":
      say(line);
      break;
    case "exit":
      process.exit(n);
      break;
    case "burn": {
      const end = cpuMs() + n;
      while (cpuMs() < end) {}
      if (fromStdin) say("burned");
      break;
    }
    case "sleep":
      sleepMs(n);
      if (fromStdin) say("slept");
      break;
    case "signal":
      try {
        process.kill(process.pid, n);
      } catch (e) {
        process.exit(128 + n);
      }
      sleepMs(1000);
      say("alive");
      break;
    case "close":
      fs.closeSync(1);
      for (;;) {}
    case "hang":
      for (;;) sleepMs(3600000);
    default:
      say("unknown");
  }
}

if (fs.existsSync("start.txt")) {
  for (const l of fs.readFileSync("start.txt", "utf8").split("\n")) if (l !== "") run(l, false);
}
let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const l = buf.slice(0, i);
    buf = buf.slice(i + 1);
    run(l, true);
  }
});
process.stdin.on("end", () => {
  if (buf !== "") run(buf, true);
  process.exit(0);
});
