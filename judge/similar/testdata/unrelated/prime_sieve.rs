//! prime_sieve: list, count or test primes with a sieve of Eratosthenes.
//!
//! Usage:
//!   prime_sieve list LIMIT        print every prime up to LIMIT
//!   prime_sieve count LIMIT       print how many primes there are up to LIMIT
//!   prime_sieve test N...         say whether each N is prime
//!   prime_sieve twins LIMIT       print twin prime pairs up to LIMIT

use std::env;
use std::process;

/// Returns a table where `table[i]` is true when `i` is prime.
fn sieve(limit: usize) -> Vec<bool> {
    let mut is_prime = vec![true; limit + 1];
    is_prime[0] = false;
    if limit >= 1 {
        is_prime[1] = false;
    }
    let mut p = 2;
    while p * p <= limit {
        if is_prime[p] {
            let mut multiple = p * p;
            while multiple <= limit {
                is_prime[multiple] = false;
                multiple += p;
            }
        }
        p += 1;
    }
    is_prime
}

fn primes_up_to(limit: usize) -> Vec<usize> {
    sieve(limit)
        .iter()
        .enumerate()
        .filter(|(_, &prime)| prime)
        .map(|(n, _)| n)
        .collect()
}

/// Trial division, good enough for the numbers people type by hand.
fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    if n % 2 == 0 {
        return n == 2;
    }
    let mut d = 3;
    while d * d <= n {
        if n % d == 0 {
            return false;
        }
        d += 2;
    }
    true
}

fn parse_limit(arg: Option<&String>) -> usize {
    match arg.map(|s| s.parse::<usize>()) {
        Some(Ok(n)) if n <= 100_000_000 => n,
        Some(Ok(_)) => fail("limit too large (max 100000000)"),
        _ => fail("expected a non-negative number"),
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("prime_sieve: {}", msg);
    eprintln!("usage: prime_sieve (list|count|twins) LIMIT | test N...");
    process::exit(2);
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let command = match args.first() {
        Some(c) => c.as_str(),
        None => fail("missing command"),
    };
    match command {
        "list" => {
            let primes = primes_up_to(parse_limit(args.get(1)));
            let line: Vec<String> = primes.iter().map(|p| p.to_string()).collect();
            println!("{}", line.join(" "));
        }
        "count" => {
            let limit = parse_limit(args.get(1));
            println!("{} primes up to {}", primes_up_to(limit).len(), limit);
        }
        "twins" => {
            let primes = primes_up_to(parse_limit(args.get(1)));
            for pair in primes.windows(2) {
                if pair[1] - pair[0] == 2 {
                    println!("({}, {})", pair[0], pair[1]);
                }
            }
        }
        "test" => {
            if args.len() < 2 {
                fail("test needs at least one number");
            }
            for a in &args[1..] {
                match a.parse::<u64>() {
                    Ok(n) if is_prime(n) => println!("{} is prime", n),
                    Ok(n) => println!("{} is not prime", n),
                    Err(_) => println!("{:?} is not a number", a),
                }
            }
        }
        other => fail(&format!("unknown command {:?}", other)),
    }
}
