// CudaOptionLoopReads.cpp - what the host code's loops that read options
// by hand (CudaOptionLoops.h) leave, run over the arguments the program is
// read as run with: a name one of their branches sets, and what a
// function returns from inside one. Part of CommandLine
// (CudaCommandLineReads.h).
#include "CudaCommandLineReads.h"

#include "CudaFolderNotes.h"
#include "CudaStatements.h"

#include <algorithm>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

std::optional<std::pair<ConstantFolder::Impl::CommandLine::HandLoop, const OptionBranch *>>
ConstantFolder::Impl::CommandLine::handLoopAround(std::size_t file, std::size_t at, int depth) const {
  const CudaCode &source = folder_.files_[file];
  const std::string &code = source.code(), &text = source.text();
  if (depth >= kMaxDepth)
    return std::nullopt;
  const std::vector<LoopHeader> headers = headersAround(source, statementStartAround(code, at));
  const auto loop = std::find_if(headers.begin(), headers.end(), [](const LoopHeader &h) { return !isBranch(h); });
  if (loop == headers.end() || (loop->keyword != "for" && loop->keyword != "while"))
    return std::nullopt;
  const std::optional<RangeFor> range = loop->keyword == "for" ? rangeFor(loop->inside(code)) : std::nullopt;
  OptionLoopFolds folds = foldsAt(file, loop->at, depth);
  if (range && !folds.argvFrom(range->range))
    return std::nullopt; // a range of other values than the arguments
  // Moved on from where the loop begins, which a loop around it may not have it at.
  const bool outermost = std::none_of(loop + 1, headers.end(), [](const LoopHeader &h) { return !isBranch(h); });
  std::optional<OptionLoopHead> head = optionLoopHead(source, *loop, outermost);
  const std::size_t open = code.find_first_not_of(" \t\r\n", loop->headEnd + 1);
  if (folder_.arguments_.empty() && (!head || head->condition.empty()))
    return std::nullopt; // run bare, `i < argc` holds for no `i` from 1 (untaken()); `--argc > 0` is run below
  const std::string counter = head ? head->counted.counter : "";
  std::optional<OptionLoopBody> body =
      head && head->counted.scaling == CountedFor::Scaling::None && open != std::string::npos
          ? optionLoopBody(code, text, open, counter)
          : std::nullopt;
  if (!body)
    return std::nullopt;
  if (range) // the element, named in the head, is the range's at the position
    body->aliases.insert(body->aliases.begin(), {range->name, range->range + "[" + counter + "]"});
  std::pair<HandLoop, const OptionBranch *> found{
      HandLoop{*loop, std::move(*head), std::move(*body), std::move(folds), open}, nullptr};
  found.second = branchHolding(found.first.body, at); // in the body where it now lives
  if (!found.second)
    return std::nullopt; // not in a branch of a loop that reads options by hand
  return found;
}

const OptionLoopRun &ConstantFolder::Impl::CommandLine::handLoopRun(std::size_t file, const HandLoop &loop,
                                                                    const OptionBranch *branch,
                                                                    std::size_t statement) const {
  const auto key = std::tuple{file, loop.loop.at, statement};
  auto remembered = folder_.remembered_.optionLoopRuns.find(key);
  if (remembered == folder_.remembered_.optionLoopRuns.end()) { // each pass folds every condition: run it once
    const Notes silenced(folder_, nullptr); // running a loop folds many conditions; the value rests on one pass
    OptionLoopRun run =
        runOptionLoop(folder_.files_[file], loop.head, loop.body, branch, statement, folder_.arguments_, loop.folds);
    remembered = folder_.remembered_.optionLoopRuns.emplace(key, std::move(run)).first;
  }
  return remembered->second;
}

std::optional<std::string> ConstantFolder::Impl::CommandLine::readInPass(const HandLoop &loop, const OptionLoopRun &run,
                                                                         const std::string &written) const {
  const std::string &shifted = loop.head.shifted, &counter = loop.head.counted.counter;
  LoopPlace place = *run.reached; // stepped as `written`'s own `++i` and `argv++` read
  std::optional<std::string> read = shifted.empty() ? written : withShiftedRead(written, shifted, place.shift);
  return read ? withCounterRead(withAliasesRead(*read, loop.body, counter, shifted, run.pass), counter, place.counter)
              : std::nullopt;
}

std::optional<OptionCase> ConstantFolder::Impl::CommandLine::handReadOption(std::size_t file, std::size_t at,
                                                                            const std::string &name, std::size_t before,
                                                                            int depth) const {
  const CudaCode &source = folder_.files_[file];
  const std::string &code = source.code();
  const std::optional<std::pair<HandLoop, const OptionBranch *>> around = handLoopAround(file, at, depth);
  if (!around)
    return std::nullopt;
  const auto &[loop, holder] = *around;
  const OptionCase unread{true, std::nullopt};
  const std::size_t bodyEnd = loop.body.end;
  const std::size_t statement = statementStartAround(code, at);
  const std::optional<std::string> assigned = assignedText(code, at, name);
  if ((before >= loop.open && before < bodyEnd) || !assigned || readsName(*assigned, name))
    return unread; // read in the loop, or changed from itself
  const OptionLoopRun &run = handLoopRun(file, loop, holder, statement);
  if (!run.stuck.empty()) {
    folder_.leftOpen("`" + name + "` is set in the option loop at " + source.where(loop.loop.at) + ", where " +
                     run.stuck + ", " + programRun(folder_.arguments_));
    return unread;
  }
  if (!run.reached) {
    if (run.passes == 0) // the untaken() of a condition that steps
      folder_.note({quotedCode(loop.loop.text(source.text())) + " at " + source.where(loop.loop.at) +
                    " is false on entry, " + programRun(folder_.arguments_)});
    return OptionCase{false, std::nullopt}; // no argument takes the branch
  }
  // Of several changes in the loop (`-n 4096` and `--large`), the one the last pass reaching any runs sets it.
  for (const std::size_t other : changesWithin(code, name, loop.open, bodyEnd)) {
    if (other == at)
      continue;
    const OptionBranch *otherHolder = branchHolding(loop.body, other);
    const std::optional<std::string> otherAssigned = otherHolder ? assignedText(code, other, name) : std::nullopt;
    if (!otherAssigned || readsName(*otherAssigned, name))
      return unread; // changed another way (`n *= 2`), or outside the branches
    const std::size_t otherStatement = statementStartAround(code, other);
    const OptionLoopRun &otherRun = handLoopRun(file, loop, otherHolder, otherStatement);
    if (!otherRun.stuck.empty())
      return unread;
    if (otherRun.reached &&
        (otherRun.ordinal > run.ordinal || (otherRun.ordinal == run.ordinal && otherStatement > statement)))
      return OptionCase{false, std::nullopt}; // a later change sets it
  }
  folder_.note({"`" + name + "` set at " + source.where(at) + " in the pass of the option loop at " +
                source.where(loop.loop.at) + " over " + run.over + ", " + programRun(folder_.arguments_)});
  const std::optional<std::string> read = readInPass(loop, run, *assigned);
  const Impl::ShiftedArray rewritten{loop.head.shifted, file, at};
  const Impl::ShiftedArray *const outer = folder_.shiftedArray_;
  folder_.shiftedArray_ = loop.head.shifted.empty() ? outer : &rewritten;
  const std::optional<Number> value = read ? folder_.number(file, at, *read, depth + 1) : std::nullopt;
  folder_.shiftedArray_ = outer;
  return OptionCase{true, value};
}

std::optional<std::optional<std::string>>
ConstantFolder::Impl::CommandLine::optionLoopReturn(std::size_t file, std::size_t at, int depth) const {
  const CudaCode &source = folder_.files_[file];
  const std::string &code = source.code();
  const std::optional<std::pair<HandLoop, const OptionBranch *>> around = handLoopAround(file, at, depth);
  if (!around || !around->first.head.shifted.empty() || code.compare(at, 6, "return") != 0)
    return std::nullopt; // one that moves `argv` on is read where it moves it (handReadOption())
  const auto &[loop, holder] = *around;
  const OptionLoopRun &run = handLoopRun(file, loop, holder, at);
  if (!run.stuck.empty()) {
    folder_.leftOpen("the `return` at " + source.where(at) + " is in the option loop at " + source.where(loop.loop.at) +
                     ", where " + run.stuck + ", " + programRun(folder_.arguments_));
    return std::nullopt;
  }
  if (!run.returned) // no pass runs it: the loop ends, and the body goes on after it
    return std::optional<std::string>();
  if (!run.reached) // another `return` runs first
    return std::optional<std::string>();
  const std::size_t end = statementEndFrom(code, at);
  if (end == std::string::npos)
    return std::nullopt;
  folder_.note({"the `return` at " + source.where(at) + " runs in the pass of the option loop at " +
                source.where(loop.loop.at) + " over " + run.over + ", " + programRun(folder_.arguments_)});
  const std::optional<std::string> read =
      readInPass(loop, run, trimmed(std::string_view(code).substr(at + 6, end - 1 - at - 6)));
  return read ? std::optional<std::optional<std::string>>(read) : std::nullopt;
}

} // namespace ptxdvfs::tools
