// Types.cpp - spellings and properties of the shared PTX enums.
#include "ptxdvfs/ptx/Types.h"

#include <array>
#include <ostream>
#include <utility>

namespace ptxdvfs::ptx {

std::string_view toString(StateSpace space) {
  switch (space) {
  case StateSpace::Reg: return "reg";
  case StateSpace::SReg: return "sreg";
  case StateSpace::Const: return "const";
  case StateSpace::Global: return "global";
  case StateSpace::Local: return "local";
  case StateSpace::Param: return "param";
  case StateSpace::Shared: return "shared";
  case StateSpace::Tex: return "tex";
  }
  return "reg";
}

std::ostream &operator<<(std::ostream &os, StateSpace space) { return os << toString(space); }

std::optional<StateSpace> parseStateSpace(std::string_view word) {
  // `shared::cta`, `shared::cluster`, `param::entry` name sub-spaces.
  word = word.substr(0, word.find("::"));
  static constexpr std::array<StateSpace, 8> kAll = {
      StateSpace::Reg,   StateSpace::SReg,  StateSpace::Const,  StateSpace::Global,
      StateSpace::Local, StateSpace::Param, StateSpace::Shared, StateSpace::Tex};
  for (StateSpace space : kAll)
    if (toString(space) == word)
      return space;
  return std::nullopt;
}

namespace {
constexpr std::array<std::pair<ScalarType, std::string_view>, 25> kTypeNames = {{
    {ScalarType::B8, "b8"},         {ScalarType::B16, "b16"},
    {ScalarType::B32, "b32"},       {ScalarType::B64, "b64"},
    {ScalarType::B128, "b128"},     {ScalarType::U8, "u8"},
    {ScalarType::U16, "u16"},       {ScalarType::U32, "u32"},
    {ScalarType::U64, "u64"},       {ScalarType::S8, "s8"},
    {ScalarType::S16, "s16"},       {ScalarType::S32, "s32"},
    {ScalarType::S64, "s64"},       {ScalarType::F16, "f16"},
    {ScalarType::F16x2, "f16x2"},   {ScalarType::BF16, "bf16"},
    {ScalarType::BF16x2, "bf16x2"}, {ScalarType::TF32, "tf32"},
    {ScalarType::F32, "f32"},       {ScalarType::F64, "f64"},
    {ScalarType::E4M3, "e4m3"},     {ScalarType::E5M2, "e5m2"},
    {ScalarType::E4M3x2, "e4m3x2"}, {ScalarType::E5M2x2, "e5m2x2"},
    {ScalarType::Pred, "pred"},
}};
} // namespace

std::string_view toString(ScalarType type) {
  for (const auto &[value, name] : kTypeNames)
    if (value == type)
      return name;
  return "b32";
}

std::ostream &operator<<(std::ostream &os, ScalarType type) { return os << toString(type); }

std::optional<ScalarType> parseScalarType(std::string_view word) {
  // Most modifiers are not types; every type name is 2..6 characters.
  if (word.size() < 2 || word.size() > 6)
    return std::nullopt;
  for (const auto &[value, name] : kTypeNames)
    if (name == word)
      return value;
  return std::nullopt;
}

unsigned sizeInBytes(ScalarType type) {
  switch (type) {
  case ScalarType::B8: case ScalarType::U8: case ScalarType::S8:
  case ScalarType::E4M3: case ScalarType::E5M2: case ScalarType::Pred:
    return 1;
  case ScalarType::B16: case ScalarType::U16: case ScalarType::S16:
  case ScalarType::F16: case ScalarType::BF16:
  case ScalarType::E4M3x2: case ScalarType::E5M2x2:
    return 2;
  case ScalarType::B32: case ScalarType::U32: case ScalarType::S32:
  case ScalarType::F32: case ScalarType::F16x2: case ScalarType::BF16x2:
  case ScalarType::TF32:
    return 4;
  case ScalarType::B64: case ScalarType::U64: case ScalarType::S64:
  case ScalarType::F64:
    return 8;
  case ScalarType::B128:
    return 16;
  }
  return 4;
}

ScalarTypeKind kindOf(ScalarType type) {
  switch (type) {
  case ScalarType::B8: case ScalarType::B16: case ScalarType::B32:
  case ScalarType::B64: case ScalarType::B128:
    return ScalarTypeKind::Bits;
  case ScalarType::U8: case ScalarType::U16: case ScalarType::U32: case ScalarType::U64:
    return ScalarTypeKind::Unsigned;
  case ScalarType::S8: case ScalarType::S16: case ScalarType::S32: case ScalarType::S64:
    return ScalarTypeKind::Signed;
  case ScalarType::F16: case ScalarType::F16x2: case ScalarType::BF16:
  case ScalarType::BF16x2: case ScalarType::TF32: case ScalarType::F32:
  case ScalarType::F64: case ScalarType::E4M3: case ScalarType::E5M2:
  case ScalarType::E4M3x2: case ScalarType::E5M2x2:
    return ScalarTypeKind::Float;
  case ScalarType::Pred:
    return ScalarTypeKind::Predicate;
  }
  return ScalarTypeKind::Bits;
}

std::string_view toString(FunctionKind kind) {
  switch (kind) {
  case FunctionKind::Entry: return "entry";
  case FunctionKind::Func: return "func";
  }
  return "entry";
}

std::string_view toString(Linkage linkage) {
  switch (linkage) {
  case Linkage::None: return "";
  case Linkage::Visible: return "visible";
  case Linkage::Extern: return "extern";
  case Linkage::Weak: return "weak";
  case Linkage::Common: return "common";
  }
  return "";
}

} // namespace ptxdvfs::ptx
