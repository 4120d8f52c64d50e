// snake.rs - the SnakeCore helper library for Rust bots.
//
// The judge adds this file to every Rust submission for SnakeCore as `snake.rs` beside the
// bot's `main.rs` (replacing a submission's own `snake.rs`), so a bot declares the module and
// uses it:
//
//     mod snake;
//
//     fn main() {
//         let _ = snake::run("my bot", |a: &snake::AreaInfo| {
//             let _me = a.me();
//             snake::NONE
//         });
//     }
//
// run() answers getName with the name (cut to the 32 bytes the page allows, control
// characters made spaces) and each getAction with what the closure returns, flushing every
// answer, and returns Ok(()) at the end of the input or when the judge closes the output (an
// error only for a malformed request or another failure to write). A bot may also read the
// requests itself with read_request, or ignore this module altogether. Standard library only;
// Rust 1.63, edition 2021.
//
// Coordinates are x (column) and y (row), from 0 at the top left; UP is y-1.
#![allow(dead_code)]

use std::io::{self, BufRead, Write};

// The actions a bot may answer.
pub const UP: u8 = b'U';
pub const LEFT: u8 = b'L';
pub const DOWN: u8 = b'D';
pub const RIGHT: u8 = b'R';
/// Skip the move.
pub const NONE: u8 = b'N';
/// Spend an energy block for 10 moves of protection.
pub const PROTECT: u8 = b'A';

/// The four moving actions.
pub const MOVES: [u8; 4] = [UP, LEFT, DOWN, RIGHT];

// The characters of the field.
pub const WALL: u8 = b'W';
pub const REACTOR: u8 = b'R';
/// An ordinary block, free or in a body.
pub const BLOCK: u8 = b'b';
/// An energy block, free or in a body.
pub const ENERGY: u8 = b'e';
/// A python's head.
pub const HEAD: u8 = b'p';
pub const EMPTY: u8 = b'.';

/// A cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Point {
    pub fn new(x: i32, y: i32) -> Point {
        Point { x, y }
    }

    /// The cell next to this one in the direction of a move action (this one for any other).
    pub fn step(self, action: u8) -> Point {
        match action {
            UP => Point::new(self.x, self.y - 1),
            DOWN => Point::new(self.x, self.y + 1),
            LEFT => Point::new(self.x - 1, self.y),
            RIGHT => Point::new(self.x + 1, self.y),
            _ => self,
        }
    }

    /// The Manhattan distance to q.
    pub fn dist(self, q: Point) -> i32 {
        (self.x - q.x).abs() + (self.y - q.y).abs()
    }
}

/// A python: parts[0] is the head, the last part the tail; never empty.
#[derive(Clone, Debug, Default)]
pub struct Python {
    /// The number of the python's own moves its protection still lasts (0: not protected).
    pub protection: i32,
    /// The head and the body's blocks, from the head to the tail.
    pub parts: Vec<Point>,
}

impl Python {
    /// The length, head included.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// The head's cell.
    pub fn head(&self) -> Point {
        self.parts[0]
    }

    /// The last part's cell (the head's for a head alone).
    pub fn tail(&self) -> Point {
        self.parts[self.parts.len() - 1]
    }

    /// The body's blocks (all parts but the head).
    pub fn body(&self) -> &[Point] {
        &self.parts[1..]
    }
}

/// One getAction request: the field and the pythons.
#[derive(Clone, Debug, Default)]
pub struct AreaInfo {
    /// The side of the square field.
    pub size: i32,
    /// The field's rows, top first: rows[y][x] is the cell (x, y).
    pub rows: Vec<Vec<u8>>,
    /// All pythons: pythons[0] is the bot's own, the others follow in the order of the ids.
    pub pythons: Vec<Python>,
    /// The getAction requests read so far, 1 for the first (set by run).
    pub turn: i32,
    owner: Vec<i32>,
    index: Vec<i32>,
}

impl AreaInfo {
    /// The bot's own python.
    pub fn me(&self) -> &Python {
        &self.pythons[0]
    }

    /// The other pythons.
    pub fn others(&self) -> &[Python] {
        &self.pythons[1..]
    }

    /// Whether (x, y) is on the field.
    pub fn inside(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.size && y < self.size
    }

    /// The character of (x, y); off the field a WALL.
    pub fn cell(&self, x: i32, y: i32) -> u8 {
        if self.inside(x, y) {
            self.rows[y as usize][x as usize]
        } else {
            WALL
        }
    }

    /// cell for a Point.
    pub fn at(&self, p: Point) -> u8 {
        self.cell(p.x, p.y)
    }

    /// The index in pythons of the python with a part on (x, y), if any.
    pub fn owner(&self, x: i32, y: i32) -> Option<usize> {
        if !self.inside(x, y) {
            return None;
        }
        let o = self.owner[(y * self.size + x) as usize];
        if o < 0 {
            None
        } else {
            Some(o as usize)
        }
    }

    /// The index in its python's parts of the part on (x, y) (0 for a head), if any.
    pub fn part_index(&self, x: i32, y: i32) -> Option<usize> {
        if !self.inside(x, y) {
            return None;
        }
        let i = self.index[(y * self.size + x) as usize];
        if i < 0 {
            None
        } else {
            Some(i as usize)
        }
    }

    /// Whether (x, y) holds a block that belongs to no python.
    pub fn is_free_block(&self, x: i32, y: i32) -> bool {
        let c = self.cell(x, y);
        (c == BLOCK || c == ENERGY) && self.owner(x, y).is_none()
    }

    /// Whether (x, y) is an empty cell.
    pub fn is_empty(&self, x: i32, y: i32) -> bool {
        self.inside(x, y) && self.cell(x, y) == EMPTY
    }
}

/// A request of the judge.
pub enum Request {
    /// "getName": answer the bot's name.
    GetName,
    /// "getAction" with its area: answer one action.
    GetAction(AreaInfo),
}

fn malformed(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("snake: malformed request: {}", what))
}

/// Reads one line without its end ("\n" or "\r\n"); None at the end of the input. A last
/// line without its "\n" is a request the judge never finished: the end of the input too.
fn read_raw(r: &mut impl BufRead) -> io::Result<Option<Vec<u8>>> {
    let mut buf = Vec::new();
    if r.read_until(b'\n', &mut buf)? == 0 || buf.last() != Some(&b'\n') {
        return Ok(None);
    }
    while buf.last() == Some(&b'\n') || buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(buf))
}

/// Reads one line without its end and surrounding spaces; None at the end of the input.
fn read_line(r: &mut impl BufRead) -> io::Result<Option<String>> {
    Ok(read_raw(r)?.map(|b| String::from_utf8_lossy(&b).trim().to_string()))
}

/// An error of kind UnexpectedEof: the input ended inside a request.
fn ended() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "snake: the input ended inside a request")
}

/// Reads the next request. Unknown lines are skipped. Ok(None) at the end of the input; an
/// error of kind InvalidData for a malformed request, UnexpectedEof when the input ends
/// inside one.
pub fn read_request(r: &mut impl BufRead) -> io::Result<Option<Request>> {
    while let Some(line) = read_line(r)? {
        match line.as_str() {
            "getName" => return Ok(Some(Request::GetName)),
            "getAction" => return Ok(Some(Request::GetAction(read_area(r)?))),
            _ => {}
        }
    }
    Ok(None)
}

/// Reads the rest of a getAction request (after its first line). The number of python lines
/// is the number of heads on the field.
pub fn read_area(r: &mut impl BufRead) -> io::Result<AreaInfo> {
    let line = read_line(r)?.ok_or_else(ended)?;
    let n: i32 = match line.parse() {
        Ok(n) if n > 0 && n <= 1000 => n, // the game allows 10..100
        _ => return Err(malformed(format!("{:?} is not the field size", line))),
    };
    let cells = (n * n) as usize;
    let mut a = AreaInfo {
        size: n,
        rows: Vec::with_capacity(n as usize),
        owner: vec![-1; cells],
        index: vec![-1; cells],
        ..AreaInfo::default()
    };
    let mut heads = 0;
    for _ in 0..n {
        let mut row = read_raw(r)?.ok_or_else(ended)?;
        row.resize(n as usize, EMPTY);
        heads += row.iter().filter(|&&c| c == HEAD).count();
        a.rows.push(row);
    }
    for k in 0..heads {
        let line = read_line(r)?.ok_or_else(ended)?;
        let v: Vec<i32> = match line.split_whitespace().map(|f| f.parse()).collect() {
            Ok(v) => v,
            Err(_) => return Err(malformed(format!("python line {:?}", line))),
        };
        if v.len() < 2 || v[1] < 1 || v.len() != 2 + 2 * v[1] as usize {
            return Err(malformed(format!("python line {:?}", line)));
        }
        let mut p = Python { protection: v[0], parts: Vec::with_capacity(v[1] as usize) };
        for i in 0..v[1] as usize {
            let (x, y) = (v[2 + 2 * i], v[3 + 2 * i]);
            p.parts.push(Point::new(x, y));
            if a.inside(x, y) {
                a.owner[(y * n + x) as usize] = k as i32;
                a.index[(y * n + x) as usize] = i as i32;
            }
        }
        a.pythons.push(p);
    }
    if heads == 0 {
        return Err(malformed("no python on the field".to_string()));
    }
    Ok(a)
}

/// The name as the page allows it: at most 32 bytes (cut at a character boundary),
/// characters below 0x20 made spaces.
pub fn clean_name(name: &str) -> String {
    let mut end = name.len().min(32);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].chars().map(|c| if (c as u32) < 0x20 { ' ' } else { c }).collect()
}

/// Plays on standard input and output: answers getName with name and each getAction with
/// action's answer, flushing each answer. Returns Ok(()) at the end of the input (also when
/// it ends inside a request) or when the output is closed, or the error of a malformed
/// request (kind InvalidData) or of the output.
pub fn run<F: FnMut(&AreaInfo) -> u8>(name: &str, action: F) -> io::Result<()> {
    run_io(io::stdin().lock(), io::stdout().lock(), name, action)
}

/// run on other streams.
pub fn run_io<R: BufRead, W: Write, F: FnMut(&AreaInfo) -> u8>(
    mut input: R,
    mut output: W,
    name: &str,
    mut action: F,
) -> io::Result<()> {
    let mut turn = 0;
    loop {
        let request = match read_request(&mut input) {
            Ok(Some(request)) => request,
            Ok(None) => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
        };
        let written = match request {
            Request::GetName => writeln!(output, "{}", clean_name(name)),
            Request::GetAction(mut a) => {
                turn += 1;
                a.turn = turn;
                output.write_all(&[action(&a), b'\n'])
            }
        };
        match written.and_then(|_| output.flush()) {
            Ok(()) => {}
            // The judge closed the bot's output: the game is over.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(e),
        }
    }
}
