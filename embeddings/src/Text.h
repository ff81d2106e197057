// Text.h - the trimming shared by the readers of vocabulary, clock-table and dataset files.
#pragma once

#include <string>
#include <string_view>

namespace ptxdvfs::embeddings {

/// `text` without leading and trailing spaces, tabs, CR, LF, FF and VT.
inline std::string trimmed(std::string_view text) {
  const char *space = " \t\r\n\f\v";
  std::size_t begin = text.find_first_not_of(space);
  if (begin == std::string_view::npos)
    return "";
  return std::string(text.substr(begin, text.find_last_not_of(space) - begin + 1));
}

} // namespace ptxdvfs::embeddings
