// Hello bot: answers every line with the same line.
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => break,
        };
        if writeln!(out, "{}", line).and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}
