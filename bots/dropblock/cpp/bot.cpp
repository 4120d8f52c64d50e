// Drop the Block sample bot (C++). Prints READY, then answers every turn's input
// (id, T, 6 block rows, 4 player lines "R C D S", EOD) with one action:
//  - fallen, or waiting after an attack (S > 0): N;
//  - standing on a block that is about to fall: the quickest step off it onto a
//    standing block;
//  - an enemy on a standing block in line within 3 blocks: A when facing it,
//    otherwise a move toward it (which turns it; it steps only onto a standing block);
//  - otherwise a step toward the centre onto a standing block (never onto a
//    falling or fallen one), or N.
// Deterministic. Exits at end of input.
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

static const int SIZE = 18, SIDE = 3, BLOCKS = 6, PLAYERS = 4;
static const char LETTERS[] = "URDL";
static const int DR[4] = {-1, 0, 1, 0}, DC[4] = {0, 1, 0, -1};

static int blk[BLOCKS][BLOCKS];
static int pr[PLAYERS], pc[PLAYERS], pd[PLAYERS], ps[PLAYERS];
static int id, turn;

static bool readLine(std::string &s) {
    if (!std::getline(std::cin, s)) return false;
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return true;
}

static int blockAt(int r, int c) { return blk[r / SIDE][c / SIDE]; }

// legal: the move would step (on the board, not onto a fallen block, more than 3 from everyone).
static bool legal(int d) {
    int r = pr[id] + DR[d], c = pc[id] + DC[d];
    if (r < 0 || r >= SIZE || c < 0 || c >= SIZE || blockAt(r, c) < 0) return false;
    for (int j = 0; j < PLAYERS; j++)
        if (j != id && pr[j] >= 0 && std::abs(r - pr[j]) + std::abs(c - pc[j]) <= 3) return false;
    return true;
}

static bool safe(int d) { return legal(d) && blockAt(pr[id] + DR[d], pc[id] + DC[d]) == 0; }

static char decide() {
    int r = pr[id], c = pc[id];
    if (r < 0 || ps[id] > 0) return 'N';
    int br = r / SIDE, bc = c / SIDE;
    if (blk[br][bc] > 0) {  // get off a falling block
        int best = -1, bestSteps = 0;
        for (int d = 0; d < 4; d++) {
            int nr = br + DR[d], nc = bc + DC[d];
            if (!legal(d) || nr < 0 || nr >= BLOCKS || nc < 0 || nc >= BLOCKS || blk[nr][nc] != 0) continue;
            int steps[4] = {r % SIDE + 1, SIDE - c % SIDE, SIDE - r % SIDE, c % SIDE + 1};
            if (best < 0 || steps[d] < bestSteps) best = d, bestSteps = steps[d];
        }
        if (best >= 0) return LETTERS[best];
    }
    for (int k = 0; k < 4; k++) {  // an enemy in line: attack, or turn to it
        int d = (pd[id] + k) % 4;
        for (int j = 0; j < PLAYERS; j++) {
            if (j == id || pr[j] < 0) continue;
            int qr = pr[j] / SIDE, qc = pc[j] / SIDE;
            if (blk[qr][qc] != 0) continue;
            int n = (qr - br) * DR[d] + (qc - bc) * DC[d];
            bool inLine = (DR[d] != 0 && qc == bc) || (DC[d] != 0 && qr == br);
            if (!inLine || n < 1 || n > 3) continue;
            if (k == 0) return 'A';
            if (safe(d) || !legal(d)) return LETTERS[d];
        }
    }
    int want[2], nw = 0;  // toward the centre
    if (r < SIZE / 2 - 1) want[nw++] = 2;
    else if (r > SIZE / 2) want[nw++] = 0;
    if (c < SIZE / 2 - 1) want[nw++] = 1;
    else if (c > SIZE / 2) want[nw++] = 3;
    for (int k = 0; k < nw; k++) {
        int d = want[(k + turn / PLAYERS) % nw];
        if (safe(d)) return LETTERS[d];
    }
    return 'N';
}

int main() {
    std::cout << "READY\n" << std::flush;
    std::string line;
    while (readLine(line)) {
        id = std::atoi(line.c_str());
        if (!readLine(line)) return 0;
        turn = std::atoi(line.c_str());
        for (int r = 0; r < BLOCKS; r++) {
            if (!readLine(line)) return 0;
            std::istringstream in(line);
            for (int c = 0; c < BLOCKS; c++) in >> blk[r][c];
        }
        for (int p = 0; p < PLAYERS; p++) {
            if (!readLine(line)) return 0;
            std::istringstream in(line);
            std::string d;
            in >> pr[p] >> pc[p] >> d >> ps[p];
            pd[p] = 0;
            for (int k = 0; k < 4; k++)
                if (!d.empty() && d[0] == LETTERS[k]) pd[p] = k;
        }
        if (!readLine(line)) return 0;  // EOD
        if (id < 0 || id >= PLAYERS) id = 0;
        // A dot on its square, a note once fallen (drawn by the viewer: docs/viewer.md, Drawing on the board).
        if (pr[id] >= 0) std::cerr << "@judge dot " << pc[id] << " " << pr[id] << " layer=sample" << std::endl;
        else std::cerr << "@judge note layer=sample fallen" << std::endl;
        std::cout << decide() << "\n" << std::flush;
    }
    return 0;
}
