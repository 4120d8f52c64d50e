// A sample bot of {{.Title}}: it answers 7 every turn.
#include <iostream>
#include <string>

int main() {
    std::string line;
    while (std::getline(std::cin, line)) std::cout << 7 << std::endl;
}
