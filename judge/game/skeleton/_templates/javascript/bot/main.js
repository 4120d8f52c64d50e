// A sample bot of {{.Title}}: it answers 7 every turn.
const readline = require("readline");
readline.createInterface({ input: process.stdin, terminal: false }).on("line", () => {
  process.stdout.write("7\n");
});
