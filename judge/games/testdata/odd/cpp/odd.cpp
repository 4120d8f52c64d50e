// A bot for the test game odd (judge/games/sixth_test.go): it answers round R with R's last digit.
#include <iostream>
#include <string>

int main() {
    std::string word;
    int round;
    while (std::cin >> word >> round) {
        std::cout << round % 10 << std::endl;
    }
}
