// CudaFolderNotes.h - the notes a fold of ConstantFolder collects while
// it runs: what its value rests on, and why it is open. Private to the
// folder.
#pragma once

#include "CudaCommandLine.h"
#include "CudaConstantsImpl.h"

#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// Collects the notes of one public fold into `how`, joined by "; ":
/// what the value rests on, or where it is open, why its parameters are.
/// How the program is run (programRun()) is said once, by the first note
/// that rests on it.
/// With no `how`, the folds made while it lives note nothing: a lookup
/// that folds many things to decide one (a `switch`'s labels, an option
/// loop's passes) names only what it decided.
class ConstantFolder::Impl::Notes {
public:
  Notes(const Impl &folder, std::string *how)
      : folder_(folder), how_(how), outer_(folder.notes_), outerOpen_(folder.openNotes_) {
    folder_.notes_ = how ? &notes_ : nullptr;
    folder_.openNotes_ = how ? &openNotes_ : nullptr;
  }
  ~Notes() {
    folder_.notes_ = outer_;
    folder_.openNotes_ = outerOpen_;
  }
  Notes(const Notes &) = delete;
  Notes &operator=(const Notes &) = delete;

  /// Sets `how` to the notes of a fold that gave a value (`folded`), or
  /// where it did not, to the first reason a parameter is open: the one
  /// deepest down the calls, where the source stops fixing it.
  template <typename T> const std::optional<T> &told(const std::optional<T> &folded) {
    if (!how_)
      return folded;
    how_->clear();
    if (!folded) {
      if (!openNotes_.empty())
        *how_ = openNotes_.front();
      return folded;
    }
    // Each note that rests on the command line says how the program is run; the first one says it for all.
    const std::string run = ", " + programRun(folder_.arguments_);
    bool runSaid = false;
    for (const std::string &note : notes_) {
      const bool endsWithRun = note.size() > run.size() && note.compare(note.size() - run.size(), run.size(), run) == 0;
      *how_ += (how_->empty() ? "" : "; ") + (endsWithRun && runSaid ? note.substr(0, note.size() - run.size()) : note);
      runSaid = runSaid || endsWithRun;
    }
    return folded;
  }

private:
  const Impl &folder_;
  std::string *how_;
  std::vector<std::string> *outer_, *outerOpen_;
  std::vector<std::string> notes_, openNotes_;
};

} // namespace ptxdvfs::tools
