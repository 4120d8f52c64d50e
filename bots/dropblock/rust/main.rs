// Drop the Block sample bot (Rust). Prints READY, then answers every turn's input
// (id, T, 6 block rows, 4 player lines "R C D S", EOD) with one action:
//   - fallen, or waiting after an attack (S > 0): N;
//   - standing on a block that is about to fall: the quickest step off it onto a
//     standing block;
//   - an enemy on a standing block in line within 3 blocks: A when facing it,
//     otherwise a move toward it (which turns it; it steps only onto a standing block);
//   - otherwise a step toward the centre onto a standing block (never onto a
//     falling or fallen one), or N.
//
// Deterministic. Exits at end of input.
use std::io::{self, BufRead, Write};

const SIZE: i64 = 18;
const SIDE: i64 = 3;
const BLOCKS: usize = 6;
const PLAYERS: usize = 4;
const LETTERS: [u8; 4] = [b'U', b'R', b'D', b'L'];
const DR: [i64; 4] = [-1, 0, 1, 0];
const DC: [i64; 4] = [0, 1, 0, -1];

/// What one turn's input tells: the block counters and the players (row -1 when fallen).
struct State {
    blk: [[i64; BLOCKS]; BLOCKS],
    pr: [i64; PLAYERS],
    pc: [i64; PLAYERS],
    pd: [usize; PLAYERS],
    ps: [i64; PLAYERS],
    id: usize,
    turn: i64,
}

impl State {
    fn block_at(&self, r: i64, c: i64) -> i64 {
        self.blk[(r / SIDE) as usize][(c / SIDE) as usize]
    }

    /// The move would step (on the board, not onto a fallen block, more than 3 from everyone).
    fn legal(&self, d: usize) -> bool {
        let (r, c) = (self.pr[self.id] + DR[d], self.pc[self.id] + DC[d]);
        if r < 0 || r >= SIZE || c < 0 || c >= SIZE || self.block_at(r, c) < 0 {
            return false;
        }
        (0..PLAYERS).all(|j| j == self.id || self.pr[j] < 0 || (r - self.pr[j]).abs() + (c - self.pc[j]).abs() > 3)
    }

    /// The move would step onto a standing block.
    fn safe(&self, d: usize) -> bool {
        self.legal(d) && self.block_at(self.pr[self.id] + DR[d], self.pc[self.id] + DC[d]) == 0
    }

    fn decide(&self) -> u8 {
        let (r, c) = (self.pr[self.id], self.pc[self.id]);
        if r < 0 || self.ps[self.id] > 0 {
            return b'N';
        }
        let (br, bc) = (r / SIDE, c / SIDE);
        if self.blk[br as usize][bc as usize] > 0 {
            // get off a falling block
            let steps = [r % SIDE + 1, SIDE - c % SIDE, SIDE - r % SIDE, c % SIDE + 1];
            let mut best: Option<usize> = None;
            for d in 0..4 {
                let (nr, nc) = (br + DR[d], bc + DC[d]);
                if !self.legal(d) || nr < 0 || nr >= BLOCKS as i64 || nc < 0 || nc >= BLOCKS as i64 {
                    continue;
                }
                if self.blk[nr as usize][nc as usize] != 0 {
                    continue;
                }
                if best.map_or(true, |b| steps[d] < steps[b]) {
                    best = Some(d);
                }
            }
            if let Some(d) = best {
                return LETTERS[d];
            }
        }
        for k in 0..4 {
            // an enemy in line: attack, or turn to it
            let d = (self.pd[self.id] + k) % 4;
            for j in 0..PLAYERS {
                if j == self.id || self.pr[j] < 0 {
                    continue;
                }
                let (qr, qc) = (self.pr[j] / SIDE, self.pc[j] / SIDE);
                if self.blk[qr as usize][qc as usize] != 0 {
                    continue;
                }
                let n = (qr - br) * DR[d] + (qc - bc) * DC[d];
                let in_line = (DR[d] != 0 && qc == bc) || (DC[d] != 0 && qr == br);
                if !in_line || !(1..=3).contains(&n) {
                    continue;
                }
                if k == 0 {
                    return b'A';
                }
                if self.safe(d) || !self.legal(d) {
                    return LETTERS[d];
                }
            }
        }
        let mut want: Vec<usize> = Vec::new(); // toward the centre
        if r < SIZE / 2 - 1 {
            want.push(2);
        } else if r > SIZE / 2 {
            want.push(0);
        }
        if c < SIZE / 2 - 1 {
            want.push(1);
        } else if c > SIZE / 2 {
            want.push(3);
        }
        for k in 0..want.len() {
            let d = want[(k as i64 + self.turn / PLAYERS as i64).rem_euclid(want.len() as i64) as usize];
            if self.safe(d) {
                return LETTERS[d];
            }
        }
        b'N'
    }
}

/// A number, 0 when it is none (as Go's strconv.Atoi with its error ignored).
fn atoi(s: &str) -> i64 {
    s.trim().parse().unwrap_or(0)
}

/// One line without its end and surrounding spaces; None at end of input.
fn next_line(input: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    match input.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(&buf).trim().to_string()),
    }
}

/// Reads one turn's input; None at end of input.
fn read_state(input: &mut impl BufRead, s: &mut State) -> Option<()> {
    let id = atoi(&next_line(input)?);
    s.turn = atoi(&next_line(input)?);
    for r in 0..BLOCKS {
        let line = next_line(input)?;
        for (c, f) in line.split_whitespace().enumerate().take(BLOCKS) {
            s.blk[r][c] = atoi(f);
        }
    }
    for p in 0..PLAYERS {
        let line = next_line(input)?;
        let f: Vec<&str> = line.split_whitespace().collect();
        s.pr[p] = -1;
        s.pc[p] = -1;
        s.pd[p] = 0;
        s.ps[p] = 0;
        if f.len() == 4 {
            let (r, c) = (atoi(f[0]), atoi(f[1]));
            if (0..SIZE).contains(&r) && (0..SIZE).contains(&c) {
                s.pr[p] = r;
                s.pc[p] = c;
            }
            s.ps[p] = atoi(f[3]);
            s.pd[p] = LETTERS.iter().position(|&l| f[2].as_bytes() == [l]).unwrap_or(0);
        }
    }
    next_line(input)?; // EOD
    s.id = if (0..PLAYERS as i64).contains(&id) { id as usize } else { 0 };
    Some(())
}

fn main() {
    let mut input = io::stdin().lock();
    let mut out = io::stdout().lock();
    if writeln!(out, "READY").and_then(|_| out.flush()).is_err() {
        return;
    }
    let mut s = State {
        blk: [[0; BLOCKS]; BLOCKS],
        pr: [-1; PLAYERS],
        pc: [-1; PLAYERS],
        pd: [0; PLAYERS],
        ps: [0; PLAYERS],
        id: 0,
        turn: 0,
    };
    while read_state(&mut input, &mut s).is_some() {
        let action = s.decide();
        // A dot on its square, a note once fallen (drawn by the viewer: docs/viewer.md, Drawing on the board).
        if s.pr[s.id] >= 0 {
            eprintln!("@judge dot {} {} layer=sample", s.pc[s.id], s.pr[s.id]);
        } else {
            eprintln!("@judge note layer=sample fallen");
        }
        if writeln!(out, "{}", action as char).and_then(|_| out.flush()).is_err() {
            return;
        }
    }
}
