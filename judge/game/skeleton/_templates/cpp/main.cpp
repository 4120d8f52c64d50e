// The referee of {{.Title}} (rules.md): the judge writes one line of JSON to its stdin, and it
// answers one line on its stdout, as docs/referee.md says. Its stderr is for you: the judge
// keeps the end of it when the referee fails.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

// A small JSON reader, enough for the judge's lines: objects, arrays, strings, numbers (kept
// as their text), true, false and null.
struct Json {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    std::string text;  // a string's value, a number's or a boolean's text
    std::vector<Json> items;
    std::map<std::string, Json> fields;
    const Json& operator[](const std::string& key) const {
        static const Json null;
        auto it = fields.find(key);
        return it == fields.end() ? null : it->second;
    }
};

class Reader {
    const std::string& s;
    size_t i = 0;
    void space() { while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++; }
    char peek() { space(); if (i >= s.size()) throw std::runtime_error("the line ended early"); return s[i]; }
    void expect(char c) { if (peek() != c) throw std::runtime_error(std::string("expected ") + c); i++; }
    static void utf8(std::string& out, unsigned cp) {
        if (cp < 0x80) out += char(cp);
        else if (cp < 0x800) { out += char(0xC0 | cp >> 6); out += char(0x80 | (cp & 0x3F)); }
        else if (cp < 0x10000) { out += char(0xE0 | cp >> 12); out += char(0x80 | (cp >> 6 & 0x3F)); out += char(0x80 | (cp & 0x3F)); }
        else { out += char(0xF0 | cp >> 18); out += char(0x80 | (cp >> 12 & 0x3F)); out += char(0x80 | (cp >> 6 & 0x3F)); out += char(0x80 | (cp & 0x3F)); }
    }
    unsigned hex4() {
        unsigned v = std::stoul(s.substr(i, 4), nullptr, 16);
        i += 4;
        return v;
    }
    std::string str() {
        expect('"');
        std::string out;
        while (s.at(i) != '"') {
            char c = s[i++];
            if (c != '\\') { out += c; continue; }
            c = s.at(i++);
            switch (c) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u': {
                    unsigned cp = hex4();
                    if (cp >= 0xD800 && cp < 0xDC00 && s.compare(i, 2, "\\u") == 0) {
                        i += 2;
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4() - 0xDC00);
                    }
                    utf8(out, cp);
                    break;
                }
                default: out += c;  // \" \\ and \/
            }
        }
        i++;
        return out;
    }
public:
    explicit Reader(const std::string& line) : s(line) {}
    Json value() {
        Json v;
        char c = peek();
        if (c == '{') {
            v.kind = Json::Object;
            i++;
            if (peek() == '}') { i++; return v; }
            for (;;) {
                std::string key = str();
                expect(':');
                v.fields[key] = value();
                if (peek() == ',') { i++; continue; }
                expect('}');
                return v;
            }
        }
        if (c == '[') {
            v.kind = Json::Array;
            i++;
            if (peek() == ']') { i++; return v; }
            for (;;) {
                v.items.push_back(value());
                if (peek() == ',') { i++; continue; }
                expect(']');
                return v;
            }
        }
        if (c == '"') { v.kind = Json::String; v.text = str(); return v; }
        size_t start = i;
        while (i < s.size() && std::string(",]} \t\r\n").find(s[i]) == std::string::npos) i++;
        v.text = s.substr(start, i - start);
        v.kind = v.text == "null" ? Json::Null : (v.text == "true" || v.text == "false") ? Json::Bool : Json::Number;
        return v;
    }
};

// quote is s as a JSON string.
std::string quote(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') { out += '\\'; out += char(c); }
        else if (c == '\n') out += "\\n";
        else if (c < 0x20) { char buf[8]; std::snprintf(buf, sizeof buf, "\\u%04x", c); out += buf; }
        else out += char(c);
    }
    return out + "\"";
}

struct Match {
    std::map<std::string, std::string> options;  // every option, the defaults applied
    uint64_t seed = 0;
    int n = 0, turns = 0, turn = 1, asked = -1;  // asked: the player whose answer is awaited this turn
    std::vector<int> scores;
    std::vector<bool> out;
    std::map<int, int> picks;

    // Every random choice comes from the seed: the same seed and answers give the same match,
    // which is how the judge re-judges a replay.
    int bonus() const { return int((seed % 9 + uint64_t(turn)) % 9) + 1; }

    std::string list(const std::vector<int>& v) const {
        std::string s = "[";
        for (size_t k = 0; k < v.size(); k++) s += (k ? "," : "") + std::to_string(v[k]);
        return s + "]";
    }

    std::string view() const { return "{\"scores\":" + list(scores) + ",\"state\":{\"turn\":" + std::to_string(turn) + "}}"; }

    // next is what comes next: the request to the next player of the turn, or the end.
    std::string next() {
        for (;;) {
            int p = asked + 1;
            while (p < n && out[p]) p++;
            if (p < n) {
                asked = p;
                return "\"next\":[{\"player\":" + std::to_string(p) + ",\"turn\":" + std::to_string(turn) +
                       ",\"send\":\"TURN " + std::to_string(turn) + "\\n\",\"expect\":1,\"limit_us\":1000000}]";
            }
            int best = 0;
            for (auto& [q, v] : picks) best = std::max(best, v);
            for (auto& [q, v] : picks) scores[q] += (v == best) + (v == bonus());
            picks.clear();
            turn++;
            asked = -1;
            bool allOut = true;
            for (bool o : out) allOut = allOut && o;
            if (turn > turns || allOut) return "\"next\":[],\"done\":{\"scores\":" + list(scores) + "}";
        }
    }

    // reply is the verdict on a player's answer: null, or the rule it broke.
    std::string reply(const Json& m) {
        int p = std::stoi(m["player"].text);
        if (m["fault"].kind != Json::Null) {  // a timeout or a crash the judge saw: the player is out
            out[p] = true;
            return "null";
        }
        std::string line = m["lines"].items.at(0).text;
        size_t a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
        line = a == std::string::npos ? "" : line.substr(a, b - a + 1);
        if (line.size() != 1 || line[0] < '1' || line[0] > '9') {
            out[p] = true;
            return "{\"kind\":\"illegal_move\",\"detail\":\"not a number from 1 to 9\"}";
        }
        picks[p] = line[0] - '0';
        return "null";
    }
};

int main() {
    std::unique_ptr<Match> match;
    std::string line;
    while (std::getline(std::cin, line)) {
        Json m = Reader(line).value();
        std::string answer;
        if (m["type"].text == "start") {
            match = std::make_unique<Match>();
            std::string opts;
            for (auto& [k, v] : m["options"].fields) {
                match->options[k] = v.text;
                opts += (opts.empty() ? "" : ",") + quote(k) + ":" + quote(v.text);
            }
            match->seed = std::stoull(m["seed"].text);
            match->n = std::stoi(m["players"].text);
            match->turns = std::stoi(match->options["turns"]);
            match->scores.assign(match->n, 0);
            match->out.assign(match->n, false);
            long long memory = std::stoll(match->options["memory"]) << 20;
            answer = "{\"type\":\"setup\",\"options\":{" + opts + "},\"memory\":" + std::to_string(memory);
        } else {
            answer = "{\"type\":\"judged\",\"fault\":" + match->reply(m);
        }
        answer += "," + match->next();
        answer += ",\"view\":" + match->view() + "}";  // the picture once the answer is judged
        std::cout << answer << std::endl;  // endl flushes: the judge waits for the line
    }
}
