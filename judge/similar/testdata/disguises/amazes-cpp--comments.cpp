/*
 * Maze walker. Keeps a hand on the right wall and walks on.
 * Input per turn: four corridor descriptions and a distance line.
 */
#include <iostream>
#include <string>

/* state of the pseudo random generator */
static unsigned long long rngState = 20100101ULL;

/* classic LCG step, result reduced to [0, n) */
static int nextRandom(int n) {
    rngState = (rngState * 1103515245ULL + 12345ULL) & 0x7FFFFFFFULL;  /* 31 bits */
    return (int)((rngState >> 16) % (unsigned long long)n);
}

/* get a line from stdin and strip blanks on both ends */
static bool readLine(std::string &s) {
    if (!std::getline(std::cin, s)) return false;  /* nothing more to read */
    size_t a = s.find_first_not_of(" \t\r");
    size_t b = s.find_last_not_of(" \t\r");
    s = (a == std::string::npos) ? "" : s.substr(a, b - a + 1);  /* all blank -> empty */
    return true;
}

int main() {
    const char moveChar[4] = {'F', 'R', 'T', 'L'};  /* letters sent to the judge */
    std::string line;
    for (int turn = 1; turn <= 150; turn++) {  /* hard limit on the number of turns */
        if (!readLine(line)) return 0;
        if (line == "Quit") return 0;
        if (line == "Start") {  /* the very first message of the game */
            if (!readLine(line)) return 0;
            if (line == "Quit") return 0;
        }
        /* the four views around us */
        std::string corridor[4];
        corridor[0] = line;
        for (int d = 1; d < 4; d++)
            if (!readLine(corridor[d])) return 0;
        std::string distance;
        if (!readLine(distance)) return 0;  /* read and ignored */
        bool open[4];
        /* make sure each view ends with a wall, then see if the first square is free */
        for (int d = 0; d < 4; d++) {
            if (corridor[d].empty() || corridor[d].back() != 'W') corridor[d] += 'W';
            open[d] = corridor[d][0] != 'W';
        }

        /* priority list: prefer turning right */
        int order[4] = {1, 0, 3, 2};
        int dir = -1;
        for (int k = 0; k < 4 && dir < 0; k++)
            if (open[order[k]]) dir = order[k];
        /* now and then shake things up to avoid endless loops */
        if (nextRandom(8) == 0) {
            int choices[3], count = 0;
            for (int k = 0; k < 3; k++)
                if (open[order[k]]) choices[count++] = order[k];
            if (count > 0) dir = choices[nextRandom(count)];
        }
        std::string answer;
        if (dir < 0) {
            answer = "T";  /* boxed in */
        } else {
            answer += moveChar[dir];
            /* walk further down the chosen corridor as far as we can see */
            const std::string &c = corridor[dir];
            size_t i = 0;
            while (answer.size() < 25) {  /* the judge accepts at most 25 moves */
                char here = c[i];
                bool right = here == 'R' || here == 'B';
                bool left = here == 'L' || here == 'B';
                bool ahead = i + 1 < c.size() && c[i + 1] != 'W';
                if (right) { answer += 'R'; break; }  /* opening on the right wins */
                if (ahead) { answer += 'F'; i++; continue; }
                if (left) answer += 'L';
                break;
            }
        }
        /* viewer annotation */
        std::cerr << "@judge dot 0 0 layer=sample" << std::endl;
        std::cout << answer << "\n" << std::flush;  /* send the move */
    }
    return 0;
}
