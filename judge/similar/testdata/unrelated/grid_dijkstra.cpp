// Shortest path on a weighted grid, read from standard input.
//
// Input:  R C, then R lines of C characters. 'S' is the start, 'T' the target,
//         '#' a wall, '.' costs 1, and a digit 1-9 costs that much to enter.
// Output: the cost of the cheapest path and the grid with the path drawn as '*'.
#include <algorithm>
#include <climits>
#include <iostream>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

using namespace std;

struct Grid {
    int rows = 0, cols = 0;
    vector<string> cells;

    bool inside(int r, int c) const { return r >= 0 && r < rows && c >= 0 && c < cols; }

    int enterCost(int r, int c) const {
        char ch = cells[r][c];
        if (ch == '#') return -1;
        if (ch >= '1' && ch <= '9') return ch - '0';
        return 1;
    }
};

static bool readGrid(Grid &g, int &sr, int &sc, int &tr, int &tc) {
    if (!(cin >> g.rows >> g.cols) || g.rows <= 0 || g.cols <= 0) return false;
    g.cells.resize(g.rows);
    sr = sc = tr = tc = -1;
    for (int r = 0; r < g.rows; r++) {
        cin >> g.cells[r];
        if ((int)g.cells[r].size() != g.cols) return false;
        for (int c = 0; c < g.cols; c++) {
            if (g.cells[r][c] == 'S') { sr = r; sc = c; }
            if (g.cells[r][c] == 'T') { tr = r; tc = c; }
        }
    }
    return sr >= 0 && tr >= 0;
}

int main() {
    Grid g;
    int sr, sc, tr, tc;
    if (!readGrid(g, sr, sc, tr, tc)) {
        cerr << "bad input: need R C and a grid with S and T" << endl;
        return 1;
    }

    const int dr[4] = {-1, 1, 0, 0};
    const int dc[4] = {0, 0, -1, 1};
    vector<vector<int>> dist(g.rows, vector<int>(g.cols, INT_MAX));
    vector<vector<int>> from(g.rows, vector<int>(g.cols, -1));
    using Item = tuple<int, int, int>;  // cost, row, column
    priority_queue<Item, vector<Item>, greater<Item>> pq;

    dist[sr][sc] = 0;
    pq.emplace(0, sr, sc);
    int settled = 0;
    while (!pq.empty()) {
        auto [d, r, c] = pq.top();
        pq.pop();
        if (d > dist[r][c]) continue;
        settled++;
        if (r == tr && c == tc) break;
        for (int k = 0; k < 4; k++) {
            int nr = r + dr[k], nc = c + dc[k];
            if (!g.inside(nr, nc)) continue;
            int w = g.enterCost(nr, nc);
            if (w < 0) continue;
            if (d + w < dist[nr][nc]) {
                dist[nr][nc] = d + w;
                from[nr][nc] = k;
                pq.emplace(d + w, nr, nc);
            }
        }
    }

    if (dist[tr][tc] == INT_MAX) {
        cout << "no path from S to T" << endl;
        return 0;
    }

    // Walk back from the target, marking the path.
    int steps = 0;
    for (int r = tr, c = tc; !(r == sr && c == sc);) {
        int k = from[r][c];
        r -= dr[k];
        c -= dc[k];
        if (g.cells[r][c] != 'S') g.cells[r][c] = '*';
        steps++;
    }

    cout << "cost " << dist[tr][tc] << ", " << steps << " steps, " << settled << " cells settled\n";
    for (const string &row : g.cells) cout << row << '\n';
    return 0;
}
