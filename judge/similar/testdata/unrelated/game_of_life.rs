// Conway's Game of Life on a wrapping (toroidal) board.
//
// Reads a pattern from stdin ('#' or 'O' alive, anything else dead), runs it for
// a number of generations (first argument, default 10) and prints every
// generation, stopping early when the board becomes still or repeats.

use std::collections::HashSet;
use std::io::{self, Read};

#[derive(Clone, PartialEq, Eq, Hash)]
struct Board {
    width: usize,
    height: usize,
    cells: Vec<bool>,
}

impl Board {
    fn parse(text: &str) -> Option<Board> {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let height = lines.len();
        let width = lines.iter().map(|l| l.chars().count()).max()?;
        let mut cells = vec![false; width * height];
        for (y, line) in lines.iter().enumerate() {
            for (x, ch) in line.chars().enumerate() {
                cells[y * width + x] = ch == '#' || ch == 'O';
            }
        }
        Some(Board { width, height, cells })
    }

    fn alive(&self, x: isize, y: isize) -> bool {
        let w = self.width as isize;
        let h = self.height as isize;
        let xx = ((x % w) + w) % w;
        let yy = ((y % h) + h) % h;
        self.cells[yy as usize * self.width + xx as usize]
    }

    fn neighbours(&self, x: usize, y: usize) -> usize {
        let mut n = 0;
        for dy in -1isize..=1 {
            for dx in -1isize..=1 {
                if (dx, dy) != (0, 0) && self.alive(x as isize + dx, y as isize + dy) {
                    n += 1;
                }
            }
        }
        n
    }

    fn step(&self) -> Board {
        let mut next = vec![false; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let n = self.neighbours(x, y);
                let was = self.cells[y * self.width + x];
                next[y * self.width + x] = matches!((was, n), (true, 2) | (_, 3));
            }
        }
        Board { width: self.width, height: self.height, cells: next }
    }

    fn population(&self) -> usize {
        self.cells.iter().filter(|&&c| c).count()
    }

    fn render(&self) -> String {
        let mut s = String::with_capacity((self.width + 1) * self.height);
        for row in self.cells.chunks(self.width) {
            s.extend(row.iter().map(|&c| if c { '#' } else { '.' }));
            s.push('\n');
        }
        s
    }
}

fn main() {
    let generations: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let mut input = String::new();
    if io::stdin().read_to_string(&mut input).is_err() {
        eprintln!("game_of_life: cannot read stdin");
        std::process::exit(1);
    }
    let mut board = match Board::parse(&input) {
        Some(b) => b,
        None => {
            eprintln!("game_of_life: empty pattern");
            std::process::exit(1);
        }
    };
    let mut seen = HashSet::new();
    for gen in 0..=generations {
        println!("generation {} (population {})", gen, board.population());
        print!("{}", board.render());
        if !seen.insert(board.clone()) {
            println!("the pattern repeats from here on");
            break;
        }
        let next = board.step();
        if next == board {
            println!("still life reached");
            break;
        }
        board = next;
    }
}
