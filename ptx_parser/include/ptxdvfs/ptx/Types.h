// Types.h - the small PTX enums the AST and later layers share.
#pragma once

#include <iosfwd>
#include <optional>
#include <string_view>

namespace ptxdvfs::ptx {

/// PTX ISA 5.1 "State Spaces".
enum class StateSpace { Reg, SReg, Const, Global, Local, Param, Shared, Tex };

std::string_view toString(StateSpace space);
std::ostream &operator<<(std::ostream &os, StateSpace space);
/// "global" (no dot) -> Global; also accepts qualified forms such as
/// "shared::cta" and "param::entry" (PTX ISA 5.1.5, 5.1.6).
std::optional<StateSpace> parseStateSpace(std::string_view word);

/// PTX ISA 5.2 "Types": fundamental types plus the packed and alternate
/// floating-point formats that instructions name in their type suffix.
enum class ScalarType {
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, TF32, F32, F64,
  E4M3, E5M2, E4M3x2, E5M2x2,
  Pred,
};

enum class ScalarTypeKind { Bits, Unsigned, Signed, Float, Predicate };

std::string_view toString(ScalarType type);
std::ostream &operator<<(std::ostream &os, ScalarType type);
std::optional<ScalarType> parseScalarType(std::string_view word);
/// Size of one value in bytes; a predicate reports 1 (its storage in `.reg`
/// is unspecified by the ISA, so this is only a convention).
unsigned sizeInBytes(ScalarType type);
ScalarTypeKind kindOf(ScalarType type);

enum class FunctionKind { Entry, Func };
std::string_view toString(FunctionKind kind);

/// PTX ISA 11.6 "Linking Directives". `None` is file-local.
enum class Linkage { None, Visible, Extern, Weak, Common };
std::string_view toString(Linkage linkage);

} // namespace ptxdvfs::ptx
