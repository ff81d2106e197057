// CudaSourceFuzzer.cpp - libFuzzer: any text as the CUDA source beside a PTX
// file (which 'loops', 'lint' and the LSP read for names and launches),
// never a crash, a hang, a name at an offset outside its struct, a
// struct member's default read from elsewhere than its offset, or a
// launch size below 1 or above 1024 threads, or a launch count below 1
// but for a kernel not launched; and any text as --program-args split,
// shown and split again into the same arguments.
#include "CudaCode.h"
#include "CudaCommandLine.h"
#include "CudaConstants.h"
#include "CudaDevice.h"
#include "CudaHostLoops.h"
#include "CudaLaunches.h"
#include "CudaSource.h"
#include "CudaStructLayout.h"
#include "CudaSymbolCopies.h"
#include "SourceLaunchHelpers.h"

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace ptxdvfs;
using namespace ptxdvfs::tools;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string source(reinterpret_cast<const char *>(data), size);
  CudaStructs structs(source);
  // Every declared type, and every word after `struct` or `typedef`, as a type to lay out.
  std::vector<CudaDeclaration> declarations = cudaConstantVariables(source);
  const std::string blanked = codeOf(source);
  for (std::size_t at = source.find("__global__"); at != std::string::npos && declarations.size() < 64;
       at = source.find("__global__", at + 1)) {
    const std::size_t open = source.find('(', at);
    const std::size_t nameEnd = open == std::string::npos ? open : source.find_last_not_of(" \t\n", open - 1);
    if (nameEnd == std::string::npos)
      break;
    std::size_t nameStart = source.find_last_of(" \t\n*&", nameEnd);
    nameStart = nameStart == std::string::npos ? 0 : nameStart + 1;
    for (CudaDeclaration &parameter : cudaParameters(blanked, source.substr(nameStart, nameEnd + 1 - nameStart)))
      declarations.push_back(std::move(parameter));
  }
  for (const char *keyword : {"struct ", "typedef "})
    for (std::size_t at = source.find(keyword); at != std::string::npos && declarations.size() < 128;
         at = source.find(keyword, at + 1))
      declarations.push_back({source.substr(at, 40), "v"});
  for (const CudaDeclaration &declaration : declarations) {
    for (const auto &[offset, name] : structs.fieldNames(declaration.type, declaration.name))
      if (offset < 0 || offset >= (std::int64_t{1} << 40) || name.empty())
        __builtin_trap();
    // A default member initializer is the source's own text, at its offset.
    if (const auto members = structs.members(declaration.type))
      for (const StructMember &member : *members)
        if (member.name.empty() ||
            (!member.initializer.empty() &&
             (member.initializerAt >= source.size() ||
              blanked.compare(member.initializerAt, member.initializer.size(), member.initializer) != 0)))
          __builtin_trap();
  }
  // Every word as a mangled kernel name, every part between `<` and `>` as a template argument.
  for (const std::string &word : wordsIn(source.substr(0, 4096))) {
    (void)baseNameOf(word);
    (void)templateArgumentsOf(word);
  }
  for (std::size_t at = source.find('<'); at != std::string::npos && at < 4096; at = source.find('<', at + 1))
    for (const std::string &part : topLevelParts(std::string_view(source).substr(at + 1, source.find('>', at) - at)))
      (void)builtinTemplateArgument(part);
  // The launches of a module with the host-launch fixture's kernels, template instances among them.
  static const ptx::Module module = [] {
    ptx::Module kernels;
    for (const char *name : {"_Z16launched_literalPf", "_Z23launched_with_argumentsPfii", "_Z17launched_templateIfEvPT_",
                             "_Z17launched_templateIdEvPT_", "_Z14launched_sizedILi2EEvPf", "_Z14launched_sizedILi4EEvPf",
                             "_Z5relaxPf", "_Z6smoothPf"}) { // and two of host_loops.cu's
      ptx::Function kernel;
      kernel.name = name;
      kernel.hasBody = true;
      kernel.parameters.resize(name == std::string("_Z23launched_with_argumentsPfii") ? 3 : 1);
      kernels.functions.push_back(std::move(kernel));
    }
    return kernels;
  }();
  // A line `// file: NAME` starts another file, so that programs joined by `#include`s are read too.
  std::vector<CudaSourceFile> files{{"f.cu", "f.cu", ""}};
  for (std::size_t start = 0; start < source.size();) {
    const std::size_t end = std::min(source.find('\n', start), source.size());
    const std::string line = source.substr(start, end - start);
    if (line.rfind("// file: ", 0) == 0 && files.size() < 8)
      files.push_back({line.substr(9), "d/" + line.substr(9), ""});
    else
      files.back().text += line + "\n";
    start = end + 1;
  }
  // On a GPU the table knows, so that device queries are answered too.
  for (const auto &[name, launch] : sourceLaunches(module, files, 1, targetDeviceNamed(kDefaultTargetGpu))) {
    if (launch.block && (launch.block->x < 1 || launch.block->y < 1 || launch.block->z < 1 ||
                         std::uint64_t{launch.block->x} * launch.block->y * launch.block->z > 1024))
      __builtin_trap();
    if (launch.arguments.size() != launch.argumentsOpen.size() || (launch.block && !launch.blockOpen.empty()))
      __builtin_trap();
    // At least one launch, with a reason where there are more, where one stands for none, or where
    // one of several sites runs once; none only for a kernel not launched, which has no size.
    const bool onceExplained = launch.launchesWhy.rfind("never launched", 0) == 0 ||
                               launch.launchesWhy.rfind("launched once: ", 0) == 0;
    const bool notLaunched = launch.launchesWhy.rfind("not launched: ", 0) == 0;
    if (notLaunched != (launch.launches == 0) || (notLaunched && (launch.grid || launch.block)))
      __builtin_trap();
    if ((launch.launches != 1 && launch.launchesWhy.empty()) ||
        (launch.launches == 1 && !launch.launchesWhy.empty() && !onceExplained) ||
        (launch.launchesOrigin != ptx::analysis::ValueOrigin::Assumed &&
         launch.launchesOrigin != ptx::analysis::ValueOrigin::Defaulted))
      __builtin_trap();
  }
  // The copies into constant memory of three `__constant__` variables: each part named NAME or NAME+BYTES.
  static const ptx::Module constants = constantVariablesModule({"c_n", "c_dims", "c_p"});
  const ConstantFolder copies(files);
  for (const auto &[name, write] : sourceSymbolWrites(constants, copies)) {
    const std::size_t plus = name.find('+');
    const std::string symbol = name.substr(0, plus);
    if ((symbol != "c_n" && symbol != "c_dims" && symbol != "c_p") || write.how.empty() ||
        (plus != std::string::npos && (plus + 1 == name.size() || name[plus + 1] == '0')))
      __builtin_trap();
  }
  // Every `<<<...>>>` as a launch: its sizes and arguments folded where they are written, the program
  // run bare and with a command line (an option among it).
  for (const std::vector<std::string> &arguments : {std::vector<std::string>{}, {"4096", "0x10", "-n", "k"}}) {
    const ConstantFolder folder({{"f.cu", "f.cu", source}}, nullptr, arguments);
    const std::string &code = folder.files().front().code();
    int launches = 0;
    for (std::size_t at = code.find("<<<"); at != std::string::npos && launches < 32; at = code.find("<<<", at + 3)) {
      ++launches;
      const std::size_t close = code.find(">>>", at + 3);
      for (const std::string &part :
           topLevelParts(code.substr(at + 3, close == std::string::npos ? 64 : close - at - 3))) {
        if (auto dims = folder.dimension(0, at, part); dims && (dims->x < 1 || dims->y < 1 || dims->z < 1))
          __builtin_trap();
        (void)folder.value(0, at, part);
      }
      (void)folder.files().front().where(at);
      // The loops around it all begin before it.
      for (const HostLoop &loop : hostLoopsAround(folder, 0, at))
        if (loop.at >= at || loop.header.empty())
          __builtin_trap();
    }
  }
  // The text as a command line: split, shown and split again, it is the same arguments.
  std::string error;
  if (const auto split = splitProgramArguments(source, error)) {
    const auto again = splitProgramArguments(shownArguments(*split), error);
    if (!again || *again != *split)
      __builtin_trap();
  } else if (error.empty()) {
    __builtin_trap();
  }
  return 0;
}
