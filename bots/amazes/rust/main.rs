// Amazes sample bot (Rust): a right-hand wall follower.
// Each turn it reads the four corridor lines (ahead, right, behind, left) and the
// squared distance, then takes the first open direction of right, ahead, left,
// behind (one turn in eight, chosen by a fixed-seed generator, it picks a random
// open side or ahead instead, so it cannot circle an island forever). While the
// step lands in a corridor it has just seen, it keeps following the right-hand
// rule along that corridor, so one line may hold several steps (never more than
// 25). It exits on "Quit", at end of input, and after its 150th turn.
use std::io::{self, BufRead, Write};

/// A small fixed-seed linear congruential generator.
struct Rng {
    state: u64,
}

impl Rng {
    /// A number in 0..n-1.
    fn next(&mut self, n: usize) -> usize {
        self.state = (self.state.wrapping_mul(1103515245).wrapping_add(12345)) & 0x7FFF_FFFF;
        ((self.state >> 16) % n as u64) as usize
    }
}

/// Reads one line without the trailing "\r" and surrounding spaces; None at end of file
/// (or on a read error).
fn read_line(input: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    match input.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            let is_space = |c: &u8| matches!(*c, b' ' | b'\t' | b'\r' | b'\n');
            let start = buf.iter().position(|c| !is_space(c)).unwrap_or(buf.len());
            let end = buf.iter().rposition(|c| !is_space(c)).map_or(start, |e| e + 1);
            Some(buf[start..end].to_vec())
        }
    }
}

fn main() {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut rng = Rng { state: 20100101 };
    let move_char = [b'F', b'R', b'T', b'L']; // ahead, right, behind, left

    for _turn in 1..=150 {
        let mut line = match read_line(&mut input) {
            Some(l) => l,
            None => return,
        };
        if line == b"Quit" {
            return;
        }
        if line == b"Start" {
            line = match read_line(&mut input) {
                Some(l) => l,
                None => return,
            };
            if line == b"Quit" {
                return;
            }
        }
        let mut corridor: [Vec<u8>; 4] = [line, Vec::new(), Vec::new(), Vec::new()];
        for c in corridor.iter_mut().skip(1) {
            match read_line(&mut input) {
                Some(l) => *c = l,
                None => return,
            }
        }
        if read_line(&mut input).is_none() {
            return; // squared distance: not used
        }
        let mut open = [false; 4];
        for d in 0..4 {
            if corridor[d].last() != Some(&b'W') {
                corridor[d].push(b'W');
            }
            open[d] = corridor[d][0] != b'W';
        }

        // First step: right-hand rule (right, ahead, left, behind), sometimes random.
        let order = [1, 0, 3, 2];
        let mut dir: Option<usize> = order.iter().copied().find(|&d| open[d]);
        if rng.next(8) == 0 {
            let choices: Vec<usize> = order[..3].iter().copied().filter(|&d| open[d]).collect();
            if !choices.is_empty() {
                dir = Some(choices[rng.next(choices.len())]);
            }
        }
        let mut answer: Vec<u8> = Vec::new();
        match dir {
            None => answer.push(b'T'), // no open side seen at all: just turn around
            Some(dir) => {
                answer.push(move_char[dir]);
                // Follow the corridor just entered while the next step is known.
                let c = &corridor[dir];
                let mut i = 0;
                while answer.len() < 25 {
                    let here = c[i];
                    let right = here == b'R' || here == b'B';
                    let left = here == b'L' || here == b'B';
                    let ahead = i + 1 < c.len() && c[i + 1] != b'W';
                    if right {
                        answer.push(b'R');
                        break;
                    }
                    if ahead {
                        answer.push(b'F');
                        i += 1;
                        continue;
                    }
                    if left {
                        answer.push(b'L');
                    }
                    break; // a turn leaves the known corridor, or a dead end
                }
            }
        }
        // A dot on its start square (drawn by the viewer: docs/viewer.md, Drawing on the board).
        eprintln!("@judge dot 0 0 layer=sample");
        answer.push(b'\n');
        if out.write_all(&answer).and_then(|_| out.flush()).is_err() {
            return;
        }
    }
}
