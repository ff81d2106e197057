// Splits.h - train/validation splits that keep benchmark families together.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptxdvfs::model {

/// The family of a microbenchmark: its name up to the first `_`-separated
/// part that starts with a digit (`fadd_dram_10_90_64p` -> `fadd_dram`,
/// `L2_512_8` -> `L2`, `DP` -> `DP`). Siblings differ only in parameters,
/// so a split that separates them lets a model recall instead of predict.
std::string familyOf(const std::string &benchmarkName);

/// Indices of `names` split into training and validation sets. Whole
/// families go to validation, chosen by `seed`, until it holds at least
/// `fraction` of the benchmarks. Both lists are ascending.
struct Split {
  std::vector<std::size_t> train;
  std::vector<std::size_t> validation;
};
Split groupedSplit(const std::vector<std::string> &names, double fraction, std::uint64_t seed);

/// Grouped k-fold: the fold (0..folds-1) of each of `names`. Whole
/// families go to one fold (`names` may be group labels, heldOutGroups(),
/// which are their own family). Families holding members of the rare class
/// (`rare[i]`, e.g. "best memory clock is high") are dealt out first, to
/// the fold with the fewest rare members, then the rest to the fold with
/// the fewest members, so every fold sees both classes and has a similar
/// size. Ties are broken by a `seed`ed order.
std::vector<int> groupedFolds(const std::vector<std::string> &names, const std::vector<bool> &rare,
                              int folds, std::uint64_t seed);

} // namespace ptxdvfs::model
