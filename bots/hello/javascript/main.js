// Hello bot: answers every line with the same line, as soon as it has come.
let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    process.stdout.write(buf.slice(0, i + 1));
    buf = buf.slice(i + 1);
  }
});
process.stdin.on("end", () => {
  if (buf !== "") process.stdout.write(buf + "\n");
});
