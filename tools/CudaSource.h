// CudaSource.h - what the CUDA source behind a PTX file tells: parameter names, where a kernel is declared.
#pragma once

#include "ptxdvfs/ptx/Module.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::tools {

struct CudaSourceFile {
  std::string declared; ///< the path the `.file` directive names
  std::string path;     ///< where it was read
  std::string text;
};

/// The whole of the file at `path`; nullopt when it cannot be opened.
std::optional<std::string> fileText(const std::filesystem::path &path);

/// What a module without a `.file` table (PTX made without `-lineinfo`) reads.
enum class WithoutLineInfo {
  ReadNothing,     ///< no source: what the module says is all there is
  ReadSameStemCu, ///< the `.cu` beside the PTX that nvcc named it after, if any
};

/// The sources of the module's `.file` table that can be read: beside the
/// PTX first (a tree copied or cloned elsewhere keeps its sources beside its
/// PTX, while the absolute path nvcc wrote may name another checkout), else
/// at the path written there. Files that cannot be read are skipped.
/// Where the module has no `.file` table, `withoutLineInfo` says whether
/// the `.cu` beside the PTX with its name is read instead: `k.cu` for
/// `k.ptx` (`nvcc -ptx k.cu`) or `k.cu.ptx` (its `-o` as a Makefile
/// writes it). Without `.loc` lines it tells no loop's source line, but
/// the kernels' launches and parameter names are found by name.
std::vector<CudaSourceFile> readCudaSources(const ptx::Module &module,
                                            WithoutLineInfo withoutLineInfo = WithoutLineInfo::ReadSameStemCu);

/// Where `declared` (a `.file` path) was read from, or `declared` itself.
std::string resolvedSourcePath(const std::vector<CudaSourceFile> &sources, const std::string &declared);

bool isIdentifierChar(char c);

/// Whether `text` is one identifier, not a number: `n`, `argv`, `d_x1`.
bool isName(std::string_view text);

/// Whether the `length` characters at `at` of `text` are a whole
/// identifier: no identifier character touches either end.
bool isWholeWord(std::string_view text, std::size_t at, std::size_t length);

/// `text` without its leading and trailing spaces, tabs and line ends.
std::string trimmed(std::string_view text);

/// The identifiers in `text`, in order.
std::vector<std::string> wordsIn(std::string_view text);

/// The identifier that starts `text` once spaces and line ends are
/// skipped (`n` in ` n = 4`); empty where something else does.
std::string firstWordOf(std::string_view text);

/// The code of the character literal `literal` (quotes included): `'a'`
/// gives 97, `'\n'` 10, `'\101'` and `'\x41'` 65; nullopt for one of
/// several characters, another escape, or a code over 127 (whose sign
/// the host's `char` decides).
std::optional<int> characterCode(std::string_view literal);

/// `text` with its comments and string literals blanked (newlines kept,
/// so offsets and lines still match the file): what is left is code,
/// whose braces and names can be matched. A character literal is its
/// code (characterCode()), padded with blanks to the literal's length;
/// where it has none or a prefix (`L'a'`), it is underscores, a name that
/// nothing defines, so that an expression holding it does not fold.
std::string codeOf(std::string text);

/// Whether `__global__` stands before `at` in the statement that holds it
/// (back to the last `;`, `{` or `}` before `at`): whether the name or the
/// body at `at` is a kernel's declaration or definition.
bool inKernelDeclaration(const std::string &code, std::size_t at);

/// The offset just past the bracket that closes the one at `open`, or npos.
std::size_t pastClosing(const std::string &code, std::size_t open);

/// `_Z10triangularPKfPfi` -> `triangular`; a name that is not mangled comes back unchanged.
std::string baseNameOf(const std::string &mangled);

/// The template arguments of a mangled function template instance, each
/// as `type:C` (C the Itanium code of a built-in type: `f` float, `j`
/// unsigned int) or `value:N` (an integer or bool argument):
/// `_Z6reduceIfLi256EEvPT_i` -> {type:f, value:256}. nullopt for a name
/// that is not a template instance, or with an argument of another kind
/// (a class, a pointer), which a launch is not matched against.
std::optional<std::vector<std::string>> templateArgumentsOf(const std::string &mangled);

/// A template argument as written at a launch (`float`, `unsigned int`,
/// `true`) in the form templateArgumentsOf() gives, if it is a built-in
/// type or a bool; other values are the caller's to fold.
std::optional<std::string> builtinTemplateArgument(std::string_view written);

/// One declared name, a kernel parameter or a variable: `const float *x`
/// is type `const float *`, name `x`.
struct CudaDeclaration {
  std::string type;
  std::string name;
};

/// `const float *x` -> type `const float *`, name `x`: the last identifier
/// of one declarator, cut before any `=` or `[`; nullopt when it has none.
std::optional<CudaDeclaration> splitDeclaration(std::string_view declarator);

/// The parameters of `__global__ ... name(...)` in `code` (codeOf() of a
/// CUDA source, blanked once by the caller that asks for many kernels), in
/// order, from its definition, else from the first declaration that names
/// every parameter (`__global__ void k(float *, int);` names none); empty
/// when no such declaration is found.
std::vector<CudaDeclaration> cudaParameters(const std::string &code, const std::string &name);

/// The `__constant__` variables `source` declares (`__constant__ Common
/// d_common;`), arrays left out.
std::vector<CudaDeclaration> cudaConstantVariables(const std::string &source);

/// A position in a CUDA file; line and column 1-based.
struct SourcePosition {
  std::string path;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

/// Where kernel `name` (mangled or not) is defined in `sources`: the
/// position of its name in its `__global__ ... name(...) {`, else in its
/// first declaration (a prototype), comments left out.
std::optional<SourcePosition> findKernelDeclaration(const std::vector<CudaSourceFile> &sources,
                                                    const std::string &name);

} // namespace ptxdvfs::tools
