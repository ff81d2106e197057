// EmptyOptionValues.cpp - `--name=` as an empty value; see EmptyOptionValues.h.
#include "EmptyOptionValues.h"

namespace ptxdvfs::tools {

std::vector<std::string> emptyValuesApart(int argc, char **argv) {
  std::vector<std::string> words;
  bool optionsEnded = false;
  for (int i = 0; i < argc; ++i) {
    std::string word = argv[i];
    optionsEnded = optionsEnded || (i > 0 && word == "--");
    const bool emptyValue = !optionsEnded && i > 0 && word.size() > 3 && word.compare(0, 2, "--") == 0 &&
                            word.back() == '=' && word.find('=') == word.size() - 1;
    if (emptyValue)
      word.pop_back();
    words.push_back(std::move(word));
    if (emptyValue)
      words.emplace_back();
  }
  return words;
}

} // namespace ptxdvfs::tools
