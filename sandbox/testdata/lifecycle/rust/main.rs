// Test bot for the judge's bot-lifecycle tests (Rust version).
//
// Before reading stdin it runs each line of ./start.txt, if that file exists, as a command
// ("burn 500" then "echo READY", say). Then it runs every stdin line as a command and exits
// with status 0 at end of input. Commands:
//   echo ...   print the whole line back        exit N     exit with status N
//   burn MS    burn MS ms of CPU, say "burned"  sleep MS   sleep MS ms, say "slept"
//   signal N   send signal N to itself (its default action restored first), then say "alive"
//   close      close stdout, then spin forever  hang       block forever
//   other      say "unknown"
// Answers are flushed at once; start.txt commands answer only "echo".
use std::io::{self, BufRead, Write};
use std::time::Duration;

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, t: *mut Timespec) -> i32;
    fn kill(pid: i32, sig: i32) -> i32;
    fn signal(sig: i32, handler: usize) -> usize;
    fn getpid() -> i32;
    fn close(fd: i32) -> i32;
}

fn cpu_ms() -> f64 {
    let mut t = Timespec { sec: 0, nsec: 0 };
    unsafe { clock_gettime(2, &mut t) }; // CLOCK_PROCESS_CPUTIME_ID
    t.sec as f64 * 1e3 + t.nsec as f64 / 1e6
}

fn say(s: &str) {
    let mut out = io::stdout();
    let _ = writeln!(out, "{}", s);
    let _ = out.flush();
}

fn run(line: &str, from_stdin: bool) {
    let line = line.trim_end_matches('\r');
    let f: Vec<&str> = line.split_whitespace().collect();
    let cmd = f.first().copied().unwrap_or("");
    let n: i64 = f.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    match cmd {
        "echo" => say(line),
        "exit" => std::process::exit(n as i32),
        "burn" => {
            let end = cpu_ms() + n as f64;
            while cpu_ms() < end {}
            if from_stdin {
                say("burned");
            }
        }
        "sleep" => {
            std::thread::sleep(Duration::from_millis(n as u64));
            if from_stdin {
                say("slept");
            }
        }
        "signal" => {
            // The default action first: Rust's runtime handles SIGSEGV (for stack overflows).
            unsafe {
                signal(n as i32, 0); // SIG_DFL
                kill(getpid(), n as i32);
            }
            std::thread::sleep(Duration::from_secs(1));
            say("alive");
        }
        "close" => {
            unsafe { close(1) };
            loop {
                std::hint::spin_loop();
            }
        }
        "hang" => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
        _ => say("unknown"),
    }
}

fn main() {
    if let Ok(s) = std::fs::read_to_string("start.txt") {
        for l in s.lines() {
            run(l, false);
        }
    }
    let stdin = io::stdin();
    for l in stdin.lock().lines() {
        match l {
            Ok(l) => run(&l, true),
            Err(_) => break,
        }
    }
}
