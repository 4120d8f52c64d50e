// On The Run broken bot (C++), for testing the judge. DELIBERATELY FAULTY.
// It plays legally until its second move of the 50 turns, then:
// - as Fugitive: its start city and its turn-1 move are legal (farthest from
//   the detectives, as in the sample bot); on turn 2 it writes nothing and
//   sleeps forever without using CPU (it reads nothing more, so it ignores
//   "Quit" and end of file too), so the judge must stop it through the
//   wall-clock cap (a timeout fault on turn 2) and kill it;
// - as Detectives: its start cities (1, 2, 3, 4) and its turn-1 moves (the
//   first distinct assignment along any connections) are legal; on turn 2 it
//   writes four lines "where?" instead of city numbers (a protocol fault on
//   turn 2), then reads and ignores its input until "Quit" or end of file and
//   exits with code 0.
// (If the game ends by an arrest on turn 1, no fault happens.)
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

struct Link { char type; int to; };
static int n = 0;
static std::vector<std::vector<Link>> adj;

static std::string readLineOrExit() {
    std::string s;
    if (!std::getline(std::cin, s)) std::exit(0);
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
    if (s == "Quit") std::exit(0);
    return s;
}

static int toInt(const std::string &s) { return std::atoi(s.c_str()); }

static void readMap() {
    std::ifstream f("connect.txt");
    std::string line;
    std::getline(f, line);
    n = toInt(line);
    adj.assign(n + 1, {});
    while (std::getline(f, line) && line.compare(0, 3, "END") != 0) {
        size_t dash = line.find('-');
        if (line.size() < 3 || dash == std::string::npos) continue;
        int a = toInt(line.substr(2, dash - 2)), b = toInt(line.substr(dash + 1));
        if (a < 1 || a > n || b < 1 || b > n) continue;
        adj[a].push_back({line[0], b});
        adj[b].push_back({line[0], a});
    }
}

// Distance of every city to the nearest detective (connections of any type).
static std::vector<int> distances(const std::vector<int> &det) {
    std::vector<int> dist(n + 1, 1 << 20), queue;
    for (int d : det) if (d >= 1 && d <= n) { dist[d] = 0; queue.push_back(d); }
    for (size_t q = 0; q < queue.size(); q++)
        for (const Link &l : adj[queue[q]])
            if (dist[l.to] > dist[queue[q]] + 1) { dist[l.to] = dist[queue[q]] + 1; queue.push_back(l.to); }
    return dist;
}

static void playFugitive() {
    std::vector<int> det(4);
    for (int &d : det) d = toInt(readLineOrExit());
    std::vector<int> dist = distances(det);
    int cur = 1;
    for (int c = 1; c <= n; c++) if (dist[c] > dist[cur]) cur = c;
    std::cout << cur << "\n" << std::flush;
    // Turn 1: legal, to the neighbour farthest from the detectives.
    dist = distances(det);
    Link best = adj[cur][0];
    for (const Link &l : adj[cur]) if (dist[l.to] > dist[best.to]) best = l;
    std::cout << best.type << " " << best.to << "\n" << std::flush;
    for (int &d : det) d = toInt(readLineOrExit());
    // Turn 2: the fault. Never answer, never use CPU.
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

static bool assign(int i, const std::vector<int> &det, std::vector<int> &target, std::vector<bool> &used) {
    if (i == 4) return true;
    for (const Link &l : adj[det[i]]) {
        if (used[l.to]) continue;
        used[l.to] = true;
        target[i] = l.to;
        if (assign(i + 1, det, target, used)) return true;
        used[l.to] = false;
    }
    return false;
}

static void playDetectives() {
    std::vector<int> det = {1, 2, 3, 4};
    std::cout << "1\n2\n3\n4\n" << std::flush;
    readLineOrExit();  // the fugitive's start city
    readLineOrExit();  // turn 1: the fugitive's transport
    std::vector<int> target(4);
    std::vector<bool> used(n + 1, false);
    assign(0, det, target, used);
    for (int t : target) std::cout << t << "\n";
    std::cout << std::flush;
    readLineOrExit();  // turn 2: the fugitive's transport
    std::cout << "where?\nwhere?\nwhere?\nwhere?\n" << std::flush;  // the fault
    for (;;) readLineOrExit();  // exits on "Quit" or end of file
}

int main() {
    readMap();
    if (readLineOrExit() == "Fugitive") playFugitive();
    else playDetectives();
    return 0;
}
