// CudaFolderMemo.h - what ConstantFolder::Impl remembers between lookups:
// answers about the host code read once per name, file, class or offset,
// so that a program of thousands of launches reads each only once. Each
// entry, once made, stands for the folder's life, except where Impl
// clears it (a template instance's calls change the switches; a counter's
// value the means and the option loops' runs).
#pragma once

#include "CudaDefinitions.h"
#include "CudaOptionLoops.h"
#include "CudaStructLayout.h"

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ptxdvfs::tools::constants {

struct Remembered {
  using Lookup = expression::Lookup;
  using Number = expression::Number;

  /// Whether a file defines a function, by file and name (callsItsOwn()).
  std::map<std::pair<std::size_t, std::string>, bool> definesFunction;
  /// macro()'s answers for names defined more than once, by unit and name.
  std::map<std::pair<std::size_t, std::string>, std::pair<Lookup, Definition>> agreedMacros;
  /// changedAnywhere()'s answers so far, by name.
  std::map<std::string, bool, std::less<>> globalsChanged;
  /// onlyConstMethods() of each method name asked, read once.
  std::map<std::string, bool, std::less<>> constMethods;
  /// functionReturns()' answers so far, by the caller's unit and name.
  std::map<std::pair<std::size_t, std::string>, std::optional<FunctionReturns>> functionReturns;
  /// The one-return functions looked up so far, by the caller's unit and name.
  std::map<std::pair<std::size_t, std::string>, std::pair<Lookup, ReturnFunction>> returnFunctions;
  /// The switches read so far, by file and the offset of their `switch`.
  std::map<std::pair<std::size_t, std::size_t>, Switch> switches;
  /// The definitions of each function looked up so far by outArgument();
  /// empty for one that takes nothing by non-const reference.
  std::map<std::string, std::vector<ReferenceParameters>, std::less<>> referenceParameters;
  /// Each file's structs (structMembers()), read when first asked, and the members found, by file and type.
  std::map<std::size_t, std::unique_ptr<CudaStructs>> structs;
  std::map<std::tuple<std::size_t, std::string, bool>, std::optional<std::vector<StructMember>>>
      structMembers;
  /// memberChanges()'s answers so far, by class and member.
  std::map<std::pair<std::string, std::string>, MemberChanges> membersChanged;
  /// anotherClass()'s answers so far: whether a class of that name has a body of its own.
  std::map<std::string, bool, std::less<>> classesNamed;
  /// The calls of each function looked up so far, by name.
  std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>, std::less<>> calls;
  /// arrayWritten()'s answers so far, by the file and offset of the array's name.
  std::map<std::pair<std::size_t, std::size_t>, bool> arraysWritten;
  /// The parameters (function, index) whose calls agree, on what, the
  /// notes that value rests on, and how many loop counters' middles.
  std::map<std::pair<std::string, std::size_t>, std::tuple<Definition, std::vector<std::string>, std::size_t>>
      parametersFound;
  /// The runs of option loops (CommandLine::handReadOption()), by file, the loop's offset and the statement's.
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, OptionLoopRun> optionLoopRuns;
  /// arrayElement()'s means over a counter, by array, loop, index and the middle's index.
  std::map<std::string, std::optional<Number>, std::less<>> meansFound;
};

} // namespace ptxdvfs::tools::constants
