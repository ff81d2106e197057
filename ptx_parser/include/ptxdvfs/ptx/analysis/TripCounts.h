// TripCounts.h - induction variables of a loop and how many times its header runs.
#pragma once

#include "ptxdvfs/ptx/analysis/Loops.h"
#include "ptxdvfs/ptx/analysis/Values.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxdvfs::ptx::analysis {

/// A register with one write inside the loop of the form `r = r op step`
/// (`add`, `sub`, `shl`, `shr`, `mul`, also through a `mov` from a
/// temporary, a copy of r taken before the update, or a chain of adds
/// `a = r + s1; r = a + s2` whose steps sum), `step` loop-invariant, and a
/// known value on entry.
struct InductionVariable {
  enum class Update { Add, ShiftLeft, ShiftRight, Multiply };
  std::string reg;
  std::uint32_t update = 0; ///< the instruction that writes it in the loop
  Update kind = Update::Add;
  std::int64_t step = 0;    ///< added (negative for sub), shift amount, or factor
  Value initial;            ///< on entry to the loop
  /// The width it is counted in: its register's, or narrower when each
  /// iteration re-extends its low bits (`i += g.size()` with int i and a
  /// 64-bit size: `cvt.s64.s32` of the counter, then `add.s64`); only those
  /// low bits are then the counter's, and the exit test reads no more.
  unsigned bits = 64;
  bool isSigned = false;
  /// `update` is a `mov` opening the header (`mov %r10, %r30`, `%r30 = %r10
  /// + 1` later): the register holds iteration k's value for all of
  /// iteration k, and a test reading it reads that value, not the next.
  bool copiedAtHeaderStart = false;
  /// A ShiftRight that rounds toward zero: nvcc's signed division by
  /// 2^step (`k /= 2` on an int: `shr.u32 t, k, 31; add.s32 u, k, t;
  /// shr.s32 k, u, 1`), which an arithmetic shift equals only for k >= 0.
  bool truncates = false;

  /// The value at the header in iteration k (0-based).
  std::int64_t atIteration(std::uint64_t k) const;
};

/// How many times a loop's header runs each time the loop is entered.
struct TripCount {
  /// Header executions per entry (>= 1 for a loop that runs, 0 for one
  /// whose bound shows it is skipped); nullopt when it could not be found.
  std::optional<std::uint64_t> headerRuns;
  ValueOrigin origin = ValueOrigin::Unknown;
  std::vector<std::string> why;  ///< assumptions, defaults or unknowns it rests on
  std::string rule;              ///< e.g. "%r18 = 0, +1 per iteration, stays while %r18 < 128"
  /// headerRuns is an upper bound, not the count: the counter starts at a
  /// value known only to be at most some number (nvcc's remainder loop),
  /// or another exit the analysis cannot count may leave sooner.
  bool atMost = false;
  /// headerRuns is 0 because the values the loop would enter with already
  /// fail its exit test: the guard nvcc puts before a rotated loop skips it.
  bool skippedByGuard = false;
  /// The block whose branch leaves the loop, kNoBlock when unknown. Blocks
  /// after it in an iteration run one time fewer than the header.
  std::uint32_t exitingBlock = kNoBlock;
};

/// Loop facts for one function; cheap to query many times with different
/// bindings of the enclosing loops' induction variables.
struct ExitSide; // one side of an exit comparison (ExitSides.h, private)

class TripCountAnalysis {
public:
  /// `inlineAsm` (inlineAsmInstructions; empty: none) marks instructions
  /// the CUDA author wrote, which loopControl() never counts as control.
  TripCountAnalysis(const ControlFlowGraph &graph, const DominatorTree &dominators, const LoopForest &forest,
                    const ValueEvaluator &values, std::vector<bool> inlineAsm = {});

  /// Whether block `block` of `loop` runs in every iteration: it dominates
  /// every latch, so no pass round the loop avoids it.
  bool blockRunsEveryPass(std::uint32_t loop, std::uint32_t block) const;

  /// Induction variables of `loop` whose entry value is known under `outer`.
  std::vector<InductionVariable> inductionVariables(std::uint32_t loop, const Bindings &outer) const;
  TripCount tripCount(std::uint32_t loop, const Bindings &outer) const;
  /// Blocks of `loop` that run after `exitingBlock` in an iteration.
  std::vector<bool> blocksAfterExit(std::uint32_t loop, std::uint32_t exitingBlock) const;

  /// The loop's own instructions (not those of inner loops) that only keep
  /// the loop going, which unrolling it fully would remove: its branches,
  /// its exit tests, integer arithmetic whose results feed only those, the
  /// address operands of memory accesses, or more such arithmetic (counters,
  /// pointer and index updates), and copies that carry a value from one
  /// iteration to the next (`mov %fd13, %fd7` before the back edge).
  /// An accumulator whose value the loop uses for nothing else is kept:
  /// unrolled code computes it too, as it keeps inline asm (a register
  /// rotation written as `mov`s is the work). Sorted instruction indices.
  std::vector<std::uint32_t> loopControl(std::uint32_t loop) const;

private:
  /// One side of the exit comparison `test` of `loop` (ExitSides.h):
  /// loop-invariant, an induction variable, or one plus or minus an
  /// invariant, read through the copies nvcc makes. nullopt, with
  /// `problem` saying why, when the side changes in the loop otherwise.
  std::optional<ExitSide> readExitSide(std::uint32_t loop, std::uint32_t test, const Operand &operand,
                                       const Bindings &outer, std::string &problem) const;
  std::optional<InductionVariable> asInduction(std::uint32_t loop, const std::string &reg,
                                               const Bindings &outer) const;
  /// The induction variable of `loop` updated by a copy of `temporary`
  /// (`shl %r3, %r8, 1` ... `mov %r8, %r3`): `temporary` holds its next
  /// value. nullopt when no counter is updated that way.
  std::optional<InductionVariable> inductionCopiedFrom(std::uint32_t loop, const std::string &temporary,
                                                       const Bindings &outer) const;
  /// Whether instruction `copy`, a `mov` into `reg`, lies in `loop`'s header
  /// with nothing before it there naming `reg`: every iteration starts from
  /// the copy, so the first reads what the copied register brings in.
  bool copiedFirstInHeader(std::uint32_t loop, std::uint32_t copy, const std::string &reg) const;
  /// The value `reg` enters `loop` with: what every definition reaching
  /// its header from outside agrees on, a binding of the expansion that
  /// covers them, or the one thread 0's own path brings.
  Value entryValue(std::uint32_t loop, const std::string &reg, const Bindings &outer) const;
  struct PathDefinition {
    std::uint32_t definition; ///< the last of the entering definitions on the path
    bool reachesLoop;         ///< false: thread 0's pass skips the loop
    bool afterLoop;           ///< the value is the one an earlier loop on the path left (its binding)
    Value branches;           ///< the provenance of the branches that chose it
    /// Set when a branch on the way could not be decided: its condition,
    /// unknown, with the reasons (a parameter without --assume) that would
    /// decide it. The other fields are then meaningless.
    std::optional<Value> undecidedBranch;
  };
  /// Of the definitions `entering` that meet at `loop`'s header, the one
  /// thread 0 brings, following its branches (thread-dependent ones too)
  /// from the enclosing loop's header, or the entry, under `outer`. nvcc
  /// peels the remainder of an unrolled loop into guarded copies, each
  /// setting the counter; which copies ran is known per thread only.
  /// An earlier loop on the path is stepped over by its one exit. nullopt
  /// when such a loop has several exits or the path is not a simple one;
  /// an unknown branch gives `undecidedBranch`.
  std::optional<PathDefinition> definitionOnThreadZerosPath(std::uint32_t loop, const std::string &reg,
                                                            const std::vector<std::uint32_t> &entering,
                                                            const Bindings &outer) const;
  /// The value `path` has given `reg` so far: its last definition on the
  /// path, read under `evaluateWith`, or past an earlier loop that wrote
  /// it, the value `outer` binds after that loop.
  Value valueAlongPath(const PathDefinition &path, const std::string &reg, const Bindings &outer,
                       const Bindings &evaluateWith) const;
  /// `predicate` at instruction `at`, read with `reg` holding the value
  /// thread 0's path has given it so far (a branch on the offset being
  /// found: `offset >= end` before the tail), and other registers that
  /// several definitions reach as their own paths give them. nullopt when
  /// the predicate stays unknown, or when one of those paths goes past
  /// `loop` (`skipsLoop` is then set: so does this one).
  std::optional<Value> withValueSoFar(std::uint32_t loop, const std::string &reg, const PathDefinition &path,
                                      const std::string &predicate, std::uint32_t at, const Bindings &outer,
                                      bool &skipsLoop) const;
  /// Registers read by instruction `at`, or by the single definitions
  /// outside `loop` it is computed from (a few steps up), that several
  /// definitions reach, none inside `loop`; `exclude` left out. Each once,
  /// with the first instruction found reading it.
  std::vector<std::pair<std::string, std::uint32_t>> mergedReadsBehind(std::uint32_t loop, std::uint32_t at,
                                                                       const std::string &exclude) const;
  enum class PathBinding { Bound, NotBound, LoopSkipped };
  /// Binds in `bindings` the value thread 0's path towards `loop` gives
  /// `name` as instruction `readAt` reads it (the provenance of the
  /// branches it took joins `branches`): LoopSkipped when that path goes
  /// past the loop; NotBound when `outer` already binds it for those
  /// definitions, or the path or the value is not known.
  PathBinding bindAlongThreadZerosPath(std::uint32_t loop, const std::string &name, std::uint32_t readAt,
                                       const Bindings &outer, Bindings &bindings, Value &branches) const;
  /// The block `loop` is left for: its one exit's, or with several, the
  /// one its count under `outer` leaves by (whose provenance joins
  /// `provenance`). nullopt when no count tells, or another exit may
  /// leave sooner.
  std::optional<std::uint32_t> exitLeftBy(std::uint32_t loop, const Bindings &outer, Value &provenance) const;
  /// Where the two sides of the undecided branch ending `branchBlock` meet
  /// again (its immediate post-dominator) when neither writes one of
  /// `entering`, enters `loop`, or leaves the pass thread 0's path is on
  /// (`box = k == 0 ? bx : neighbours[k - 1]` before a loop on `tx`):
  /// whichever side runs, the path goes on from there. The sides' blocks
  /// are marked in `seen`. nullopt when a side does any of those.
  std::optional<std::uint32_t> joinOfBranchThatChangesNothing(std::uint32_t loop, std::uint32_t branchBlock,
                                                               const std::vector<std::uint32_t> &entering,
                                                               std::vector<bool> &seen) const;
  /// The value `definition`, the one definition of `reg` entering `loop`,
  /// gives when each register it reads that several definitions reach
  /// (none in the loop) is read as thread 0's path sets it: nvcc peels an
  /// unrolled loop's remainder into guarded copies, each setting the index,
  /// and starts the main loop from it (`add %r25, %r24, -1`). nullopt when
  /// no such register is found on the path, or the value stays unknown.
  std::optional<Value> throughOperandsOnThreadZerosPath(std::uint32_t loop, const std::string &reg,
                                                        std::uint32_t definition, const Bindings &outer) const;
  /// The amount instruction `arithmetic` moves `updated` by in one
  /// iteration (for `shl`/`shr`/`mul`, the shift or factor), with its
  /// provenance; nullopt when it does not read `updated` through the forms
  /// InductionVariable names, or the step changes inside the loop.
  /// `countedBits`, when given, receives the width the counter is counted
  /// in (InductionVariable::bits): its own, or that of a narrowing copy on
  /// the way back to it. `truncates`, when given, is set when the update
  /// is a signed division by 2^step (InductionVariable::truncates).
  std::optional<Value> updateStep(std::uint32_t loop, std::uint32_t arithmetic, const std::string &updated,
                                  const Bindings &outer, unsigned *countedBits = nullptr,
                                  bool *truncates = nullptr) const;
  /// The count of a loop that retries an `atom.cas` until it finds the
  /// value it expected (atomicAdd on a float or double written by hand,
  /// a lock-free update), exiting at comparison `test`: 1, as without
  /// contention. nullopt for any other exit test.
  std::optional<TripCount> compareAndSwapRetry(std::uint32_t loop, std::uint32_t test, bool stayWhen) const;
  /// The count of a loop that polls `mbarrier.try_wait` until the barrier's
  /// phase completes (cuda::barrier::wait, cuda::pipeline, TMA loads),
  /// exiting at `test`: the predicate try_wait writes, or `setp` on a
  /// `selp` of it, as inline asm hands it back. try_wait suspends the
  /// thread until the phase completes (or a system time limit passes), so
  /// 1. nullopt for any other exit test, `test_wait` (which does not
  /// suspend) included.
  std::optional<TripCount> blockingWait(std::uint32_t loop, std::uint32_t test, bool stayWhen) const;
  /// The count of a loop that narrows an interval by a choice the data
  /// makes, exiting at comparison `test`: a binary search, `while (lo <
  /// hi) { mid = (lo + hi) / 2; if (a[mid] < key) lo = mid + 1; else hi
  /// = mid; }`, whose ends the loop writes only with `selp` on one
  /// predicate, one end kept when the other moves. Read as the longest
  /// search (the larger part kept every time: `atMost`). nullopt for any
  /// other exit test; without headerRuns when an end's entry value is
  /// unknown (the reasons say why).
  std::optional<TripCount> binarySearch(std::uint32_t loop, std::uint32_t test, bool stayWhen,
                                        const Bindings &outer) const;
  /// The count of a loop whose exit `test` compares a float counter
  /// (`for (float t = 0; t < T; t += dt)`: one `add.f32`/`sub.f32` of an
  /// invariant step in the loop) with an invariant bound, stepped as the
  /// hardware rounds each addition. nullopt for any other exit test;
  /// without headerRuns when a value is unknown, the counter stops moving,
  /// or it runs past 2^20 iterations (the reasons say which).
  std::optional<TripCount> floatCounter(std::uint32_t loop, std::uint32_t test, bool stayWhen,
                                        const Bindings &outer) const;
  /// The count of a loop whose exit `test` orders an int counter (one
  /// that adds a fixed step), converted to float to nearest, against an
  /// invariant float bound: `for (int i = 1; i <= log2f(n); i++)`, where
  /// C converts i to float. Solved by search, as the conversion rounds.
  /// nullopt for any other exit test; without headerRuns when a value is
  /// unknown or the loop does not end (the reasons say which).
  std::optional<TripCount> convertedCounter(std::uint32_t loop, std::uint32_t test, bool stayWhen,
                                            const Bindings &outer) const;
  /// The count of a loop whose exit `test` compares values computed from
  /// the registers the loop carries (at most 4, each written once in it),
  /// by a computation the induction forms do not cover (`k = (k + 1) / 2`,
  /// `i = 2 * i + 1`, `a, b = b, a % b`): thread 0's values are stepped one
  /// iteration at a time through the value analysis, up to 4096
  /// iterations. The updates and the exit (in `exitingBlock`) must run in
  /// every iteration. nullopt when the test reads anything else that
  /// changes, or a value the analysis cannot compute; without headerRuns
  /// when only an entry value is unknown (its reasons say what to give),
  /// the counters stop moving, or they run too long.
  std::optional<TripCount> simulatedCount(std::uint32_t loop, std::uint32_t test, std::uint32_t exitingBlock,
                                          bool stayWhen, const Bindings &outer) const;
  /// The registers the loop carries from one iteration to the next among
  /// those instruction `from` reads, directly or through values the loop
  /// computes, in the order found; nullopt when there are too many reads.
  std::optional<std::vector<std::string>> carriedRegisters(std::uint32_t loop, std::uint32_t from) const;
  bool insideLoop(std::uint32_t loop, std::uint32_t instruction) const;
  /// Whether instruction `at` of `loop` runs in every iteration: it is not
  /// guarded, and its block does.
  bool runsEveryPass(std::uint32_t loop, std::uint32_t at) const;
  /// Adds to `count` why it is the fewest passes the loop can run when
  /// `counter` moves only on the passes that reach its update.
  void noteCounterSkips(std::uint32_t loop, const InductionVariable &counter, TripCount &count) const;
  /// The instructions inside `loop` that write `reg`, in order.
  std::vector<std::uint32_t> definitionsInside(std::uint32_t loop, const std::string &reg) const;
  /// The one definition of `operand` that instruction `at` can read, when
  /// it lies in `loop` (it then runs before `at` in every iteration).
  std::optional<std::uint32_t> soleDefinitionInside(std::uint32_t loop, const Register *operand,
                                                    std::uint32_t at) const;
  /// Whether `reg`, read at instruction `at`, is written in the loop only by
  /// a computation from values that do not change in it (special
  /// registers, constants, values from before the loop): unoptimised code
  /// (nvcc -G) recomputes `blockDim.x * gridDim.x` before every update.
  bool recomputedInvariant(std::uint32_t loop, const std::string &reg, std::uint32_t at,
                           unsigned depth = 0) const;
  /// Whether some definition of `reg` that reaches instruction `at` lies
  /// inside the loop (the value may change from one iteration to the next).
  bool changesInside(std::uint32_t loop, const std::string &reg, std::uint32_t at) const;
  /// Why `reg`, read by the exit test at instruction `at`, changes inside
  /// the loop without being an induction variable, in terms a CUDA author
  /// can act on: a step the loop does not change but the analysis does not
  /// know (the parameter that would give it), a bound re-read from one
  /// address every iteration, data loaded in the loop, or neither.
  std::string whyNotInduction(std::uint32_t loop, const std::string &reg, std::uint32_t at,
                              const Bindings &outer) const;

  const ControlFlowGraph &graph_;
  const DominatorTree &dominators_;
  const LoopForest &forest_;
  const ValueEvaluator &values_;
  std::vector<bool> inlineAsm_;
  mutable std::optional<PostDominatorTree> postDominators_; ///< built on the first undecided branch
  mutable unsigned nestedWalks_ = 0;      ///< walks started to decide another walk's branch
  mutable unsigned nestedExitCounts_ = 0; ///< counts started to find the exit an earlier loop leaves by
  mutable std::uint64_t simulatedSteps_ = 0; ///< iterations simulatedCount() has stepped, all loops together
};

} // namespace ptxdvfs::ptx::analysis
