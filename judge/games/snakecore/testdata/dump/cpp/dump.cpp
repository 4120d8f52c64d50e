// Prints what Snake.h reads from each request, in the layout of the library tests.
#include <cstdio>

#include "Snake.h"

int main() {
    snake::AreaInfo a;
    int turn = 0;
    for (;;) {
        snake::Request r = snake::readRequest(std::cin, a, turn + 1);
        if (r == snake::REQUEST_END) return 0;
        if (r == snake::REQUEST_NAME) {
            std::printf("name %s\n", snake::cleanName("a name that is much longer than thirty-two bytes\t").c_str());
            continue;
        }
        turn++;
        std::printf("turn %d size %d pythons %d\n", a.turn(), a.size(), a.pythonCount());
        for (int y = 0; y < a.size(); y++) std::printf("%s\n", a.rows()[y].c_str());
        for (int k = 0; k < a.pythonCount(); k++) {
            const snake::Python& p = a.python(k);
            std::printf("py %d %d %d", k, p.protection, p.length());
            for (int i = 0; i < p.length(); i++) std::printf(" %d,%d", p.parts[i].x, p.parts[i].y);
            std::printf(" |");
            for (int i = 0; i < p.length(); i++) std::printf(" %d:%d", a.owner(p.parts[i].x, p.parts[i].y), a.partIndex(p.parts[i].x, p.parts[i].y));
            std::printf(" head %d,%d tail %d,%d\n", p.head().x, p.head().y, p.tail().x, p.tail().y);
        }
        int fr = 0, em = 0;
        for (int y = 0; y < a.size(); y++)
            for (int x = 0; x < a.size(); x++) {
                if (a.isFreeBlock(x, y)) fr++;
                if (a.isEmpty(x, y)) em++;
            }
        std::printf("free %d empty %d edge %c%c%c\n", fr, em, a.cell(-1, 0), a.cell(0, a.size()), a.cell(a.me().head()));
    }
}
