// On The Run sample bot (C++). Reads the map from connect.txt, then plays the
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
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

struct Link { char type; int to; };

static int n = 0;
static std::vector<std::vector<Link>> adj;  // adj[c]: connections of city c (1..n)

static std::string trim(const std::string &s) {
    size_t a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return "";
    size_t b = s.find_last_not_of(" \t\r\n");
    return s.substr(a, b - a + 1);
}

// Reads one trimmed line; exits (code 0) at end of file or on "Quit".
static std::string readLineOrExit() {
    std::string s;
    if (!std::getline(std::cin, s)) std::exit(0);
    s = trim(s);
    if (s == "Quit") std::exit(0);
    return s;
}

// A dot on city c, one an answer (drawn by the viewer: docs/viewer.md, Drawing on the board).
static void markCity(int c) { std::cerr << "@judge dot " << c << " 0 layer=sample" << std::endl; }

// Reads the integers of s in order (any non-digit separates them).
static std::vector<int> numbers(const std::string &s) {
    std::vector<int> v;
    for (size_t i = 0; i < s.size();) {
        if (s[i] >= '0' && s[i] <= '9') {
            int x = 0;
            while (i < s.size() && s[i] >= '0' && s[i] <= '9') x = x * 10 + (s[i++] - '0');
            v.push_back(x);
        } else {
            i++;
        }
    }
    return v;
}

static void readMap() {
    std::ifstream f("connect.txt");
    std::string line;
    while (n == 0 && std::getline(f, line)) {
        std::vector<int> v = numbers(line);
        if (!v.empty()) n = v[0];
    }
    adj.assign(n + 1, {});
    while (std::getline(f, line)) {
        line = trim(line);
        if (line == "END") break;
        if (line.empty()) continue;
        std::vector<int> v = numbers(line);
        if (v.size() < 2) continue;
        int a = v[0], b = v[1];
        if (a < 1 || a > n || b < 1 || b > n || a == b) continue;
        adj[a].push_back({line[0], b});
        adj[b].push_back({line[0], a});
    }
}

// Breadth-first distances (number of connections of any type) from the cities marked in src.
static std::vector<int> distances(const std::vector<bool> &src) {
    std::vector<int> dist(n + 1, 1 << 20), queue;
    for (int c = 1; c <= n; c++)
        if (src[c]) { dist[c] = 0; queue.push_back(c); }
    for (size_t q = 0; q < queue.size(); q++)
        for (const Link &l : adj[queue[q]])
            if (dist[l.to] > dist[queue[q]] + 1) {
                dist[l.to] = dist[queue[q]] + 1;
                queue.push_back(l.to);
            }
    return dist;
}

static void playFugitive() {
    std::vector<int> det(4);
    for (int i = 0; i < 4; i++) {
        std::vector<int> v = numbers(readLineOrExit());
        det[i] = v.empty() ? 0 : v[0];
    }
    auto detectiveMap = [&]() {
        std::vector<bool> m(n + 1, false);
        for (int d : det) if (d >= 1 && d <= n) m[d] = true;
        return m;
    };
    std::vector<bool> isDet = detectiveMap();
    std::vector<int> dist = distances(isDet);
    int cur = 0;
    for (int c = 1; c <= n; c++)
        if (!isDet[c] && (cur == 0 || dist[c] > dist[cur])) cur = c;
    markCity(cur);
    std::cout << cur << "\n" << std::flush;

    for (int turn = 1; turn <= 50; turn++) {
        isDet = detectiveMap();
        dist = distances(isDet);
        int best = -1;
        for (size_t k = 0; k < adj[cur].size(); k++) {
            const Link &l = adj[cur][k];
            if (isDet[l.to]) continue;
            if (best < 0 || dist[l.to] > dist[adj[cur][best].to]) best = (int)k;
        }
        if (best < 0) best = 0;  // every move ends on a detective: caught anyway
        Link move = adj[cur][best];
        cur = move.to;
        markCity(cur);
        std::cout << move.type << " " << cur << "\n" << std::flush;
        if (turn == 50) break;
        for (int i = 0; i < 4; i++) {
            std::vector<int> v = numbers(readLineOrExit());
            det[i] = v.empty() ? 0 : v[0];
        }
    }
}

// Gives detective i (and the following ones) a new city, trying the neighbours
// in the order of choices[i]; false when no distinct assignment exists.
static bool assign(int i, const std::vector<std::vector<int>> &choices,
                   std::vector<int> &target, std::vector<bool> &used) {
    if (i == 4) return true;
    for (int c : choices[i]) {
        if (used[c]) continue;
        used[c] = true;
        target[i] = c;
        if (assign(i + 1, choices, target, used)) return true;
        used[c] = false;
    }
    return false;
}

static void playDetectives() {
    // Start on the four cities with the most connections (lowest number on ties).
    std::vector<int> det;
    std::vector<bool> taken(n + 1, false);
    for (int i = 0; i < 4; i++) {
        int best = 0;
        for (int c = 1; c <= n; c++)
            if (!taken[c] && (best == 0 || adj[c].size() > adj[best].size())) best = c;
        taken[best] = true;
        det.push_back(best);
    }
    markCity(det[0]);  // before the answer: std::cerr flushes std::cout first
    for (int d : det) std::cout << d << "\n";
    std::cout << std::flush;

    std::vector<bool> cand(n + 1, false);  // where the fugitive may be
    std::vector<int> v = numbers(readLineOrExit());
    if (!v.empty() && v[0] >= 1 && v[0] <= n) cand[v[0]] = true;

    for (int turn = 1; turn <= 50; turn++) {
        std::string line = readLineOrExit();
        char type = line.empty() ? 'C' : line[0];
        v = numbers(line);
        std::vector<bool> isDet(n + 1, false);
        for (int d : det) isDet[d] = true;
        std::vector<bool> next(n + 1, false);
        bool any = false;
        if (!v.empty() && v[0] >= 1 && v[0] <= n) {  // announcement turn
            next[v[0]] = true;
            any = true;
        } else {
            for (int c = 1; c <= n; c++)
                if (cand[c])
                    for (const Link &l : adj[c])
                        if (l.type == type && !isDet[l.to]) { next[l.to] = true; any = true; }
        }
        if (!any)  // lost track: the fugitive may be anywhere
            for (int c = 1; c <= n; c++) next[c] = !isDet[c];
        cand = next;

        // Each detective prefers the neighbours nearest to the possible cities.
        std::vector<int> dist = distances(cand);
        std::vector<std::vector<int>> choices(4);
        for (int i = 0; i < 4; i++) {
            for (const Link &l : adj[det[i]]) choices[i].push_back(l.to);
            std::stable_sort(choices[i].begin(), choices[i].end(),
                             [&](int a, int b) { return dist[a] < dist[b]; });
        }
        std::vector<int> target(4, 0);
        std::vector<bool> used(n + 1, false);
        if (!assign(0, choices, target, used))
            for (int i = 0; i < 4; i++) target[i] = adj[det[i]].empty() ? det[i] : adj[det[i]][0].to;
        markCity(target[0]);  // before the answer: std::cerr flushes std::cout first
        for (int i = 0; i < 4; i++) {
            det[i] = target[i];
            cand[det[i]] = false;
            std::cout << det[i] << "\n";
        }
        std::cout << std::flush;
    }
}

int main() {
    readMap();
    std::string role = readLineOrExit();
    if (role == "Fugitive") playFugitive();
    else playDetectives();
    return 0;
}
