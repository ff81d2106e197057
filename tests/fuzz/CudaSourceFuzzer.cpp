// CudaSourceFuzzer.cpp - libFuzzer: any text as the CUDA source beside a PTX
// file (which 'loops', 'lint' and the LSP read for names and launches),
// never a crash, a hang, a name at an offset outside its struct, or a
// launch size below 1.
#include "CudaCode.h"
#include "CudaConstants.h"
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
  // Every `<<<...>>>` as a launch: its sizes and arguments folded where they are written.
  const ConstantFolder folder({{"f.cu", "f.cu", source}});
  const std::string &code = folder.files().front().code();
  int launches = 0;
  for (std::size_t at = code.find("<<<"); at != std::string::npos && launches < 32; at = code.find("<<<", at + 3)) {
    ++launches;
    const std::size_t close = code.find(">>>", at + 3);
    for (const std::string &part : topLevelParts(code.substr(at + 3, close == std::string::npos ? 64 : close - at - 3))) {
      if (auto dims = folder.dimension(0, at, part); dims && (dims->x < 1 || dims->y < 1 || dims->z < 1))
        __builtin_trap();
      (void)folder.value(0, at, part);
    }
    (void)folder.files().front().where(at);
  }
  return 0;
}
