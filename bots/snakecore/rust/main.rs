// SnakeCore sample bot (Rust), written with the judge's helper library (the module `snake`,
// snake.rs, which the judge adds to the submission).
// Each move: bite an adjacent unprotected body block of another python when that cuts off
// at least 2 blocks; deliver to an adjacent reactor once the body has 7 blocks; otherwise
// walk (breadth-first search over empty cells, free blocks and the own tail) toward the
// nearest free block, or toward a cell next to a reactor when the body is long enough or no
// free block is reachable. Deterministic; exits at the end of the input (snake::run).
mod snake;

use snake::{AreaInfo, Point};
use std::collections::VecDeque;

const DELIVER_AT: usize = 7;

fn main() {
    // An error is a malformed request (or a broken output): say so and stop.
    if let Err(e) = snake::run("sample-rust", action) {
        eprintln!("{}", e);
        std::process::exit(1);
    }
}

fn action(a: &AreaInfo) -> u8 {
    let me = a.me();
    let body = me.len() - 1;
    let h = me.head();
    // A dot on its head (drawn by the viewer: docs/viewer.md, Drawing on the board).
    eprintln!("@judge dot {} {} layer=sample", h.x, h.y);
    for &d in &snake::MOVES {
        let t = h.step(d);
        if let (Some(o), Some(i)) = (a.owner(t.x, t.y), a.part_index(t.x, t.y)) {
            let victim = &a.pythons[o];
            if o > 0 && i > 0 && victim.protection == 0 && i < victim.len() - 1 && victim.len() - i >= 2 {
                return d;
            }
        }
    }
    if body >= DELIVER_AT {
        if let Some(d) = next_reactor(a, h) {
            return d;
        }
    }
    let goal: fn(&AreaInfo, Point) -> bool = if body >= DELIVER_AT { next_to_reactor } else { free_block };
    if let Some(d) = toward(a, goal) {
        return d;
    }
    if body > 0 {
        if let Some(d) = next_reactor(a, h) {
            return d;
        }
        if let Some(d) = toward(a, next_to_reactor) {
            return d;
        }
    }
    snake::MOVES.iter().copied().find(|&d| passable(a, h.step(d))).unwrap_or(snake::NONE)
}

/// The move toward a reactor next to p, if any.
fn next_reactor(a: &AreaInfo, p: Point) -> Option<u8> {
    snake::MOVES.iter().copied().find(|&d| a.at(p.step(d)) == snake::REACTOR)
}

/// A cell the head may step on without a fight: empty, a free block, the own tail.
fn passable(a: &AreaInfo, p: Point) -> bool {
    if a.is_empty(p.x, p.y) || a.is_free_block(p.x, p.y) {
        return true;
    }
    let me = a.me();
    me.len() > 1 && p == me.tail()
}

fn free_block(a: &AreaInfo, p: Point) -> bool {
    a.is_free_block(p.x, p.y)
}

fn next_to_reactor(a: &AreaInfo, p: Point) -> bool {
    next_reactor(a, p).is_some()
}

/// The first move of a shortest path to a goal cell.
fn toward(a: &AreaInfo, goal: fn(&AreaInfo, Point) -> bool) -> Option<u8> {
    let n = a.size as usize;
    let at = |p: Point| p.y as usize * n + p.x as usize; // only for cells on the field
    let mut first = vec![0u8; n * n]; // the first move toward each cell reached, 0: not reached
    let mut queue = VecDeque::new();
    let h = a.me().head();
    for &d in &snake::MOVES {
        let t = h.step(d);
        if !passable(a, t) {
            continue;
        }
        if goal(a, t) {
            return Some(d);
        }
        if first[at(t)] == 0 {
            first[at(t)] = d;
            queue.push_back(t);
        }
    }
    while let Some(c) = queue.pop_front() {
        for &d in &snake::MOVES {
            let t = c.step(d);
            if t == h || !passable(a, t) || first[at(t)] != 0 {
                continue;
            }
            if goal(a, t) {
                return Some(first[at(c)]);
            }
            first[at(t)] = first[at(c)];
            queue.push_back(t);
        }
    }
    None
}
