// A sample bot of {{.Title}}: it answers 7 every turn.
use std::io::{self, BufRead, Write};

fn main() {
    let mut out = io::stdout();
    for _ in io::stdin().lock().lines() {
        writeln!(out, "7").unwrap();
        out.flush().unwrap();
    }
}
