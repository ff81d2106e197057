// CudaConstantsImpl.h - what ConstantFolder's files share: the folder's
// state and its lookups (their results in CudaDefinitions.h). Private to
// the folder.
#pragma once

#include "CudaCode.h"
#include "CudaConstants.h"
#include "CudaDefinitions.h"
#include "CudaDevice.h"
#include "CudaExpression.h"
#include "CudaFolderMemo.h"
#include "CudaLoopHeaders.h"
#include "CudaStatements.h"
#include "CudaStructLayout.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

/// The folding itself: the files, an index of their macros, and the lookups.
class ConstantFolder::Impl {
  using Definition = constants::Definition;
  using ReturnFunction = constants::ReturnFunction;
  using Lookup = expression::Lookup;
  using Number = expression::Number;
  using FunctionMacro = expression::FunctionMacro;
  using Dim3 = ptx::analysis::Dim3;
  using ReferenceParameters = constants::ReferenceParameters;
  using DeviceQuery = constants::DeviceQuery;
  using MethodScope = constants::MethodScope;
  using MemberChanges = constants::MemberChanges;
  using OutArgument = constants::OutArgument;
  using StructFound = constants::StructFound;

public:
  class Notes;

  Impl(const std::vector<CudaSourceFile> &files, const TargetDevice *device, std::vector<std::string> arguments);

  const std::vector<CudaCode> &files() const { return files_; }
  const std::vector<std::string> &arguments() const { return arguments_; }
  struct UndeclaredOption {
    std::size_t file, offset;
    std::string name;
  };
  const std::vector<UndeclaredOption> &undeclaredOptions() const { return undeclaredOptions_; }
  bool sees(std::size_t file, std::size_t other) const { return seen_[file][other]; }

  std::optional<Dim3> dimension(std::size_t file, std::size_t offset, const std::string &text, int depth = 0) const;
  std::optional<Number> number(std::size_t file, std::size_t offset, const std::string &text, int depth = 0) const;
  std::optional<bool> branchTaken(std::size_t file, const LoopHeader &header) const { return taken(file, header, 0); }
  /// ConstantFolder::elementsOf(); CudaContainers.cpp.
  std::optional<std::uint64_t> elementsOf(std::size_t file, std::size_t offset, const std::string &range,
                                          int depth) const;
  /// Where the function `name` is called, by file and offset; its calls of
  /// itself too, whose arguments are folded as others are. Only the calls
  /// of the instance read (readCalls()) for a template it names.
  const std::vector<std::pair<std::size_t, std::size_t>> &callsOf(const std::string &name) const;
  /// Every call of `name` in the files, whichever calls are read now; cached.
  const std::vector<std::pair<std::size_t, std::size_t>> &everyCallOf(const std::string &name) const;

  std::optional<std::string> templateArgument(std::size_t file, std::size_t offset, const std::string &name,
                                              int depth) const;
  std::optional<TemplateCalls> templateCallsAround(std::size_t file, std::size_t offset) const;
  /// The calls of templates read now (ConstantFolder::InstanceScope), and
  /// replacing them; what was folded from other calls is forgotten.
  /// Those of callsOf(`name`) that call the function defined in
  /// `definedIn`, not another program's own of that name (callsItsOwn()).
  std::vector<std::pair<std::size_t, std::size_t>> callsOf(const std::string &name, std::size_t definedIn) const;
  std::size_t namesExamined() const { return examined_; }
  const TemplateCalls &callsRead() const { return callsRead_; }
  /// The counters standing for one value (CounterScope), by file and the
  /// offset of their `for`.
  std::map<std::pair<std::size_t, std::size_t>, std::int64_t> &countersSet() const { return countersSet_; }
  /// Forgets the parameters found, for those that rest on a counter set.
  void forgetParametersFound() const {
    remembered_.parametersFound.clear();
    remembered_.meansFound.clear();
    remembered_.optionLoopRuns.clear(); // their conditions may read the counter
  }
  void readCalls(TemplateCalls calls) const;
  std::size_t callsChanged() const { return callsChanged_; }

private:
  class NamesAt;
  class BoundNames;

  /// The macro `name` as the code of `file` sees it (filesSeenTogether()).
  Lookup macro(std::size_t file, const std::string &name, Definition &found) const;
  Lookup functionMacro(std::size_t file, const std::string &name, FunctionMacro &found) const;
  /// The one-return function `name` that code of `caller` calls: its own
  /// program's (filesSeenTogether()), else, where that has none, any file's.
  Lookup returnFunction(std::size_t caller, const std::string &name, ReturnFunction &found) const;
  /// The `return`s of the body of the function `name`, defined once in the
  /// program of `caller`, where the last of them is the body's last
  /// statement, or its last block's; nullopt for a function with no such
  /// `return`, or defined more than once. Cached by the caller's program
  /// and name.
  const std::optional<constants::FunctionReturns> &functionReturns(std::size_t caller, const std::string &name) const;
  /// The `return` the body of the function `name` reaches (functionReturns()),
  /// its value read where it is written, the function's parameters as every
  /// call passes them: `int blocksFor(int n) { int threads = 256; return (n
  /// + threads - 1) / threads; }`, `Options parse(...) { Options o; ...;
  /// return o; }`. Of several, the first that is not in a branch the
  /// program does not take, where it is in no loop and only in branches
  /// taken: `if (argc > 1) return atoi(argv[1]); return 4096;`. nullopt
  /// where the one reached is not known.
  std::optional<constants::ReturnedValue> reachedReturn(std::size_t caller, const std::string &name, int depth) const;
  /// What `name(arguments)`, called from the statement at `offset` of
  /// `caller`, returns; its body sees the names of its own place, not the
  /// caller's. A body of several statements (reachedReturn()) returns what
  /// the one call of `name` in that statement makes it return (CallScope:
  /// `getIntArg(argc, argv, "-b", 128)`), else what every call makes it
  /// return, whatever `arguments` are, and takes calls whose arguments do
  /// not fold (nullopt: `parse(argc, argv)`).
  std::optional<Number> function(std::size_t caller, std::size_t offset, const std::string &name,
                                 const std::optional<std::vector<Number>> &arguments, int depth) const;
  /// While it lives, the calls of one function are one call alone (callsOf()): its body, of several statements,
  /// is read for that call, its parameters as that call passes them. What the folder remembers that rests on
  /// parameters' values (the parameters found, switches, option loops' runs, means) is kept apart and dropped
  /// when it ends, for the call to see no other call's and leave none behind.
  class CallScope;
  /// A CallScope for the one call of `function` in the statement of `file` from `offset` on; none where there is
  /// none or several, or where that statement is in `function`'s own body while a CallScope reads its calls
  /// (its call of itself, whose parameters are read for the outer call).
  std::optional<CallScope> callScopeAt(std::size_t file, std::size_t offset, const std::string &function) const;
  /// The variable `name` as seen just `before` an offset of `file` (only
  /// file-scope ones from another file); Absent where none is declared.
  Lookup variable(std::size_t file, std::size_t before, const std::string &name, bool fileScopeOnly, int depth,
                  Definition &found) const;
  /// Whether the branch `header` (an `if` or an `else`) is taken by the
  /// program run with arguments_ (ConstantFolder::branchTaken()), or false
  /// for a `while` or `for` whose condition is false on entry; nullopt
  /// where it does not fold, and for other loops. Notes the condition.
  std::optional<bool> taken(std::size_t file, const LoopHeader &header, int depth) const;
  /// taken() for the `case` of a `switch`: whether the switch, its value
  /// folded, jumps to a label that leads to the header's statement (with
  /// only plain statements between); nullopt where its value or a label's
  /// does not fold, or the way there may leave the switch.
  std::optional<bool> caseTaken(std::size_t file, const LoopHeader &header, int depth) const;
  /// The `switch` of the `case` header `header`, read and its labels
  /// folded on first use (without notes: a reason names the label taken).
  const constants::Switch &switchOf(std::size_t file, const LoopHeader &header, int depth) const;
  /// The condition of a branch or a `while`, or a `switch`'s value, folded as
  /// taken() reads it; `withoutArguments` tells whether command-line calls were read as such.
  std::optional<Number> headCondition(std::size_t file, const LoopHeader &header, int depth,
                                      bool &withoutArguments) const;
  /// Whether the change or call at `at` is under a branch that the
  /// program does not take (taken()) and that does not hold `before`
  /// (npos: any branch).
  bool untaken(std::size_t file, std::size_t at, std::size_t before, int depth) const;
  /// Whether the statement at `at` runs once each time the code at
  /// `before`, after it, runs: the branches around it alone are taken
  /// (taken()), no `#if` branch closes between them, and where it reads
  /// the value it changes (`readsItself`, `n *= 2`), no loop holds both.
  bool runsBeforeEachUse(std::size_t file, std::size_t at, std::size_t before, bool readsItself, int depth) const;
  /// A variable passed at `at` of `file` to a function that may set it
  /// (constants::OutArgument); nullopt where `at` is no such argument (passed by value or by const
  /// reference, to a function the files neither define nor declare, or in no call).
  std::optional<OutArgument> outArgument(std::size_t file, std::size_t at, std::size_t length) const;
  /// Whether the name of `length` characters at `at` of `file` is passed
  /// by address to a call that only reads it, though changesAt() sees a
  /// change: a CUDA copy or launch (passedToBeRead()), or a function of
  /// the files whose every declaration that fits the call takes a pointer
  /// to const there (`void show(const Params *p)` called as `show(&p)`).
  bool onlyRead(std::size_t file, std::size_t at, std::size_t length) const;
  /// The definitions of `callee` in the files, else its declarations, cached; empty where none
  /// takes anything by reference or pointer.
  const std::vector<ReferenceParameters> &referenceParametersOf(const std::string &callee) const;
  /// What the call of `out` leaves in its argument, a number or a `dim3`
  /// (`void setup(int n, dim3 &grid)`): the parameter's value where the
  /// callee's body is left (bodyLeftAt()), its parameters read as every call
  /// passes them (CUDA samples' `getNumBlocksAndThreads(n, 64, 256,
  /// blocks, threads)`); nullopt where that does not fold (calls that
  /// pass different values among them).
  /// `passed` is the caller's variable, in `callFile`, whose value a
  /// pointer's target keeps where the body sets nothing there.
  std::optional<Definition> valueLeftBy(const OutArgument &out, std::size_t callFile, const std::string &passed,
                                        int depth) const;
  /// What the call of `out`, given a struct by reference (`void
  /// parse(int argc, char **argv, Options &o)`) or by address (`Options
  /// *o`, called with `&o`), leaves in its member `fields`: that member of
  /// the parameter where the callee's body is left (member()), else what
  /// the call's own argument held. Unknown for a function only declared.
  Lookup memberLeftBy(const OutArgument &out, const std::string &fields, int depth, Definition &found) const;
  /// Where the function body `body` of `file` is left when it runs: at the
  /// first `return` that is not in a branch the program does not take,
  /// where it is in no loop and only in branches taken (`if (argc < 2)
  /// return;` run bare), else just before its `}`; nullopt where a
  /// `return` may or may not run. What the body leaves in a variable is
  /// read there. Where `returned` is given, a `return` in a branch of a
  /// loop that reads options by hand counts too, where the loop's run
  /// reaches it (CommandLine::optionLoopReturn()), the text it returns,
  /// read in that pass, set in `returned`; one that no pass reaches is
  /// passed by.
  std::optional<std::size_t> bodyLeftAt(std::size_t file, int body, int depth, std::string *returned = nullptr) const;
  /// `value`, a definition as member() finds it, with its number or
  /// `dim3` folded where it is written, for a reader at another place
  /// (whose parameters the fold must not see). Unknown where it does not fold.
  Lookup foldedWhereWritten(const Definition &value, int depth, Definition &found) const;
  /// What a CUDA runtime query of the device, passed the name at `at` of
  /// `file` by address, leaves there as seen at `before`:
  /// `cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0)` gives
  /// `v` (`member` empty), `cudaGetDeviceProperties(&prop, 0)` gives
  /// `prop.member` (`member` `multiProcessorCount`), device_'s values.
  /// Absent where `at` is no such query; Unknown where the device, the
  /// attribute or the member is not known, or the query may not run once
  /// before `before` (runsBeforeEachUse()).
  Lookup deviceQuery(std::size_t file, std::size_t at, std::size_t length, const std::string &member,
                     std::size_t before, int depth, Definition &found) const;
  /// The query that passes the name of `length` characters at `at` by
  /// address; nullopt where it is passed to no device query. Its other
  /// arguments are folded `depth` deep (an occupancy query's block size).
  std::optional<DeviceQuery> deviceQueryAt(std::size_t file, std::size_t at, std::size_t length,
                                           const std::string &member, int depth) const;
  /// What an occupancy query (`cudaOccupancyMaxPotentialBlockSize`,
  /// `cudaOccupancyMaxActiveBlocksPerMultiprocessor`) leaves in its
  /// argument `index`, its arguments `arguments` folded at `at`: what the
  /// runtime computes for device_ for a kernel that registers do not limit
  /// (at most 32 per thread, which the PTX does not tell: ptxas
  /// allocates them). nullopt for another argument, or one that does not fold.
  std::optional<std::int64_t> occupancy(std::size_t file, std::size_t at, const std::string &callee,
                                        std::size_t index, const std::vector<std::string> &arguments,
                                        int depth) const;
  /// Whether the name at `at` is passed to a device query in another
  /// function than `before`'s: a global's, which queriedGlobal() reads,
  /// or another function's local, neither of which a local lookup reads.
  bool queriedElsewhere(std::size_t file, std::size_t at, std::size_t length, std::size_t before) const;
  /// `query`'s value as a definition of the name at `at`, noted with `assumed` after its reason.
  Definition deviceValue(std::size_t file, std::size_t at, std::size_t length, const std::string &member,
                         const DeviceQuery &query, const std::string &assumed) const;
  /// The global `name` (its `member`, where given) where every change of
  /// it in the files is a device query that leaves the same value: that
  /// value, the queries taken to run before any use. Unknown otherwise.
  Lookup queriedGlobal(const std::string &name, const std::string &member, int depth, Definition &found) const;
  /// What the pointer parameter `name` points at just `before` an offset
  /// of its function's body in `file`: the last statement `*name = e;`
  /// that runs once before it. Unknown where the pointer is used any other
  /// way in between (passed on, indexed, moved); Absent where nothing there
  /// sets it, so that it holds what the caller's variable held.
  Lookup pointee(std::size_t file, std::size_t before, const std::string &name, int depth, Definition &found) const;
  /// Whether any of the files may change a variable named `name` after
  /// its declaration (`n = 2`, `n++`, `&n`, `cin >> n`, a call that takes
  /// it by reference): false only where none does, so that a global
  /// declared with a value that no function changes keeps it. Changes of
  /// locals of that name count too. Read once per name.
  bool changedAnywhere(const std::string &name, int depth) const;
  /// Calls `change(file, at)` for each place in the files that may change
  /// a variable named `name`, as changedAnywhere() counts them, until it
  /// returns false. False where it did, or where the files were not read
  /// to the end (kMaxNamesExamined).
  bool eachChangeAnywhere(const std::string &name,
                          const std::function<bool(std::size_t file, std::size_t at)> &change) const;
  /// The value `name` has after a loop whose body is assignments of
  /// plain names, one of them at `at`, the loop running once before
  /// `before`: a `while` whose condition reads them without changing them
  /// (`while (threads < n) threads *= 2;`), the names it needs stepped
  /// together from their values before the loop until the condition
  /// fails, or a counted `for` of another counter (`for (int i = 0; i <
  /// 3; ++i) n /= 2;`), stepped as many times as it counts; at most
  /// kMaxLoopSteps passes. nullopt for anything else.
  std::optional<Number> valueAfterLoop(std::size_t file, std::size_t at, std::size_t before, const std::string &name,
                                       int depth) const;
  /// The counter `name`, changed at `at` in the head of a counted `for`
  /// whose body holds `before` and does not change it: the middle of its values
  /// (`k` in `for (k = 0; k < 100; k++)` is 49), for a kernel launched
  /// with it to weigh as its launches do on average. nullopt for anything else.
  std::optional<Number> counterMiddle(std::size_t file, std::size_t at, std::size_t before, const std::string &name,
                                      int depth) const;
  /// What the counter of the counted loop whose keyword is at `loop` of
  /// file `file` (`header` its text, for reasons) stands for where its
  /// body reads it: one iteration's value (CounterScope), else the middle
  /// of its values (the mean of a scaling one's). nullopt where its range
  /// does not fold, or it runs no iteration.
  std::optional<Number> counterValue(std::size_t file, std::size_t loop, std::string_view header,
                                     const CountedFor &counted, int depth) const;
  /// The counter `name` of the counted `while` `loop` (countedWhile()),
  /// read in its body: the middle of its values, as counterMiddle()'s,
  /// or one iteration's (CounterScope). nullopt for anything else.
  std::optional<Number> whileCounter(std::size_t file, const LoopHeader &loop, const std::string &name,
                                     int depth) const;
  /// The parameter `name` declared at `at` of `list`: the value
  /// every call of its function passes for it (or its default argument).
  Lookup parameter(std::size_t file, const CudaCode::ParameterList &list, std::size_t at, const std::string &name,
                   int depth, Definition &found) const;
  /// A global every change of which is a plain assignment (`rows =
  /// atoi(argv[1]);`) in one function, called somewhere or `main`, read
  /// at `use` of `useFile` outside it: the one assignment that runs
  /// whenever that function reaches its end (or that an option loop's run
  /// reaches), taken to run before the use. Absent where every change is
  /// in a branch the program does not take, so that the declaration's
  /// value holds.
  Lookup globalSetOnce(const std::string &name, std::size_t useFile, std::size_t use, int depth,
                       Definition &found) const;
  /// What the assignment to `name` at `at` in an `if`'s condition gives
  /// it, where C evaluates it: the operands before it fold and do not
  /// decide the condition (conditionAssignment()); nullopt otherwise.
  std::optional<std::string> conditionAssigned(std::size_t file, std::size_t at, const std::string &name,
                                               int depth) const;
  /// What the program reads from the command line it is run with (CudaCommandLineReads.h).
  class CommandLine;
  CommandLine commandLine() const;
  /// The member `fields` (`n`, `in.n`) of the struct parameter `base`
  /// declared at `at` of `list`, taken by value or reference: what every
  /// call of its function passes there, a variable's or member's member
  /// (`run(params)` gives `p.n` as `params.n` where the call is).
  Lookup structParameter(std::size_t file, const CudaCode::ParameterList &list, std::size_t at, const std::string &base,
                         const std::string &fields, int depth, Definition &found) const;
  /// The arguments of the call of `function` at `call` of `callFile`;
  /// nullopt where its parentheses do not close.
  std::optional<std::vector<std::string>> callArguments(std::size_t callFile, std::size_t call,
                                                        const std::string &function) const;
  /// What a call of a function passes for one parameter; nullopt where it
  /// does not say (another overload, a template argument deduced).
  using PassedAt = std::function<std::optional<constants::PassedArgument>(std::size_t file, std::size_t call)>;
  /// The value every call of `function` (those the program takes, else
  /// all) passes, as `passed` reads it, converted to `type`: a dim3 where
  /// `found.dim3`. `key` caches it; `unreadable` says why a call that
  /// `passed` cannot read leaves it open.
  Lookup agreedArgument(const std::pair<std::string, std::size_t> &key, const std::string &function,
                        const std::string &name, const std::vector<std::string> &type, const PassedAt &passed,
                        const std::string &unreadable, int depth, Definition &found) const;
  /// The calls of `function` (defined in `definedIn`) the program takes
  /// (taken()); all of them where it takes none. Not those
  /// of another program (callsItsOwn()).
  std::vector<std::pair<std::size_t, std::size_t>> takenCalls(const std::string &function, std::size_t definedIn,
                                                              int depth) const;
  /// Whether a call of `function` in `callFile` is another program's, of
  /// its own function of that name: its files do not include `definedIn`,
  /// and one of them defines such a function. One that only declares it
  /// may call this one, compiled apart.
  bool callsItsOwn(std::size_t callFile, const std::string &function, std::size_t definedIn) const;
  /// What the folds of a parameter of `function`, defined in `definedIn`,
  /// are cached by: its name and its program.
  std::string programKey(const std::string &function, std::size_t definedIn) const;
  /// The enumerator at `at` of the `enum` whose body is block `body`: its
  /// value, or the one before it plus 1 (the first, 0).
  Lookup enumerator(std::size_t file, int body, std::size_t at, int depth, Definition &found) const;
  /// The value template parameter `index` of `list` (of the function
  /// whose body is `body` in `file`): what every call passes for it.
  Lookup templateParameter(std::size_t file, int body, const CudaCode::TemplateParameterList &list,
                           std::size_t index, int depth, Definition &found) const;
  /// The template parameter list of the class template `className` as
  /// `file` sees it, with the file that declares it; nullopt where none is.
  std::optional<std::pair<std::size_t, CudaCode::TemplateParameterList>> classTemplateList(
      std::size_t file, const std::string &className) const;
  /// The value template parameter `index` of `list`, the list of the
  /// class template `className`, named in one of its member functions:
  /// what every object built writes for it (`Solver<256> s(n)`), or its default.
  Lookup classTemplateParameter(std::size_t file, const std::string &className,
                                const CudaCode::TemplateParameterList &list, std::size_t index, int depth,
                                Definition &found) const;
  /// `name` as seen from `offset` of `file`: a macro, a variable of that
  /// file, or a file-scope one of another; a qualified name
  /// (`cfg::kThreads`, `Config::kBlock`, `::kN`) through qualified().
  Lookup define(std::size_t file, std::size_t offset, const std::string &name, int depth, Definition &found) const;
  /// A constant named with its namespace or class (`cfg::kThreads`,
  /// `Config::kBlock`): declared `const` or `constexpr` in the body of a
  /// `namespace`, `struct` or `class` of the last qualifier's name, in
  /// `file` before `offset` or in a file it sees. Absent where none is.
  Lookup qualified(std::size_t file, std::size_t offset, const std::string &name, int depth, Definition &found) const;

  /// The member `path` of a struct variable (`p.n`, `cfg.grid`, `p.in.n`;
  /// its first name the variable's) as seen just `before` an offset of
  /// `file`: its last assignment (`p.n = 4096;`) that runs once before each
  /// use, else what the variable's initializer (`Params p = {4096, 256};`,
  /// by position or designator, or `= other`) or its struct's default
  /// member initializer gives it, or 0 where the rest is value-initialized.
  /// Unknown where the variable is changed as a whole in a way not read (a
  /// call that may set it, `&p`), is a parameter, or its struct is not
  /// found; Absent where nothing of that name is declared.
  Lookup member(std::size_t file, std::size_t before, const std::string &path, int depth, Definition &found) const;
  /// What the value `value` of struct type `type` (written at `at`: a
  /// braced list, `Type{...}`, another variable's name, or empty for none)
  /// gives its member `path`; `zeroed` where members it leaves out are
  /// value-initialized (a static or global one).
  /// The name a structured binding declares at `at` (`n` of `auto [n,
  /// block] = parse(argc, argv);`): the member at its position of the
  /// struct the initializer gives, a function's result (its return type
  /// names the struct) or `Type{...}`, as memberOfValue() reads it.
  /// Unknown for anything else (a `std::pair`, an array, a name).
  Lookup boundMember(std::size_t file, std::size_t at, const StructuredBinding &binding, int depth,
                     Definition &found) const;
  Lookup memberOfValue(std::size_t file, std::size_t at, std::string type, const std::string &value, bool zeroed,
                       const std::string &path, int depth, Definition &found) const;
  /// The size of the container `name` just `before` an offset of `file`:
  /// what its declaration in a block around it gives a `std::vector`,
  /// Thrust vector or `std::array`, where every use between only reads
  /// it (`v[i]`, `v.data()`, `v.begin()`, a range `for`); nullopt where
  /// it may be resized (`v.push_back(x)`, `f(v)`, `v = w`) or no such
  /// declaration is found. CudaContainers.cpp.
  std::optional<Number> containerSize(std::size_t file, std::size_t before, const std::string &name, int depth) const;
  /// The one-dimension array `name` declared with a braced list, as seen
  /// just `before` an offset of `file`, or a container given its elements
  /// so (containerList()); nullopt for anything else.
  std::optional<constants::ArrayDeclaration> arrayDeclaration(std::size_t file, std::size_t before,
                                                              const std::string &name, int depth) const;
  /// A `std::vector`, Thrust vector or `std::array` declared in `file`
  /// with a braced list (`std::vector<int> sizes = {1024, 4096};`) in a
  /// block around `before`, as an array; or an array of structs (`Case
  /// cases[] = {{1 << 20, 256}}`), which variable() does not read.
  std::optional<constants::ArrayDeclaration> containerList(std::size_t file, std::size_t before,
                                                           const std::string &name, int depth) const;
  /// Whether anything may write `array` (named `name`): in its block, a
  /// local; in any file, a global not `const`. CudaContainers.cpp.
  bool arrayWritten(const constants::ArrayDeclaration &array, const std::string &name) const;
  /// arrayWritten() for an array not `const`, read once per array (Remembered::arraysWritten).
  bool writesArray(const constants::ArrayDeclaration &array, const std::string &name) const;
  /// The element of the array `name` (arrayDeclaration()) at what `index`
  /// folds to, or its member `fields` where not empty (a struct's, as
  /// memberOfValue() reads it in the element's braces): what its list gives it (0 past the list, within its
  /// length), where nothing writes it. Where the index reads the counter
  /// of one host loop around (counterValue()), the mean of the elements
  /// over the counter's values, as the launches read them in turn (cached
  /// by the array, the loop, `indexText` and the middle's index, until a
  /// counter is set: each launch in such a loop would fold it again).
  std::optional<Number> arrayElement(std::size_t file, std::size_t before, const std::string &name,
                                     const std::string &fields, const std::string &indexText,
                                     const std::function<std::optional<Number>()> &index, int depth) const;
  /// Element `index` of `array`, or its member `fields` where not empty
  /// (read in the element's braces, memberOfValue()): what the list gives
  /// it, 0 past the list within the array's length; nullopt otherwise.
  std::optional<Number> listedElement(const constants::ArrayDeclaration &array, std::int64_t index,
                                      const std::string &fields, int depth) const;
  /// The name declared at `at` by the head of a range `for` (`for (int n :
  /// sizes)`), or its member `fields` where not empty (`for (const Case &c
  /// : cases)`), read in its body: the mean over the elements of a braced
  /// list or of an array nothing writes, which its iterations read in turn.
  Lookup rangeForValue(std::size_t file, std::size_t at, const std::string &fields, int depth,
                       Definition &found) const;
  /// The length of the array `name` and the bytes of an element, a built-in type's.
  std::optional<std::pair<std::int64_t, std::int64_t>> arrayShape(std::size_t file, std::size_t before,
                                                                  const std::string &name, int depth) const;
  /// Whether the files define functions named `name` and every one is a
  /// `const` member function, which leaves its object as it was; read
  /// once per name (Remembered::constMethods).
  bool onlyConstMethods(const std::string &name) const;
  /// What the member function `method` of `object` (a variable or member
  /// path) returns for `arguments`, called at `offset` of `file`, where
  /// its body, in its class's, is one `return` (returnFunction()): its
  /// data members and methods read as `object`'s (`g.nx`, `g.cells()`)
  /// where the call is. nullopt for a free function's name, another
  /// body, or a member that is not fixed. CudaMethods.cpp.
  std::optional<Number> method(std::size_t file, std::size_t offset, const std::string &object,
                               const std::string &method, const std::vector<Number> &arguments, int depth) const;
  /// member()'s value as a number: `block.x` of a `dim3` where the path
  /// ends in x, y or z and the rest is one, else the member's value.
  std::optional<Number> memberNumber(std::size_t file, std::size_t offset, const std::string &path, int depth) const;
  /// The structs and classes `file` defines, read on first use.
  const CudaStructs &structsOf(std::size_t file) const;
  /// The members of the struct `type` as `file` sees it (constants::StructFound); with `byName`, its data
  /// members as CudaStructs::dataMembers() tells them, a class's too.
  StructFound structMembers(std::size_t file, const std::string &type, bool byName = false) const;
  /// The member function whose body holds `before` of `file`, where its
  /// class declares a data member `name` (a function's own names hide it).
  std::optional<MethodScope> methodAround(std::size_t file, std::size_t before, const std::string &name) const;
  /// The data member `name` of `method`'s class, named bare in it: in a
  /// constructor, what its member initializer (`n_(n)`, folded in its
  /// body) or else the default member initializer (`int n_ = 4;`) gives
  /// it; in another member function, what the class's one constructor
  /// leaves at the end of its body. Unknown where the class has several
  /// constructors, or code other than a constructor may change the member
  /// (memberChanges()); in a member function other than the one that
  /// sets it (`init`), what that one leaves, taken to run first.
  /// CudaClassMembers.cpp.
  Lookup classMember(std::size_t file, const MethodScope &method, const std::string &name, int depth,
                     Definition &found) const;
  /// What the body of `method` (a constructor, the member function that
  /// sets the member, or any other) last assigns to the data member
  /// `name` before `before`, as `this->name = ...;` or, where no
  /// parameter of its name hides it, `name = ...;`; what classMember()
  /// gives where it assigns none. Unknown where the assignment may not run
  /// once before it, or a local of the member's name is declared.
  Lookup bodyAssignment(std::size_t file, const MethodScope &method, const std::string &name,
                               std::size_t before, int depth, Definition &found) const;
  /// Whether every function named `method` in the files is a member
  /// function of a class whose data member `member` nothing but its
  /// constructors changes (memberChanges()): calling it leaves that member
  /// of its object as it was.
  bool methodsLeave(const std::string &method, const std::string &member) const;
  /// Whether the files define a constructor of the class `className`.
  bool definesConstructor(const std::string &className) const;
  /// The member `fields` (`n_`, `grid_.nx`) of the local object declared
  /// at `at` of `file`, of the class `className`, which has a constructor:
  /// what classMember() gives it with that object's construction as the
  /// constructor's one call (for a member of a member, as all objects
  /// built agree on it).
  Lookup objectMember(std::size_t file, std::size_t at, const std::string &className, const std::string &fields,
                      int depth, Definition &found) const;
  /// The member `fields` (`nx`) of the struct-typed data member `base`
  /// (`grid_`) of `method`'s class, named bare in it: read in the value
  /// classMember() gives `base`, or, where nothing gives it one, in the
  /// default member initializers of its struct.
  Lookup classMemberField(std::size_t file, const MethodScope &method, const std::string &base,
                          const std::string &fields, int depth, Definition &found) const;
  /// Where the data member `name` of `className` is changed outside the
  /// bare names of its constructors' bodies; read once per class and member.
  const MemberChanges &memberChanges(const std::string &className, const std::string &name) const;
  /// Whether the type words `type` name a class or struct other than
  /// `className` that the files define with a body of its own (a
  /// typedef may rename `className`); cached by name.
  bool anotherClass(const std::vector<std::string> &type, const std::string &className) const;

  /// Adds `notes` (what a value rests on) to those of the fold under way, once each.
  void note(std::vector<std::string> notes) const;
  /// Adds `why` (why a value is open) to the open notes of the fold under way, once; Unknown.
  Lookup leftOpen(std::string why) const;

  /// Adds the `#define`s of `file` to objectLike_ and functionLike_.
  void indexMacros(std::size_t file);

  std::vector<CudaCode> files_;
  /// The GPU the program runs on, whose properties its device queries
  /// read; null where none is known (they are open).
  const TargetDevice *device_ = nullptr;
  /// The command-line arguments the program is read as run with, after its name (`argv[1]` on).
  std::vector<std::string> arguments_;
  /// SHOC option reads that no declaration in the files names (withOptionParserReads()), in file order.
  std::vector<UndeclaredOption> undeclaredOptions_;
  /// What `optarg` reads while a `getopt` case is folded (CommandLine); null elsewhere.
  mutable const std::string *optarg_ = nullptr;
  /// Where an option loop that moves `main`'s `argv` on (`argv++`) has a value read (CommandLine::
  /// handReadOption()): the array, read at that offset alone as `main` got it, its reads rewritten to where the
  /// loop has moved it (withShiftedRead()); null elsewhere.
  struct ShiftedArray {
    std::string array;
    std::size_t file = 0, offset = 0;
  };
  mutable const ShiftedArray *shiftedArray_ = nullptr;
  /// Occurrences of names and tokens of macros looked at so far, against kMaxNamesExamined.
  mutable std::size_t examined_ = 0;
  /// Per file, the files its code sees (filesSeenTogether()): their
  /// macros, and their file-scope constants.
  std::vector<std::vector<bool>> seen_;
  /// The answers read once (CudaFolderMemo.h).
  mutable constants::Remembered remembered_;
  /// Every object-like `#define` by name, with the file it is in (macro()
  /// takes those a file sees, where they agree).
  std::map<std::string, std::vector<std::pair<std::size_t, Definition>>, std::less<>> objectLike_;
  /// Per file, a number shared by the files that see the same files.
  std::vector<std::size_t> unitOf_;
  /// Every function-like `#define` likewise.
  std::map<std::string, std::vector<std::pair<std::size_t, FunctionMacro>>, std::less<>> functionLike_;
  /// The parameters (function, index) whose calls are being folded, so
  /// that functions calling each other do not fold round and round.
  mutable std::set<std::pair<std::string, std::size_t>> parametersOpen_;
  /// The calls read for the templates they name (readCalls()), and how many times they changed.
  mutable TemplateCalls callsRead_;
  mutable std::size_t callsChanged_ = 0;
  /// The one call each function's calls stand for while a CallScope reads its body for it.
  mutable TemplateCalls callsBound_;
  /// How many times a loop counter stood for its middle value, so far, and the last one's loop and range.
  mutable std::size_t middles_ = 0;
  mutable std::optional<constants::CounterRead> lastMiddle_;
  mutable std::map<std::pair<std::size_t, std::size_t>, std::int64_t> countersSet_;
  /// Where the fold under way collects its notes (Notes): what its value
  /// rests on, and why parameters it reads are open; null where nobody asks.
  mutable std::vector<std::string> *notes_ = nullptr, *openNotes_ = nullptr;
  /// notes_ and openNotes_ as they were before each quiet(true) still open (NamesAt::quiet()).
  mutable std::vector<std::pair<std::vector<std::string> *, std::vector<std::string> *>> quieted_;
};

} // namespace ptxdvfs::tools
