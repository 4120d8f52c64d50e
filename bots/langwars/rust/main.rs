// Lang Wars sample bot (Rust): propagates the languages with the best attention
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
use std::io::{self, BufRead, Write};

/// Whitespace-separated words of the input, read a line at a time (so a word is
/// available as soon as its line is).
struct Words<R: BufRead> {
    input: R,
    line: Vec<String>,
    next: usize,
}

impl<R: BufRead> Words<R> {
    /// The next word; None at end of input.
    fn word(&mut self) -> Option<String> {
        while self.next >= self.line.len() {
            let mut buf = Vec::new();
            match self.input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            self.line = String::from_utf8_lossy(&buf).split_whitespace().map(String::from).collect();
            self.next = 0;
        }
        self.next += 1;
        Some(self.line[self.next - 1].clone())
    }

    /// The next word as an integer; None at end of input or on a non-number.
    fn number(&mut self) -> Option<i64> {
        self.word()?.parse().ok()
    }
}

/// Plays the whole game; None when the input ends (or is not understood).
fn play(words: &mut Words<impl BufRead>, out: &mut impl Write) -> Option<()> {
    writeln!(out, "READY").ok()?;
    out.flush().ok()?;
    let turns = words.number()?;
    let players = words.number()?;
    let langs = words.number()?;
    // The game has 4 players and 8 languages; anything absurd is not played.
    if !(2..=1000).contains(&players) || !(1..=1000).contains(&langs) {
        return None;
    }
    let (players, langs) = (players as usize, langs as usize);
    let mut attention = vec![0f64; langs];
    let mut holiday_total = vec![0i64; langs]; // all players' holiday propagations so far
    for a in attention.iter_mut() {
        *a = words.number()? as f64;
    }
    for _t in 1..=turns {
        words.number()?;
        let day = words.word()?;
        let mut revealed = vec![vec![0i64; players]; langs];
        for row in revealed.iter_mut() {
            for v in row.iter_mut() {
                *v = words.number()?;
            }
        }
        let mut real = vec![0i64; langs];
        for v in real.iter_mut() {
            *v = words.number()?;
        }
        let workday = day == "W";
        if workday {
            for total in holiday_total.iter_mut() {
                *total += words.number()?;
            }
        }
        let mut mine = vec![0f64; langs];
        let mut best = vec![0f64; langs];
        for l in 0..langs {
            // Holiday believers of the others: all holiday picks minus its own.
            let hidden = ((holiday_total[l] - (real[l] - revealed[l][0])) as f64).max(0.0);
            mine[l] = real[l] as f64;
            for j in 1..players {
                let other = revealed[l][j] as f64 + hidden / (players - 1) as f64;
                if other > best[l] {
                    best[l] = other;
                }
            }
        }
        let picks = if workday { 5 } else { 2 };
        let mut chosen: Vec<String> = Vec::with_capacity(picks);
        for _k in 0..picks {
            let (mut choice, mut top) = (0, -1.0);
            for l in 0..langs {
                let v = attention[l] / (1.0 + (best[l] - mine[l]).abs());
                if v > top {
                    top = v;
                    choice = l;
                }
            }
            mine[choice] += 1.0;
            chosen.push(choice.to_string());
        }
        // A note of its picks (listed by the viewer: docs/viewer.md, Drawing on the board).
        eprintln!("@judge note layer=sample picked {}", chosen.join(" "));
        writeln!(out, "{}", chosen.join(" ")).ok()?;
        out.flush().ok()?;
    }
    Some(())
}

fn main() {
    let mut words = Words { input: io::stdin().lock(), line: Vec::new(), next: 0 };
    let mut out = io::stdout().lock();
    let _ = play(&mut words, &mut out);
}
