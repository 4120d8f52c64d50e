// Snake.h - the SnakeCore helper library for C++ bots (header only, C++11 and later).
//
// The judge adds this file to every C++ submission for SnakeCore, so a bot just includes it:
//
//     #include "Snake.h"
//
//     class MyBot : public snake::Bot {
//     public:
//         std::string getName() { return "my bot"; }
//         char getAction(const snake::AreaInfo& area) { return snake::NONE; }
//     };
//
//     int main() { MyBot bot; return snake::run(bot); }
//
// or, with a function:  int main() { return snake::run("my bot", myAction); }
//
// run() answers getName with the name (cut to the 32 bytes the page allows, control
// characters made spaces) and each getAction with the bot's action, flushing every answer,
// and returns 0 at the end of the input. A bot may also read requests itself with
// snake::readRequest, or ignore this file.
//
// Coordinates are x (column) and y (row), from 0 at the top left; UP is y-1.
#ifndef SNAKECORE_SNAKE_H
#define SNAKECORE_SNAKE_H

#include <cstdlib>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace snake {

// The actions a bot may answer.
const char UP = 'U';
const char LEFT = 'L';
const char DOWN = 'D';
const char RIGHT = 'R';
const char NONE = 'N';     // skip the move
const char PROTECT = 'A';  // spend an energy block for 10 moves of protection

// The four moving actions.
const char MOVES[4] = {UP, LEFT, DOWN, RIGHT};

// The characters of the field.
const char WALL = 'W';
const char REACTOR = 'R';
const char BLOCK = 'b';   // an ordinary block, free or in a body
const char ENERGY = 'e';  // an energy block, free or in a body
const char HEAD = 'p';    // a python's head
const char EMPTY = '.';

// A cell.
struct Point {
    int x, y;
    Point() : x(0), y(0) {}
    Point(int x_, int y_) : x(x_), y(y_) {}
    // The cell next to this one in the direction of a move action (this one for others).
    Point step(char action) const {
        switch (action) {
            case UP: return Point(x, y - 1);
            case DOWN: return Point(x, y + 1);
            case LEFT: return Point(x - 1, y);
            case RIGHT: return Point(x + 1, y);
        }
        return *this;
    }
    // The Manhattan distance to p.
    int dist(const Point& p) const { return std::abs(x - p.x) + std::abs(y - p.y); }
    bool operator==(const Point& p) const { return x == p.x && y == p.y; }
    bool operator!=(const Point& p) const { return !(*this == p); }
};

// A python: parts[0] is the head, the last part the tail; never empty.
struct Python {
    int protection;             // own moves of protection left (0: not protected)
    std::vector<Point> parts;   // head first, tail last
    Python() : protection(0) {}
    int length() const { return (int)parts.size(); }  // head included
    const Point& head() const { return parts.front(); }
    const Point& tail() const { return parts.back(); }
};

// One getAction request: the field and the pythons.
class AreaInfo {
public:
    AreaInfo() : size_(0), turn_(0) {}

    // The side of the square field.
    int size() const { return size_; }
    // getAction requests read so far, 1 for the first.
    int turn() const { return turn_; }
    bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < size_ && y < size_; }
    // The character of (x, y); off the field a WALL.
    char cell(int x, int y) const { return inside(x, y) ? rows_[y][x] : WALL; }
    char cell(const Point& p) const { return cell(p.x, p.y); }
    // The field's rows, top first: rows()[y][x].
    const std::vector<std::string>& rows() const { return rows_; }

    // All pythons: python(0) is the bot's own, the others follow in the order of the ids.
    int pythonCount() const { return (int)pythons_.size(); }
    const Python& python(int i) const { return pythons_[i]; }
    const std::vector<Python>& pythons() const { return pythons_; }
    const Python& me() const { return pythons_[0]; }

    // The index of the python with a part on (x, y), or -1.
    int owner(int x, int y) const { return inside(x, y) ? owner_[y * size_ + x] : -1; }
    // The index of that part in its python's parts (0 for a head), or -1.
    int partIndex(int x, int y) const { return inside(x, y) ? index_[y * size_ + x] : -1; }
    // A block on (x, y) that belongs to no python.
    bool isFreeBlock(int x, int y) const {
        char c = cell(x, y);
        return (c == BLOCK || c == ENERGY) && owner(x, y) < 0;
    }
    bool isEmpty(int x, int y) const { return inside(x, y) && cell(x, y) == EMPTY; }

    // Reads the rest of a getAction request (after its first line). The number of python
    // lines is the number of heads on the field. False at the end of the input or on a
    // malformed request.
    bool read(std::istream& in, int turn = 0) {
        std::string line;
        if (!readLine(in, line)) return false;
        size_ = std::atoi(line.c_str());
        if (size_ <= 0) return false;
        turn_ = turn;
        rows_.assign(size_, std::string());
        owner_.assign(size_ * size_, -1);
        index_.assign(size_ * size_, -1);
        pythons_.clear();
        int heads = 0;
        for (int y = 0; y < size_; y++) {
            if (!std::getline(in, rows_[y])) return false;
            std::string& r = rows_[y];
            while (!r.empty() && (r[r.size() - 1] == '\r' || r[r.size() - 1] == '\n')) r.erase(r.size() - 1);
            r.resize(size_, EMPTY);
            for (int x = 0; x < size_; x++)
                if (r[x] == HEAD) heads++;
        }
        for (int k = 0; k < heads; k++) {
            if (!readLine(in, line)) return false;
            std::istringstream ss(line);
            Python p;
            int len = 0;
            if (!(ss >> p.protection >> len) || len < 1) return false;
            p.parts.resize(len);
            for (int i = 0; i < len; i++) {
                if (!(ss >> p.parts[i].x >> p.parts[i].y)) return false;
                if (inside(p.parts[i].x, p.parts[i].y)) {
                    owner_[p.parts[i].y * size_ + p.parts[i].x] = k;
                    index_[p.parts[i].y * size_ + p.parts[i].x] = i;
                }
            }
            pythons_.push_back(p);
        }
        return heads > 0;
    }

    // Reads one line without its end and surrounding spaces.
    static bool readLine(std::istream& in, std::string& line) {
        if (!std::getline(in, line)) return false;
        size_t a = line.find_first_not_of(" \t\r\n");
        size_t b = line.find_last_not_of(" \t\r\n");
        line = a == std::string::npos ? std::string() : line.substr(a, b - a + 1);
        return true;
    }

private:
    int size_, turn_;
    std::vector<std::string> rows_;
    std::vector<Python> pythons_;
    std::vector<int> owner_, index_;
};

// A bot for run(): its name and its action for each request.
class Bot {
public:
    virtual ~Bot() {}
    virtual std::string getName() = 0;
    virtual char getAction(const AreaInfo& area) = 0;
};

// The kinds of request.
enum Request { REQUEST_END = 0, REQUEST_NAME = 1, REQUEST_ACTION = 2 };

// Reads the next request; for getAction it fills area. Unknown lines are skipped. Returns
// REQUEST_END at the end of the input or on a malformed request.
inline Request readRequest(std::istream& in, AreaInfo& area, int turn = 0) {
    std::string line;
    while (AreaInfo::readLine(in, line)) {
        if (line == "getName") return REQUEST_NAME;
        if (line == "getAction") return area.read(in, turn) ? REQUEST_ACTION : REQUEST_END;
    }
    return REQUEST_END;
}

// The name as the page allows it: at most 32 bytes, no character below 0x20.
inline std::string cleanName(std::string name) {
    if (name.size() > 32) name.resize(32);
    for (size_t i = 0; i < name.size(); i++)
        if ((unsigned char)name[i] < 0x20) name[i] = ' ';
    return name;
}

// Plays bot on standard input and output; returns 0 at the end of the input.
inline int run(Bot& bot) {
    std::ios::sync_with_stdio(false);
    AreaInfo area;
    int turn = 0;
    for (;;) {
        Request r = readRequest(std::cin, area, turn + 1);
        if (r == REQUEST_END) return 0;
        if (r == REQUEST_NAME) {
            std::cout << cleanName(bot.getName()) << '\n' << std::flush;
        } else {
            turn++;
            std::cout << bot.getAction(area) << '\n' << std::flush;
        }
    }
}

// Plays with a name and an action function.
inline int run(const std::string& name, std::function<char(const AreaInfo&)> action) {
    struct FnBot : Bot {
        std::string name;
        std::function<char(const AreaInfo&)> action;
        std::string getName() { return name; }
        char getAction(const AreaInfo& area) { return action(area); }
    } bot;
    bot.name = name;
    bot.action = action;
    return run(bot);
}

}  // namespace snake

#endif
