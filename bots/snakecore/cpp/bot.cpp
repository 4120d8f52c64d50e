// SnakeCore sample bot (C++), written with the judge's helper library Snake.h.
// Each move: bite an adjacent unprotected body block of another python when that cuts off
// at least 2 blocks; deliver to an adjacent reactor once the body has 6 blocks; otherwise
// walk (breadth-first search over empty cells, free blocks and the own tail) toward the
// nearest free block, or toward a reactor when the body is long enough or no free block is
// reachable. Protects itself with an energy block when another head is next to its body.
// Deterministic; exits at the end of the input (Snake.h's run loop).
#include <iostream>
#include <queue>
#include <string>
#include <vector>

#include "Snake.h"

using snake::AreaInfo;
using snake::Point;

class SampleBot : public snake::Bot {
public:
    std::string getName() { return "sample-cpp"; }

    char getAction(const AreaInfo& a) {
        const snake::Python& me = a.me();
        // A dot on its head (drawn by the viewer: docs/viewer.md, Drawing on the board).
        std::cerr << "@judge dot " << me.head().x << " " << me.head().y << " layer=sample" << std::endl;
        int body = me.length() - 1;
        // Bite: an adjacent block of another unprotected python, neither head nor tail.
        for (int d = 0; d < 4; d++) {
            Point t = me.head().step(snake::MOVES[d]);
            int o = a.owner(t.x, t.y), i = a.partIndex(t.x, t.y);
            if (o > 0 && i > 0 && a.python(o).protection == 0 && i < a.python(o).length() - 1 &&
                a.python(o).length() - i >= 2)
                return snake::MOVES[d];
        }
        // Deliver.
        if (body >= 6)
            for (int d = 0; d < 4; d++)
                if (a.cell(me.head().step(snake::MOVES[d])) == snake::REACTOR) return snake::MOVES[d];
        // Protect when threatened and able.
        if (me.protection == 0 && body >= 3 && threatened(a)) {
            for (int i = 1; i < me.length(); i++)
                if (a.cell(me.parts[i]) == snake::ENERGY) return snake::PROTECT;
        }
        char go = toward(a, body >= 6 ? REACTOR_SIDE : BLOCK);
        if (go == snake::NONE && body > 0) go = toward(a, REACTOR_SIDE);
        if (go != snake::NONE) return go;
        if (body > 0)
            for (int d = 0; d < 4; d++)
                if (a.cell(me.head().step(snake::MOVES[d])) == snake::REACTOR) return snake::MOVES[d];
        for (int d = 0; d < 4; d++)
            if (passable(a, me.head().step(snake::MOVES[d]))) return snake::MOVES[d];
        return snake::NONE;
    }

private:
    enum Goal { BLOCK, REACTOR_SIDE };

    // A cell the head may step on without a fight: empty, a free block, the own tail.
    static bool passable(const AreaInfo& a, Point p) {
        if (a.isEmpty(p.x, p.y) || a.isFreeBlock(p.x, p.y)) return true;
        const snake::Python& me = a.me();
        return me.length() > 1 && p == me.tail();
    }

    static bool isGoal(const AreaInfo& a, Point p, Goal g) {
        if (g == BLOCK) return a.isFreeBlock(p.x, p.y);
        for (int d = 0; d < 4; d++)
            if (a.cell(p.step(snake::MOVES[d])) == snake::REACTOR) return true;
        return false;
    }

    // The first move of a shortest path to a goal cell, or NONE.
    static char toward(const AreaInfo& a, Goal g) {
        int n = a.size();
        std::vector<char> first(n * n, 0);
        std::queue<Point> q;
        Point h = a.me().head();
        for (int d = 0; d < 4; d++) {
            Point t = h.step(snake::MOVES[d]);
            if (!passable(a, t) || first[t.y * n + t.x]) continue;
            if (isGoal(a, t, g)) return snake::MOVES[d];
            first[t.y * n + t.x] = snake::MOVES[d];
            q.push(t);
        }
        while (!q.empty()) {
            Point c = q.front();
            q.pop();
            for (int d = 0; d < 4; d++) {
                Point t = c.step(snake::MOVES[d]);
                if (!passable(a, t) || first[t.y * n + t.x] || t == h) continue;
                if (isGoal(a, t, g)) return first[c.y * n + c.x];
                first[t.y * n + t.x] = first[c.y * n + c.x];
                q.push(t);
            }
        }
        return snake::NONE;
    }

    // Another head next to a block of the body that could be bitten.
    static bool threatened(const AreaInfo& a) {
        const snake::Python& me = a.me();
        for (int i = 1; i + 1 < me.length(); i++)
            for (int d = 0; d < 4; d++) {
                Point t = me.parts[i].step(snake::MOVES[d]);
                if (a.owner(t.x, t.y) > 0 && a.partIndex(t.x, t.y) == 0) return true;
            }
        return false;
    }
};

int main() {
    SampleBot bot;
    return snake::run(bot);
}
