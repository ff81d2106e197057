// CudaSourceFuzzer.cpp - libFuzzer: any text as the CUDA source beside a PTX
// file (which 'loops', 'lint' and the LSP read for names), never a crash, a
// hang or a name at an offset outside its struct.
#include "CudaSource.h"
#include "CudaStructLayout.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using namespace ptxdvfs::tools;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string source(reinterpret_cast<const char *>(data), size);
  CudaStructs structs(source);
  // Every declared type, and every word after `struct` or `typedef`, as a type to lay out.
  std::vector<CudaDeclaration> declarations = cudaConstantVariables(source);
  for (std::size_t at = source.find("__global__"); at != std::string::npos && declarations.size() < 64;
       at = source.find("__global__", at + 1)) {
    const std::size_t open = source.find('(', at);
    const std::size_t nameEnd = open == std::string::npos ? open : source.find_last_not_of(" \t\n", open - 1);
    if (nameEnd == std::string::npos)
      break;
    std::size_t nameStart = source.find_last_of(" \t\n*&", nameEnd);
    nameStart = nameStart == std::string::npos ? 0 : nameStart + 1;
    for (CudaDeclaration &parameter : cudaParameters(source, source.substr(nameStart, nameEnd + 1 - nameStart)))
      declarations.push_back(std::move(parameter));
  }
  for (const char *keyword : {"struct ", "typedef "})
    for (std::size_t at = source.find(keyword); at != std::string::npos && declarations.size() < 128;
         at = source.find(keyword, at + 1))
      declarations.push_back({source.substr(at, 40), "v"});
  for (const CudaDeclaration &declaration : declarations)
    for (const auto &[offset, name] : structs.fieldNames(declaration.type, declaration.name))
      if (offset < 0 || offset >= (std::int64_t{1} << 40) || name.empty())
        __builtin_trap();
  return 0;
}
