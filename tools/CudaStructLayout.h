// CudaStructLayout.h - where each field of a CUDA struct lies, so that a
// bound read from `[param_1+16]` can be named `d_dim.number_boxes`.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace ptxdvfs::tools {

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
