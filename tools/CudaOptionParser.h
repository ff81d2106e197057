// CudaOptionParser.h - SHOC's OptionParser as a host program uses it:
// options declared with `op.addOption("passes", OPT_INT, "10", "help",
// 'p')` and read with `op.getOptionInt("passes")`. What a read returns
// for the command line the program is run with (--program-args), or, run
// bare, the default its declaration gives.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// One option as `addOption` declares it.
struct ParserOption {
  std::string name;     ///< its long name, `--passes`
  std::string type;     ///< `OPT_INT`, `OPT_FLOAT`, `OPT_BOOL`, `OPT_STRING`, ...
  std::string fallback; ///< the default value, as text
  char letter = '\0';   ///< its short name, `-p`; `\0` for none
};

/// The options `addOption` declares in `code` (codeOf() of `text`,
/// offsets shared), each with its name, type and default written plainly
/// (string literals without escapes, the type a name), in order; others
/// are passed over.
std::vector<ParserOption> parserOptionsIn(const std::string &code, const std::string &text);

/// A read of an option that none of the declarations names, left as written: its offset in the code
/// withOptionParserReads() reads, and the option's name.
struct UndeclaredOptionRead {
  std::size_t offset = 0;
  std::string name;
};

/// `code` (codeOf(`text`), offsets shared) with each read of an option,
/// `op.getOptionInt("passes")`, `getOptionFloat` or `getOptionBool` (also
/// through `->`), its name a string literal, replaced by what it returns,
/// in parentheses and padded with blanks to the call's length, where that
/// is known. The value is the last one `arguments` give the option, as
/// SHOC's parser reads them: `--passes 3` or `-p 3` (its letter), `--name`
/// alone for an `OPT_BOOL` (true); else `options`' default. Not known
/// where an argument names an option none of `options` declares, but the
/// one read, whose type the read tells (it may take a value, or end the
/// program), or where the option read is neither declared nor given.
/// `getOptionInt` converts as `atoi`, `getOptionFloat` as `atof`, and
/// `getOptionBool` gives 1 for `true`, else 0. Each read left open
/// because no declaration names its option is added to `undeclared`,
/// where given.
std::string withOptionParserReads(std::string code, const std::string &text, const std::vector<ParserOption> &options,
                                  const std::vector<std::string> &arguments,
                                  std::vector<UndeclaredOptionRead> *undeclared = nullptr);

} // namespace ptxdvfs::tools
