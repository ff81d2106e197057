// Statement.h - what a function body is made of.
#pragma once

#include "ptxdvfs/ptx/Instruction.h"
#include "ptxdvfs/ptx/Types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ptxdvfs::ptx {

struct Statement;

/// `$L__BB0_2:`
struct Label {
  std::string name;
  SourceLocation location;
};

/// One declared name of `.reg`, `.local`, `.shared`, `.global`, `.const`,
/// `.param` or `.tex`; `.reg .b32 %r<5>, %x;` gives two declarations.
/// Also used for kernel and function parameters.
struct VariableDecl {
  StateSpace space = StateSpace::Reg;
  std::optional<ScalarType> type;
  std::optional<unsigned> alignment;    ///< `.align N`, bytes
  std::vector<std::string> attributes;  ///< other dot-words without dots (`ptr`, `v4`, `global`)
  std::string name;
  std::optional<unsigned> rangeCount;   ///< N of `%r<N>`: declares %r0 .. %r(N-1)
  std::vector<std::optional<std::uint64_t>> arrayDims; ///< `[4][]` -> {4, nullopt}
  std::string initializer;              ///< text after `=`, empty if none
  SourceLocation location;
};

/// The bytes a module-scope variable starts with, as its initializer
/// writes them: each element in its type's size, little-endian, zero-filled
/// to the declared size (`.b8 s[20] = {232, 3}`: 1000 in the first four).
/// nullopt without an initializer, or where an element is not a number (an
/// address, `generic(x)`, or an expression), or a bound exceeds 1 MiB.
std::optional<std::vector<std::uint8_t>> initialBytes(const VariableDecl &variable);

/// The bytes `variable` declares: its type's size times each array
/// dimension (`.b8 p[40]`: 40, `.u32 n`: 4); nullopt without a type, with
/// a dimension left open (`[]`), or past int64.
std::optional<std::int64_t> declaredBytes(const VariableDecl &variable);

/// `{ ... }`: a nested scope (nvcc wraps each call sequence in one).
struct Block {
  std::vector<Statement> statements;
  SourceLocation location;
};

/// A directive kept for completeness (`.pragma`, `.callprototype`,
/// `.calltargets`, unknown ones): its name and the rest of its text.
struct Directive {
  std::string name;  ///< with the dot: `.pragma`
  std::string text;  ///< the whole directive as written
  SourceLocation location;
};

using StatementValue = std::variant<Label, VariableDecl, Instruction, Block, Directive>;

struct Statement {
  StatementValue value;

  template <typename T> const T *getIf() const { return std::get_if<T>(&value); }
};

} // namespace ptxdvfs::ptx
