// Red-team bot in Rust for the script game: each line is a command, and each command answers
// one line. "echo X" answers itself; "alloc N" touches N MiB; "threads N" starts N threads;
// "spawn" runs another program (std::process::Command); "write P" creates a file; "net"
// connects out; "env" lists the environment's names.
use std::io::{self, BufRead, Write};
use std::time::Duration;

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout();
    let mut kept: Vec<Vec<u8>> = Vec::new();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => break,
        };
        let (cmd, arg) = match line.split_once(' ') {
            Some((c, a)) => (c, a),
            None => (line.as_str(), ""),
        };
        let answer = match cmd {
            "echo" => line.clone(),
            "alloc" => {
                let n: usize = arg.parse().unwrap_or(0);
                for _ in 0..n {
                    kept.push(vec![1u8; 1 << 20]);
                }
                format!("allocated {}", n)
            }
            "threads" => {
                let n: usize = arg.parse().unwrap_or(0);
                let mut started = 0;
                let mut why = String::new();
                for _ in 0..n {
                    match std::thread::Builder::new().spawn(|| loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    }) {
                        Ok(_) => started += 1,
                        Err(e) => {
                            why = format!(" {}", e);
                            break;
                        }
                    }
                }
                format!("threads {}{}", started, why)
            }
            "spawn" => match std::process::Command::new("/bot/bot").status() {
                Ok(s) => format!("spawn {}", s),
                Err(e) => format!("spawn {}", e),
            },
            "write" => match std::fs::File::create(arg) {
                Ok(_) => format!("write {} succeeded", arg),
                Err(e) => format!("write {}", os_error(&e)),
            },
            "net" => match std::net::UdpSocket::bind("0.0.0.0:0").and_then(|s| s.connect("1.1.1.1:53")) {
                Ok(_) => "net connected".to_string(),
                Err(e) => format!("net {}", os_error(&e)),
            },
            "env" => {
                let mut names: Vec<String> = std::env::vars_os().map(|(k, _)| k.to_string_lossy().into_owned()).collect();
                names.sort();
                format!("env {}", names.join(","))
            }
            _ => format!("unknown {}", cmd),
        };
        if writeln!(out, "{}", answer).and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}

// os_error is the system's text for e, without Rust's "(os error N)".
fn os_error(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}
