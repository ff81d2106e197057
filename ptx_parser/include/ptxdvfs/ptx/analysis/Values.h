// Values.h - what a register holds, given assumptions about the launch and the parameters.
#pragma once

#include "ptxdvfs/ptx/Module.h"
#include "ptxdvfs/ptx/analysis/ControlFlow.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ptxdvfs::ptx::analysis {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
};

inline bool operator==(const Dim3 &a, const Dim3 &b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
inline bool operator!=(const Dim3 &a, const Dim3 &b) { return !(a == b); }

/// A number `--assume` gives a parameter: whole (any integer parameter, or
/// a float one, which holds it exactly where it can) or real (only a
/// floating-point parameter can hold it; an integer load of it is unknown).
class AssumedValue {
public:
  template <typename Integer, std::enable_if_t<std::is_integral_v<Integer>, int> = 0>
  AssumedValue(Integer whole) : real_(static_cast<double>(whole)), whole_(whole) {}
  /// A real number; whole when it is an integer within int64.
  static AssumedValue real(double number);

  double number() const { return real_; }
  /// The integer, when the number is whole.
  std::optional<std::int64_t> whole() const { return whole_; }
  /// As written back to the user: the integer, or the shortest decimal
  /// that reads back as the same double.
  std::string text() const;

  /// The same number, whole on both sides or on neither.
  friend bool operator==(const AssumedValue &a, const AssumedValue &b) {
    return a.real_ == b.real_ && a.whole_.has_value() == b.whole_.has_value();
  }
  friend bool operator!=(const AssumedValue &a, const AssumedValue &b) { return !(a == b); }

private:
  AssumedValue(double number, std::optional<std::int64_t> whole) : real_(number), whole_(whole) {}
  double real_;
  std::optional<std::int64_t> whole_;
};

/// The short name `--assume` also takes for a PTX parameter: `param_2` for
/// `_Z5saxpyifPKfPf_param_2`; empty for a name without `_param_`.
std::string_view shortParameterName(std::string_view ptxName);

/// How much a value can be trusted, worst first from the bottom up: a
/// value combined from several takes the worst of their origins.
enum class ValueOrigin : std::uint8_t {
  Constant,  ///< immediates and the representative thread's indices only
  Assumed,   ///< uses a value the user gave (`--assume`, `--grid`, `--block`)
  Defaulted, ///< uses a documented default (launch geometry)
  Unknown,   ///< depends on memory, on an unset parameter, or on what is not modelled
};

std::string_view toString(ValueOrigin origin);

/// What the host code's launches of one kernel fix
/// (`scale<<<blocks, 128>>>(x, 1000)`), read from its CUDA source by the
/// tools: each argument is set only where every launch of the kernel
/// gives the same constant; the grid and the block also where the
/// launches differ, as their mean (`gridIsMean`, `blockIsMean`).
struct SourceLaunch {
  std::optional<Dim3> grid, block;
  /// Per kernel parameter, in order: its value at every launch; empty
  /// when the launches' arguments are not read.
  std::vector<std::optional<AssumedValue>> arguments;
  /// Per kernel parameter, in order: the fields of a struct passed by
  /// value that the launch gives, by byte offset (a launch file's
  /// `d_dim.number_boxes` or `param_3+20`); may be shorter than the
  /// parameters, or empty.
  std::vector<std::map<std::int64_t, AssumedValue>> fields;
  std::string at; ///< where the first launch is, which reasons name: `main.cu:57`
  /// Times the kernel is launched: a launch file's `launches`, or in host
  /// code its launch sites, each times the loops around it and around
  /// the calls of the function it is in (the tools' HostRunCounter). With
  /// the threads of one launch, how much of its application the kernel
  /// is (LaunchSize). 0 for a kernel the host code read launches nowhere,
  /// where it launches others of the module: it runs no thread.
  std::uint64_t launches = 1;
  /// Assumed where the launch file or the source gives `launches`;
  /// Defaulted where a host loop's count rests on a default.
  ValueOrigin launchesOrigin = ValueOrigin::Assumed;
  /// Why `launches` is not 1, in a reason's words ("launched 100 times:
  /// ..."), or why it is 1 for a kernel whose every launch is under a
  /// branch not taken ("never launched by ..."); empty: "launched N times
  /// (the launch at `at`)" where it is not 1, else nothing to say.
  std::string launchesWhy;
  /// Why the grid, the block or an argument (`argumentsOpen`, in step with
  /// `arguments`) was left unset, for the reason of the default that
  /// replaces it: "the launch at main.cu:40 passes `n`, which the source
  /// does not fix". Empty where it is set.
  std::string gridOpen, blockOpen;
  std::vector<std::string> argumentsOpen;
  /// What the grid, the block or an argument (`argumentsHow`, in step
  /// with `arguments`, or empty) rests on beyond its launch's text, for
  /// reasons: "`n` = 4096, as `run`'s call at main.cu:40 passes it".
  /// Empty where the launch's text alone fixes it, or it is open.
  std::string gridHow, blockHow;
  std::vector<std::string> argumentsHow;
  /// Whether the grid or the block is the mean of launches that differ,
  /// weighted by how often each runs (`gridHow`/`blockHow` then say so,
  /// and name the launches), rather than what every launch gives.
  bool gridIsMean = false, blockIsMean = false;

  /// One launch as its site (or its helper's call) gives it, every size
  /// and argument read.
  struct Binding {
    Dim3 grid, block;
    std::vector<std::optional<AssumedValue>> arguments; ///< per kernel parameter, in order; nullopt: not read
    std::uint64_t launches = 1;          ///< how many times it runs
    std::string at;                      ///< where, for reasons: `main.cu:57`
  };
  /// Where the launches differ in their sizes or arguments and each one's
  /// are read: each launch, in order (expandKernel() counts a loop that
  /// rests on them once per launch, where the mean sizes and the open
  /// arguments above leave it to the default); empty otherwise.
  std::vector<Binding> bindings;
};

/// `--assume` values by parameter name, or by the name of a `__constant__`
/// variable (its PTX name; NAME+BYTES for a field or element).
using AssumedParameters = std::map<std::string, AssumedValue, std::less<>>;

/// The launch and the values the static analysis cannot see. A kernel is
/// analysed for one representative thread: thread 0 of block 0
/// (`%tid`, `%ctaid`, `%laneid` read 0), so a grid-stride loop runs its
/// largest per-thread count, ceil(n / (blockDim * gridDim)).
struct LaunchAssumptions {
  /// `--block X[,Y[,Z]]`: %ntid. Unset: the kernel's `.reqntid` (the
  /// block size it must be launched with), else the launch in its CUDA
  /// source (`sourceLaunches`), else its `.maxntid`
  /// (`__launch_bounds__`: the most threads per block it allows, and the
  /// size it is most likely launched with; reported as a default), else
  /// kDefaultBlock (a default).
  std::optional<Dim3> block;
  /// The `.reqntid` and `.maxntid` of the kernel being read, which a
  /// `.func` inlined into it reads %ntid under too; expandKernel fills
  /// them. Unset: those of the function the evaluator reads, if any.
  std::optional<Dim3> requiredBlock, maximumBlock;
  /// `--grid X[,Y[,Z]]`: %nctaid. Unset: the launch in the kernel's CUDA
  /// source, else kDefaultGrid (reported as a default).
  std::optional<Dim3> grid;
  /// Per kernel (PTX name), the geometry its launches in the CUDA source
  /// give (filled by callers that can read the source); may be empty.
  /// Read as assumed: the source says so, but another build may differ.
  std::map<std::string, SourceLaunch, std::less<>> sourceLaunches;
  /// The source launch of the kernel being read, which a `.func` inlined
  /// into it reads too; expandKernel fills it. Unset: the entry of the
  /// function the evaluator reads in `sourceLaunches`, if any.
  std::optional<SourceLaunch> launch;
  /// `--assume NAME=VALUE`: kernel parameters by PTX name
  /// (`_Z5saxpyifPKfPf_param_0`), by its suffix (`param_0`), or by the
  /// CUDA source name when the caller knows it (see `sourceParameterNames`).
  AssumedParameters parameters;
  /// Per kernel or function name, the CUDA names of its parameters in order
  /// (filled by callers that can read the source); may be empty.
  std::map<std::string, std::vector<std::string>, std::less<>> sourceParameterNames;
  /// Per kernel or function name, per parameter (in order), the CUDA names
  /// of the fields of a struct passed by value by byte offset
  /// (`d_dim.number_boxes`): what reasons call the field, and a name
  /// `--assume` takes for it. May be empty.
  std::map<std::string, std::vector<std::map<std::int64_t, std::string>>, std::less<>> sourceFieldNames;
  /// The same for a struct held in a `__constant__` variable, by the variable's name.
  std::map<std::string, std::map<std::int64_t, std::string>, std::less<>> constantFieldNames;
  /// `__constant__` values a launch file gives (its "constants"), by any
  /// name `parameters` takes for them; `parameters` (`--assume`) still wins.
  AssumedParameters launchConstants;
  /// The launch file they come from, which reasons name; empty without one.
  std::string launchConstantsAt;
  /// `__constant__` values the host code writes before the launches
  /// (`cudaMemcpyToSymbol(c_n, &n, sizeof(int))` where the source fixes
  /// `n`), by the names `parameters` takes, with what each rests on for
  /// reasons; `parameters` and `launchConstants` win.
  AssumedParameters sourceConstants;
  std::map<std::string, std::string, std::less<>> sourceConstantsHow;
};

/// NAME+BYTES (`d_dim+36`, a field of a struct or an element) split into
/// NAME and BYTES; nullopt for a name without a `+` and decimal digits
/// after it, or bytes past int64.
std::optional<std::pair<std::string_view, std::int64_t>> splitFieldOffset(std::string_view name);

inline constexpr Dim3 kDefaultBlock{256, 1, 1};
inline constexpr Dim3 kDefaultGrid{1024, 1, 1};

/// The dimensions a performance directive of `function` gives
/// (`.reqntid 128` -> {128, 1, 1}); nullopt when it has none of that name.
std::optional<Dim3> blockDirective(const Function &function, std::string_view name);

/// The reason a loop report gives when thread 0's branches lead past the
/// loop: why it does not run, not a value its count rests on.
inline constexpr const char *kLeadsPastLoop = "thread 0's branches lead past this loop";

/// A register's value (its bits: sign-extended for signed integer types,
/// the IEEE bits for f32 and f64) with where it came from; `why` names the assumptions, defaults
/// or unknowns it depends on ("parameter param_2", "%ntid.x = 256 (default)").
struct Value {
  std::optional<std::int64_t> number;
  ValueOrigin origin = ValueOrigin::Constant;
  std::vector<std::string> why;
  /// Depends on the thread's index (%tid, %ctaid, %laneid, %warpid): true
  /// for the representative thread only, so no branch is decided by it.
  bool perThread = false;
  /// For a counter's entry value: thread 0's branches lead past the loop,
  /// so it brings no value and the loop runs 0 times for it.
  bool threadZeroSkipsLoop = false;
  /// For an unknown number: the most it can be, where its computation
  /// caps it (`and x, 3` or `rem.u32 x, 4`: 3). Never set on a known one.
  std::optional<std::int64_t> atMost = std::nullopt;
  /// For an unknown number: the least it can be, where it negates a capped
  /// one (`neg` of `and x, 3`: -3); the most is then 0. Never set on a known one.
  std::optional<std::int64_t> atLeast = std::nullopt;
  /// For an unknown number: an address known relative to a base the
  /// analysis cannot see (a pointer parameter, `cvta` of one), so that two
  /// addresses from one base compare (`p < a + n`). Never set on a known one.
  struct FromBase {
    std::uint32_t base = 0;   ///< the instruction whose result the base is
    std::int64_t offset = 0;  ///< bytes from it
    ValueOrigin origin = ValueOrigin::Constant; ///< of the offset
    std::vector<std::string> why;               ///< of the offset
  };
  std::optional<FromBase> fromBase = std::nullopt;

  static Value unknown(std::string reason);
  static Value constant(std::int64_t number) { return Value{number, ValueOrigin::Constant, {}}; }
  bool known() const { return number.has_value(); }
};

/// A register's value where several of its definitions meet, known from
/// outside the value analysis: an induction variable in the loop iteration
/// being expanded, or a counter's value after its loop has run.
struct Binding {
  Value value; ///< with the provenance of that knowledge
  /// The definitions whose meeting it stands for, sorted; empty: any. A read
  /// that another definition also reaches is not covered (the register was
  /// written again since).
  std::vector<std::uint32_t> definitions;
};
using Bindings = std::map<std::string, Binding, std::less<>>;

/// Evaluates the integer registers of one function, and the f32/f64 ones a
/// bound is computed in, by following their reaching definitions back
/// through the control-flow graph.
///
/// Queries remember what does not depend on their bindings (the reaching
/// definitions, and each definition's value whose reading looked up no
/// binding) for the queries after them: an expansion asks the same branch
/// conditions once per written iteration. So const queries write to the
/// evaluator; one evaluator serves one thread.
class ValueEvaluator {
public:
  /// `module`, when given, is the one the function is in: a load from one
  /// of its `.const` variables (`ld.const [NbrListLen]`, set by the host
  /// with cudaMemcpyToSymbol) then reads as `--assume` or its initializer
  /// give it, else as unknown with the variable named.
  ValueEvaluator(const ControlFlowGraph &graph, const LaunchAssumptions &assumptions,
                 const Module *module = nullptr);

  /// Instructions (indices into graph.instructions) that write `reg`.
  const std::vector<std::uint32_t> &definitionsOf(std::string_view reg) const;
  /// The definitions of `reg` that reach instruction `at` (before it
  /// executes), sorted, valid as long as the evaluator. kNoDefinition
  /// stands for "none on some path from the entry".
  const std::vector<std::uint32_t> &reachingDefinitions(std::string_view reg, std::uint32_t at) const;
  static constexpr std::uint32_t kNoDefinition = UINT32_MAX;
  /// The one definition of `reg` that reaches `at`; nullopt where several
  /// do, or none does on some path.
  std::optional<std::uint32_t> soleReachingDefinition(std::string_view reg, std::uint32_t at) const;

  /// The value of `reg` as instruction `at` reads it. Where several
  /// definitions reach and a binding of `reg` covers them all, the
  /// binding is the value.
  Value registerAt(std::string_view reg, std::uint32_t at, const Bindings &bindings = {}) const;
  /// The value a binding of `reg` gives where definitions `defs` meet (read
  /// at instruction `at`): when it covers them all, or when each definition
  /// it does not cover gives the same number. nullopt otherwise.
  std::optional<Value> boundValue(std::string_view reg, std::vector<std::uint32_t> defs, std::uint32_t at,
                                  const Bindings &bindings) const;
  /// The value of a source operand of instruction `at`.
  Value operandAt(const Operand &operand, std::uint32_t at, const Bindings &bindings = {}) const;
  /// `%ntid`, `%nctaid` (the launch's sizes, from the first source that
  /// gives them: --block/--grid, .reqntid, the host code's or the launch
  /// file's launch, .maxntid, the defaults), `%tid` and `%ctaid` (0: the
  /// representative thread); `component` is "x", "y" or "z".
  Value specialRegister(std::string_view base, std::string_view component) const;
  /// The value that instruction `def` writes into its destination `reg`.
  Value definedBy(std::uint32_t def, std::string_view reg, const Bindings &bindings = {}) const;

  const ControlFlowGraph &graph() const { return graph_; }

private:
  /// What reading a value looked up in a query's bindings.
  struct Lookups {
    /// Lookups that may find something in other bindings: a register's
    /// (a counter's), or a parameter's where the query binds call arguments.
    unsigned bindings = 0;
    /// Parameters looked up, and not found, in a query that binds no call
    /// argument: the same in every such query.
    unsigned parameters = 0;
  };
  /// A definition's value as one reading found it.
  struct Reading {
    /// The depth it was followed at: as good for a reading at this depth
    /// or deeper; one with less depth left is redone.
    unsigned depth;
    Value value;
    bool readsBindings;   ///< it looked up something other bindings may hold
    bool readsParameters; ///< it read a parameter where no argument was bound
  };
  /// One public query: its bindings, and the reading of each definition
  /// found so far under them.
  struct Query {
    Query(const Bindings &bindings);
    const Bindings &bindings;
    /// It binds the parameters of a called function (keys without `%`).
    bool bindsArguments;
    std::map<std::pair<std::uint32_t, std::string>, Reading> found; ///< by definition and register
    unsigned steps = 0; ///< definitions followed
    Lookups lookups; ///< so far
  };
  /// A reading an earlier query made without a binding (readsBindings is
  /// false): it holds for any query, or, when it reads parameters, for
  /// queries that bind no argument.
  struct Unbound {
    std::string reg;
    Reading reading;
  };
  /// The registers one instruction writes, where they reach.
  struct Definitions {
    std::vector<std::uint32_t> instructions; ///< sorted
    /// reachingDefinitions by the instruction read at.
    mutable std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> reachingAt;
  };

  Value registerAt(std::string_view reg, std::uint32_t at, Query &query,
                   unsigned depth) const;
  Value operandAt(const Operand &operand, std::uint32_t at, Query &query,
                  unsigned depth) const;
  Value definedBy(std::uint32_t def, std::string_view reg, Query &query,
                  unsigned depth) const;
  /// reachingDefinitions of a register defined by `defs`, not remembered.
  std::vector<std::uint32_t> reachingAmong(const std::vector<std::uint32_t> &defs, std::uint32_t at) const;
  /// Keeps a value that looked up no binding for later queries.
  void remember(std::uint32_t def, std::string_view reg, const Reading &reading) const;
  /// definedBy without the memo.
  Value followDefinition(std::uint32_t def, std::string_view reg, Query &query, unsigned depth) const;
  std::optional<Value> boundValue(std::string_view reg, std::vector<std::uint32_t> defs, std::uint32_t at,
                                  Query &query, unsigned depth) const;
  /// definedBy for an instruction on a float type (FloatValues.cpp).
  Value floatDefinedBy(std::uint32_t def, std::string_view reg, Query &query,
                       unsigned depth) const;
  /// setp's result in `reg` once its comparison is `compared` (nullopt: not
  /// known): joined with its predicate operand, negated for a pair's second.
  Value comparisonResult(std::uint32_t def, std::string_view reg, std::optional<bool> compared,
                         const Value &a, const Value &b, Query &query, unsigned depth) const;
  /// The parameter `name` as an ld.param of `type` reads it (a float
  /// type: its bits; none given: as an integer). A nonzero `offset` reads
  /// the field that many bytes into a struct passed by value, assumed as
  /// `NAME+OFFSET` (`param_3+24`).
  Value parameter(std::string_view name, std::optional<ScalarType> type, std::int64_t offset = 0) const;
  /// A load of `type` from `offset` bytes into the `.const` variable
  /// `variable`: its `--assume` value, else the launch file's, else what
  /// its initializer holds there (a constant, with a reason saying the host
  /// may overwrite it), else unknown, naming it.
  Value constantVariable(const VariableDecl &variable, std::optional<ScalarType> type,
                         std::int64_t offset) const;
  /// A `--assume` value as a load of `type` at `offset` reads it: the whole
  /// value, or, with `partOf` (the integer it is part of), the bytes a
  /// partial load takes (`ld.param.u8 [n+1]`). `source` says who gave it.
  Value assumedLoad(const std::string &label, const AssumedValue &given, const VariableDecl *partOf,
                    std::optional<ScalarType> type, std::int64_t offset,
                    const std::string &source = "--assume") const;
  /// A `--assume` value as a load of `type` reads it; `label` names what
  /// was assumed in the reason ("parameter n").
  Value assumed(const std::string &label, const AssumedValue &given, std::optional<ScalarType> type,
                const std::string &source = "--assume") const;

  const ControlFlowGraph &graph_;
  const LaunchAssumptions &assumptions_;
  /// The module's `.const` variables by name (empty without a module).
  std::map<std::string_view, const VariableDecl *, std::less<>> constants_;
  /// By register; the names are views into the graph's instructions.
  std::unordered_map<std::string_view, Definitions> definitions_;
  std::vector<std::uint32_t> empty_, undefined_{kNoDefinition};
  /// By instruction: its destinations' values that hold under any bindings.
  mutable std::unordered_map<std::uint32_t, std::vector<Unbound>> unbound_;
};

/// Registers that instruction writes (its destination operand; none for
/// stores, branches, barriers and calls).
std::vector<std::string> destinationRegisters(const Instruction &instruction);

} // namespace ptxdvfs::ptx::analysis
