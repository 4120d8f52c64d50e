// The referee of {{.Title}} (rules.md): the judge writes one line of JSON to its stdin, and it
// answers one line on its stdout, as docs/referee.md says. Its stderr is for you: the judge
// keeps the end of it when the referee fails.
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

// A small JSON reader, enough for the judge's lines.
#[derive(Debug, Clone)]
enum Json {
    Null,
    Raw(String), // a number's or a boolean's text
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(m) => m.get(key).unwrap_or(&Json::Null),
            _ => &Json::Null,
        }
    }
    fn text(&self) -> &str {
        match self {
            Json::Raw(s) | Json::Str(s) => s,
            _ => "",
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn peek(&mut self) -> u8 {
        while self.i < self.s.len() && b" \t\r\n".contains(&self.s[self.i]) {
            self.i += 1;
        }
        self.s[self.i]
    }
    fn expect(&mut self, c: u8) {
        assert_eq!(self.peek(), c, "expected {} at {}", c as char, self.i);
        self.i += 1;
    }
    fn hex4(&mut self) -> u32 {
        let h = std::str::from_utf8(&self.s[self.i..self.i + 4]).unwrap();
        self.i += 4;
        u32::from_str_radix(h, 16).unwrap()
    }
    fn string(&mut self) -> String {
        self.expect(b'"');
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = self.s[self.i];
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = self.s[self.i];
                    self.i += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let mut cp = self.hex4();
                            if (0xD800..0xDC00).contains(&cp) && self.s[self.i..].starts_with(b"\\u") {
                                self.i += 2;
                                cp = 0x10000 + ((cp - 0xD800) << 10) + (self.hex4() - 0xDC00);
                            }
                            let ch = char::from_u32(cp).unwrap_or('\u{FFFD}');
                            out.extend_from_slice(ch.to_string().as_bytes());
                        }
                        other => out.push(other), // \" \\ and \/
                    }
                }
                other => out.push(other),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    fn value(&mut self) -> Json {
        match self.peek() {
            b'{' => {
                self.i += 1;
                let mut m = BTreeMap::new();
                if self.peek() == b'}' {
                    self.i += 1;
                    return Json::Obj(m);
                }
                loop {
                    let k = self.string();
                    self.expect(b':');
                    let v = self.value();
                    m.insert(k, v);
                    if self.peek() == b',' {
                        self.i += 1;
                        continue;
                    }
                    self.expect(b'}');
                    return Json::Obj(m);
                }
            }
            b'[' => {
                self.i += 1;
                let mut l = Vec::new();
                if self.peek() == b']' {
                    self.i += 1;
                    return Json::Arr(l);
                }
                loop {
                    l.push(self.value());
                    if self.peek() == b',' {
                        self.i += 1;
                        continue;
                    }
                    self.expect(b']');
                    return Json::Arr(l);
                }
            }
            b'"' => Json::Str(self.string()),
            _ => {
                let start = self.i;
                while self.i < self.s.len() && !b",]} \t\r\n".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                let t = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                if t == "null" { Json::Null } else { Json::Raw(t) }
            }
        }
    }
}

// quote is s as a JSON string.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => { out.push('\\'); out.push(c); }
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

struct Match {
    seed: u64,
    n: usize,
    turns: i64,
    turn: i64,
    asked: i64, // the player whose answer is awaited this turn
    scores: Vec<i64>,
    out: Vec<bool>,
    picks: BTreeMap<usize, i64>,
}

fn list(v: &[i64]) -> String {
    format!("[{}]", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","))
}

impl Match {
    // Every random choice comes from the seed: the same seed and answers give the same match,
    // which is how the judge re-judges a replay.
    fn bonus(&self) -> i64 {
        ((self.seed % 9 + self.turn as u64) % 9) as i64 + 1
    }

    fn view(&self) -> String {
        format!("{{\"scores\":{},\"state\":{{\"turn\":{}}}}}", list(&self.scores), self.turn)
    }

    // next is what comes next: the request to the next player of the turn, or the end.
    fn next(&mut self) -> String {
        loop {
            let mut p = (self.asked + 1) as usize;
            while p < self.n && self.out[p] {
                p += 1;
            }
            if p < self.n {
                self.asked = p as i64;
                return format!(
                    "\"next\":[{{\"player\":{},\"turn\":{},\"send\":\"TURN {}\\n\",\"expect\":1,\"limit_us\":1000000}}]",
                    p, self.turn, self.turn
                );
            }
            let best = self.picks.values().copied().max().unwrap_or(0);
            let bonus = self.bonus();
            for (&q, &v) in &self.picks {
                self.scores[q] += (v == best) as i64 + (v == bonus) as i64;
            }
            self.picks.clear();
            self.turn += 1;
            self.asked = -1;
            if self.turn > self.turns || self.out.iter().all(|&o| o) {
                return format!("\"next\":[],\"done\":{{\"scores\":{}}}", list(&self.scores));
            }
        }
    }

    // reply is the verdict on a player's answer: null, or the rule it broke.
    fn reply(&mut self, m: &Json) -> String {
        let p: usize = m.get("player").text().parse().unwrap();
        if !matches!(m.get("fault"), Json::Null) {
            // a timeout or a crash the judge saw: the player is out
            self.out[p] = true;
            return "null".into();
        }
        let line = match m.get("lines") {
            Json::Arr(l) => l[0].text().trim_matches(|c| c == ' ' || c == '\t' || c == '\r').to_string(),
            _ => String::new(),
        };
        let b = line.as_bytes();
        if b.len() != 1 || !(b'1'..=b'9').contains(&b[0]) {
            self.out[p] = true;
            return "{\"kind\":\"illegal_move\",\"detail\":\"not a number from 1 to 9\"}".into();
        }
        self.picks.insert(p, (b[0] - b'0') as i64);
        "null".into()
    }
}

fn main() {
    let stdin = io::stdin();
    let mut stdout = io::stdout();
    let mut game: Option<Match> = None;
    for line in stdin.lock().split(b'\n') {
        let line = line.expect("reading stdin");
        let m = Reader { s: &line, i: 0 }.value();
        let mut answer;
        if m.get("type").text() == "start" {
            let mut opts = Vec::new();
            let mut options = BTreeMap::new();
            if let Json::Obj(o) = m.get("options") {
                for (k, v) in o {
                    opts.push(format!("{}:{}", quote(k), quote(v.text())));
                    options.insert(k.clone(), v.text().to_string());
                }
            }
            let n: usize = m.get("players").text().parse().unwrap();
            game = Some(Match {
                seed: m.get("seed").text().parse().unwrap(),
                n,
                turns: options["turns"].parse().unwrap(),
                turn: 1,
                asked: -1,
                scores: vec![0; n],
                out: vec![false; n],
                picks: BTreeMap::new(),
            });
            let memory: i64 = options["memory"].parse::<i64>().unwrap() << 20;
            answer = format!("{{\"type\":\"setup\",\"options\":{{{}}},\"memory\":{}", opts.join(","), memory);
        } else {
            let g = game.as_mut().expect("a reply before the start");
            answer = format!("{{\"type\":\"judged\",\"fault\":{}", g.reply(&m));
        }
        let g = game.as_mut().unwrap();
        answer += &format!(",{}", g.next());
        answer += &format!(",\"view\":{}}}", g.view()); // the picture once the answer is judged
        writeln!(stdout, "{}", answer).unwrap();
        stdout.flush().unwrap(); // the judge waits for the line
    }
}
