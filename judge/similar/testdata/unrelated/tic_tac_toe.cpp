// Tic-tac-toe against a perfect minimax player (with alpha-beta pruning).
// You play X and move first unless started with "--second". Enter a square
// as a number 1-9:
//     1 | 2 | 3
//     4 | 5 | 6
//     7 | 8 | 9
#include <array>
#include <iostream>
#include <string>

namespace {

using Board = std::array<char, 9>;

const int kLines[8][3] = {
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8},  // rows
    {0, 3, 6}, {1, 4, 7}, {2, 5, 8},  // columns
    {0, 4, 8}, {2, 4, 6},             // diagonals
};

char winner(const Board &b) {
    for (const auto &line : kLines) {
        char c = b[line[0]];
        if (c != ' ' && c == b[line[1]] && c == b[line[2]]) return c;
    }
    return ' ';
}

bool full(const Board &b) {
    for (char c : b)
        if (c == ' ') return false;
    return true;
}

int nodesVisited = 0;

// Score from the computer's (O's) point of view; quicker wins score higher.
int minimax(Board &b, bool oToMove, int depth, int alpha, int beta) {
    nodesVisited++;
    char w = winner(b);
    if (w == 'O') return 10 - depth;
    if (w == 'X') return depth - 10;
    if (full(b)) return 0;
    int best = oToMove ? -100 : 100;
    for (int i = 0; i < 9; i++) {
        if (b[i] != ' ') continue;
        b[i] = oToMove ? 'O' : 'X';
        int score = minimax(b, !oToMove, depth + 1, alpha, beta);
        b[i] = ' ';
        if (oToMove) {
            if (score > best) best = score;
            if (best > alpha) alpha = best;
        } else {
            if (score < best) best = score;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

int bestMove(Board &b) {
    int move = -1, bestScore = -1000;
    nodesVisited = 0;
    for (int i = 0; i < 9; i++) {
        if (b[i] != ' ') continue;
        b[i] = 'O';
        int score = minimax(b, false, 1, -1000, 1000);
        b[i] = ' ';
        if (score > bestScore) {
            bestScore = score;
            move = i;
        }
    }
    return move;
}

void print(const Board &b) {
    for (int r = 0; r < 3; r++) {
        std::cout << ' ' << b[r * 3] << " | " << b[r * 3 + 1] << " | " << b[r * 3 + 2] << '\n';
        if (r < 2) std::cout << "---+---+---\n";
    }
}

}  // namespace

int main(int argc, char **argv) {
    Board board;
    board.fill(' ');
    bool humanTurn = !(argc > 1 && std::string(argv[1]) == "--second");
    while (winner(board) == ' ' && !full(board)) {
        if (humanTurn) {
            print(board);
            std::cout << "your move (1-9): " << std::flush;
            int sq;
            if (!(std::cin >> sq)) {
                std::cout << "\nbye\n";
                return 0;
            }
            if (sq < 1 || sq > 9 || board[sq - 1] != ' ') {
                std::cout << "that square is not free\n";
                continue;
            }
            board[sq - 1] = 'X';
        } else {
            int m = bestMove(board);
            board[m] = 'O';
            std::cout << "computer plays " << m + 1 << " (" << nodesVisited << " positions searched)\n";
        }
        humanTurn = !humanTurn;
    }
    print(board);
    char w = winner(board);
    if (w == 'X') std::cout << "You win!\n";
    else if (w == 'O') std::cout << "The computer wins.\n";
    else std::cout << "Draw.\n";
    return 0;
}
