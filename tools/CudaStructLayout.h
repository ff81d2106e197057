// CudaStructLayout.h - where each field of a CUDA struct lies, so that a
// bound read from `[param_1+16]` can be named `d_dim.number_boxes`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// A data member of a struct, as its definition declares it.
struct StructMember {
  std::string type; ///< as written: `int`, `dim3`, `const float *`
  std::string name;
  /// Its default member initializer (`1024` of `int n = 1024;` or of `int
  /// n{1024};`), and the offset of that text in the source; empty and npos
  /// where it has none.
  std::string initializer;
  std::size_t initializerAt = std::string::npos;
};

/// The structs one CUDA source defines, read once for all the names asked
/// of it (a source holds many kernels, each with several parameters).
class CudaStructs {
public:
  explicit CudaStructs(const std::string &source);
  ~CudaStructs();
  CudaStructs(const CudaStructs &) = delete;
  CudaStructs &operator=(const CudaStructs &) = delete;

  /// The fields of `variable`, of type `type` (as declared: `dim_str`,
  /// `const struct Params`), by byte offset: the leaf members of the
  /// struct the source defines under that name, laid out as C does on a
  /// 64-bit host, which is how CUDA lays out a struct passed by value or
  /// held in `__constant__` memory. Nested members are named with dots
  /// (`p.grid.x`), array elements with their index (`p.dims[2]`, up to
  /// 64). Empty when the type is not such a struct (a pointer, a template,
  /// an unknown member type, a bit field, a member function): a name is
  /// given only where the layout is certain.
  std::map<std::int64_t, std::string> fieldNames(const std::string &type, const std::string &variable);

  /// The data members of the struct `type` names (`Params`, `struct
  /// Params`, or a typedef of it), in the order an aggregate initializer
  /// (`Params p = {4096, 256};`) gives them values; offsets are those of
  /// the source given. nullopt where the source defines no such struct, or
  /// its body holds what may make its members other than such an
  /// aggregate's, in order: a member function or constructor, a nested
  /// type, a base class, an array or a bit field.
  std::optional<std::vector<StructMember>> members(const std::string &type) const;

  /// The data members of the class or struct `type` names that can be
  /// told by name, constructors and member functions or not: what a
  /// member function names bare (`n_` in `void step() { k<<<n_, 256>>>(); }`).
  /// Arrays, bit fields, nested types and members declared with
  /// parentheses are left out; nullopt where the source defines no such type.
  std::optional<std::vector<StructMember>> dataMembers(const std::string &type) const;

private:
  class Reader;
  std::unique_ptr<Reader> reader_;
};

/// The size in bytes of a built-in arithmetic type (`unsigned long`,
/// `float`), a CUDA vector type (`float4`) or a pointer (`float *`), as on
/// a 64-bit host: what `sizeof` gives in host code. nullopt for any other
/// type (a struct, a template parameter, a variable's name).
std::optional<std::int64_t> builtinTypeSize(const std::string &typeText);

} // namespace ptxdvfs::tools
