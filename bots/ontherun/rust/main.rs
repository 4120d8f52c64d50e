// On The Run sample bot (Rust). Reads the map from connect.txt, then plays the
// role named on its first input line.
// Fugitive: starts on the city farthest (fewest connections of any type) from
// the nearest detective; each turn takes the connection whose city is farthest
// from the detectives, never a detective's city unless every move is one.
// Detectives: start on the four cities with the most connections; they keep
// the set of cities where the fugitive can be (its announced city, widened
// each turn along connections of the type it used) and each detective steps to
// the neighbour nearest to that set, the four new cities made distinct by a
// small backtracking search. Exits on "Quit", at end of input, and after its
// 50th move. Deterministic.
use std::io::{self, BufRead, Write};

/// One connection of a city: its type letter and the city at the other end.
#[derive(Clone, Copy)]
struct Link {
    typ: u8,
    to: usize,
}

/// The map: adj[c] are the connections of city c (1..n).
struct Map {
    n: usize,
    adj: Vec<Vec<Link>>,
}

/// Standard input and output, with the reading rules of this bot.
struct Io {
    input: io::StdinLock<'static>,
    out: io::StdoutLock<'static>,
}

impl Io {
    /// One trimmed line; exits (code 0) at end of file or on "Quit".
    fn read_line_or_exit(&mut self) -> String {
        let mut buf = Vec::new();
        match self.input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => std::process::exit(0),
            Ok(_) => {}
        }
        let s = String::from_utf8_lossy(&buf).trim().to_string();
        if s == "Quit" {
            std::process::exit(0);
        }
        s
    }

    /// Writes the lines of one answer and flushes them; exits if the output is gone.
    fn answer(&mut self, text: &str) {
        if self.out.write_all(text.as_bytes()).and_then(|_| self.out.flush()).is_err() {
            std::process::exit(0);
        }
    }
}

/// A dot on city c, one an answer (drawn by the viewer: docs/viewer.md, Drawing on the board).
fn mark_city(c: usize) {
    eprintln!("@judge dot {} 0 layer=sample", c);
}

/// The integers of s in order (any non-digit separates them).
fn numbers(s: &str) -> Vec<i64> {
    let mut v = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let mut x: i64 = 0;
            while i < b.len() && b[i].is_ascii_digit() {
                x = x.saturating_mul(10).saturating_add((b[i] - b'0') as i64);
                i += 1;
            }
            v.push(x);
        } else {
            i += 1;
        }
    }
    v
}

fn read_map() -> Map {
    let data = std::fs::read("connect.txt").unwrap_or_default();
    let text = String::from_utf8_lossy(&data);
    let mut lines = text.split('\n');
    let mut n = 0usize;
    for line in lines.by_ref() {
        if let Some(&first) = numbers(line).first() {
            n = first.clamp(0, 100_000) as usize;
            break;
        }
    }
    let mut adj: Vec<Vec<Link>> = vec![Vec::new(); n + 1];
    for line in lines {
        let line = line.trim();
        if line == "END" {
            break;
        }
        let v = numbers(line);
        if line.is_empty() || v.len() < 2 {
            continue;
        }
        let (a, b) = (v[0], v[1]);
        if a < 1 || a > n as i64 || b < 1 || b > n as i64 || a == b {
            continue;
        }
        let (a, b) = (a as usize, b as usize);
        let typ = line.as_bytes()[0];
        adj[a].push(Link { typ, to: b });
        adj[b].push(Link { typ, to: a });
    }
    Map { n, adj }
}

impl Map {
    /// Breadth-first distances (connections of any type) from the cities marked in src.
    fn distances(&self, src: &[bool]) -> Vec<i32> {
        let mut dist = vec![1 << 20; self.n + 1];
        let mut queue = Vec::new();
        for c in 1..=self.n {
            if src[c] {
                dist[c] = 0;
                queue.push(c);
            }
        }
        let mut q = 0;
        while q < queue.len() {
            let c = queue[q];
            for l in &self.adj[c] {
                if dist[l.to] > dist[c] + 1 {
                    dist[l.to] = dist[c] + 1;
                    queue.push(l.to);
                }
            }
            q += 1;
        }
        dist
    }

    /// Marks the cities (1..n) where a detective stands.
    fn detective_map(&self, det: &[usize; 4]) -> Vec<bool> {
        let mut m = vec![false; self.n + 1];
        for &d in det {
            if d >= 1 && d <= self.n {
                m[d] = true;
            }
        }
        m
    }
}

/// Reads the four detectives' cities (0 for a line without a number).
fn read_four(io: &mut Io) -> [usize; 4] {
    let mut det = [0usize; 4];
    for d in det.iter_mut() {
        if let Some(&x) = numbers(&io.read_line_or_exit()).first() {
            *d = usize::try_from(x).unwrap_or(0);
        }
    }
    det
}

fn play_fugitive(io: &mut Io, map: &Map) {
    let mut det = read_four(io);
    let is_det = map.detective_map(&det);
    let dist = map.distances(&is_det);
    let mut cur = 0usize;
    for c in 1..=map.n {
        if !is_det[c] && (cur == 0 || dist[c] > dist[cur]) {
            cur = c;
        }
    }
    mark_city(cur);
    io.answer(&format!("{}\n", cur));

    for turn in 1..=50 {
        let is_det = map.detective_map(&det);
        let dist = map.distances(&is_det);
        let moves = &map.adj[cur];
        let mut best: Option<usize> = None;
        for (k, l) in moves.iter().enumerate() {
            if is_det[l.to] {
                continue;
            }
            if best.map_or(true, |b| dist[l.to] > dist[moves[b].to]) {
                best = Some(k);
            }
        }
        // Every move ends on a detective: caught anyway.
        let mv = match best.or(if moves.is_empty() { None } else { Some(0) }) {
            Some(k) => moves[k],
            None => return, // no map: nothing sensible to answer
        };
        cur = mv.to;
        mark_city(cur);
        io.answer(&format!("{} {}\n", mv.typ as char, cur));
        if turn == 50 {
            break;
        }
        det = read_four(io);
    }
}

/// Gives detective i (and the following ones) a new city, trying the neighbours
/// in the order of choices[i]; false when no distinct assignment exists.
fn assign(i: usize, choices: &[Vec<usize>; 4], target: &mut [usize; 4], used: &mut [bool]) -> bool {
    if i == 4 {
        return true;
    }
    for &c in &choices[i] {
        if used[c] {
            continue;
        }
        used[c] = true;
        target[i] = c;
        if assign(i + 1, choices, target, used) {
            return true;
        }
        used[c] = false;
    }
    false
}

fn play_detectives(io: &mut Io, map: &Map) {
    let n = map.n;
    // Start on the four cities with the most connections (lowest number on ties).
    let mut det = [0usize; 4];
    let mut taken = vec![false; n + 1];
    let mut start = String::new();
    for d in det.iter_mut() {
        let mut best = 0usize;
        for c in 1..=n {
            if !taken[c] && (best == 0 || map.adj[c].len() > map.adj[best].len()) {
                best = c;
            }
        }
        taken[best] = true;
        *d = best;
        start.push_str(&format!("{}\n", best));
    }
    mark_city(det[0]);
    io.answer(&start);

    let mut cand = vec![false; n + 1]; // where the fugitive may be
    if let Some(&x) = numbers(&io.read_line_or_exit()).first() {
        if x >= 1 && x <= n as i64 {
            cand[x as usize] = true;
        }
    }

    for _turn in 1..=50 {
        let line = io.read_line_or_exit();
        let typ = line.as_bytes().first().copied().unwrap_or(b'C');
        let v = numbers(&line);
        let is_det = map.detective_map(&det);
        let mut next = vec![false; n + 1];
        let mut any = false;
        match v.first() {
            Some(&x) if x >= 1 && x <= n as i64 => {
                // announcement turn
                next[x as usize] = true;
                any = true;
            }
            _ => {
                for c in 1..=n {
                    if !cand[c] {
                        continue;
                    }
                    for l in &map.adj[c] {
                        if l.typ == typ && !is_det[l.to] {
                            next[l.to] = true;
                            any = true;
                        }
                    }
                }
            }
        }
        if !any {
            // lost track: the fugitive may be anywhere
            for c in 1..=n {
                next[c] = !is_det[c];
            }
        }
        cand = next;

        // Each detective prefers the neighbours nearest to the possible cities.
        let dist = map.distances(&cand);
        let mut choices: [Vec<usize>; 4] = Default::default();
        for i in 0..4 {
            if det[i] <= n {
                choices[i] = map.adj[det[i]].iter().map(|l| l.to).collect();
            }
            choices[i].sort_by_key(|&c| dist[c]); // stable, as the other samples' sorts
        }
        let mut target = [0usize; 4];
        if !assign(0, &choices, &mut target, &mut vec![false; n + 1]) {
            for i in 0..4 {
                target[i] = det[i];
                if det[i] <= n {
                    if let Some(l) = map.adj[det[i]].first() {
                        target[i] = l.to;
                    }
                }
            }
        }
        let mut answer = String::new();
        for i in 0..4 {
            det[i] = target[i];
            if det[i] <= n {
                cand[det[i]] = false;
            }
            answer.push_str(&format!("{}\n", det[i]));
        }
        mark_city(det[0]);
        io.answer(&answer);
    }
}

fn main() {
    let map = read_map();
    let mut io = Io { input: io::stdin().lock(), out: io::stdout().lock() };
    if io.read_line_or_exit() == "Fugitive" {
        play_fugitive(&mut io, &map);
    } else {
        play_detectives(&mut io, &map);
    }
}
