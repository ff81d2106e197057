// KernelInputs.cpp - reading PTX from .ptx files, from nvcc for .cu files and from cuobjdump for binaries.
#include "KernelInputs.h"

#include "CudaPreprocessor.h"
#include "CudaSource.h"
#include "DiagnosticPrinter.h"

#include "ptxdvfs/ptx/Parser.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <cxxabi.h>
#include <fcntl.h>
#include <signal.h>
#include <fnmatch.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string_view>

namespace ptxdvfs::tools {

namespace fs = std::filesystem;

void addInputFlags(CLI::App &command, InputFlags &flags, bool files) {
  const char *group = "Input";
  if (files) {
    command.add_option("files", flags.files,
                       "PTX files (.ptx), CUDA sources (.cu, compiled with nvcc), or with "
                       "--from-binary CUDA executables and objects")
        ->required()
        ->check(CLI::ExistingFile);
    command.add_flag("--from-binary", flags.fromBinary,
                     "The files are CUDA executables or objects: read the PTX embedded in them "
                     "(cuobjdump -xptx; build with -gencode arch=compute_XX,code=compute_XX to embed it)")
        ->group(group);
  }
  command.add_option("--arch", flags.arch, "nvcc -arch for .cu files, e.g. sm_80 (default: nvcc's)")
      ->group(group);
  command.add_option("--nvcc-flag", flags.nvccFlags,
                     "Pass a flag to nvcc for .cu files, e.g. --nvcc-flag=-DN=1024 (repeatable)")
      ->allow_extra_args(false)
      ->group(group);
  addKernelOption(command, flags.kernels, group);
}

void addKernelOption(CLI::App &command, std::vector<std::string> &patterns, const std::string &group) {
  command.add_option("--kernel", patterns,
                     "Only kernels whose name (mangled, or demangled with or without its "
                     "parameters; a template's also without its return type or arguments) matches "
                     "this glob, e.g. 'saxpy', '*stencil*' or 'reduce<256>' (repeatable)")
      ->allow_extra_args(false)
      ->group(group);
}

std::string demangle(const std::string &name) {
  if (name.rfind("_Z", 0) != 0)
    return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void *)> readable(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && readable ? std::string(readable.get()) : name;
}

std::string demangledWithoutParameters(const std::string &name) {
  std::string readable = demangle(name);
  return readable.substr(0, readable.find('('));
}

namespace {

/// `void scale<float>` -> `scale<float>`: a template instance's demangled
/// name without the return type its mangling carries.
std::string withoutReturnType(const std::string &bare) {
  int depth = 0;
  for (std::size_t at = bare.size(); at-- > 0;) {
    depth += bare[at] == '>' ? 1 : bare[at] == '<' ? -1 : 0;
    if (depth == 0 && bare[at] == ' ')
      return bare.substr(at + 1);
  }
  return bare;
}

/// `reduce<512u>` -> `reduce<512>`: the integer literals of a demangled
/// name without the suffixes (`u`, `l`, `ul`) its unsigned and long
/// template arguments carry, as a user writes them in a pattern.
std::string withoutLiteralSuffixes(const std::string &readable) {
  std::string plain;
  for (std::size_t at = 0; at < readable.size();) {
    const bool number = std::isdigit(static_cast<unsigned char>(readable[at])) &&
                        (at == 0 || !isIdentifierChar(readable[at - 1]));
    if (!number) {
      plain += readable[at++];
      continue;
    }
    while (at < readable.size() && std::isdigit(static_cast<unsigned char>(readable[at])))
      plain += readable[at++];
    std::size_t suffix = at;
    while (suffix < readable.size() && std::string_view("uUlL").find(readable[suffix]) != std::string_view::npos)
      ++suffix;
    if (suffix == readable.size() || !isIdentifierChar(readable[suffix]))
      at = suffix;
  }
  return plain;
}

} // namespace

bool kernelSelected(const std::string &name, const std::vector<std::string> &patterns) {
  if (patterns.empty())
    return true;
  const std::string bare = demangledWithoutParameters(name);
  const std::string instance = withoutReturnType(bare);
  const std::string names[] = {name, demangle(name), bare, instance, withoutLiteralSuffixes(instance), baseNameOf(name)};
  return std::any_of(patterns.begin(), patterns.end(), [&](const std::string &pattern) {
    return std::any_of(std::begin(names), std::end(names),
                       [&](const std::string &candidate) { return fnmatch(pattern.c_str(), candidate.c_str(), 0) == 0; });
  });
}

std::string noKernelSelected(const std::vector<std::string> &patterns, const std::string &purpose) {
  return "no kernel (.entry) " + (patterns.empty() ? purpose : std::string("matches --kernel"));
}

namespace {

bool isExecutable(const fs::path &path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && access(path.c_str(), X_OK) == 0;
}

/// `variable`'s value if set (a path to the tool), else `name` on PATH,
/// else in $CUDA_HOME/bin or /usr/local/cuda/bin; empty when none is found.
std::string findCudaTool(const std::string &name, const char *variable) {
  if (const char *set = variable ? std::getenv(variable) : nullptr; set && *set)
    return set;
  if (const char *path = std::getenv("PATH")) {
    std::string list = path;
    for (std::size_t start = 0; start <= list.size();) {
      std::size_t end = std::min(list.find(':', start), list.size());
      fs::path candidate = fs::path(list.substr(start, end - start)) / name;
      if (end > start && isExecutable(candidate))
        return candidate.string();
      start = end + 1;
    }
  }
  for (const char *home : {static_cast<const char *>(std::getenv("CUDA_HOME")), "/usr/local/cuda"})
    if (home && *home && isExecutable(fs::path(home) / "bin" / name))
      return (fs::path(home) / "bin" / name).string();
  return "";
}

/// Runs `argv` in `workingDir` with its output on our stderr (stdout stays
/// ours: --json readers and the language server's client must see nothing
/// else), or in the file `outputPath` when given; its exit status, or -1
/// if it could not be started or was cancelled.
int runTool(const std::vector<std::string> &argv, const std::string &workingDir,
            const std::string &outputPath = "", Cancellation *cancellation = nullptr) {
  std::vector<char *> args;
  for (const std::string &arg : argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  std::cerr.flush();
  pid_t child = fork();
  if (child < 0)
    return -1;
  if (child == 0) {
    int output = STDERR_FILENO;
    if (!outputPath.empty())
      output = open(outputPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (output < 0 || dup2(output, STDOUT_FILENO) < 0 || dup2(output, STDERR_FILENO) < 0 ||
        chdir(workingDir.c_str()) != 0)
      _exit(127);
    execv(args[0], args.data());
    _exit(127);
  }
  bool attached = !cancellation || cancellation->attach(child);
  if (!attached)
    kill(child, SIGTERM);
  int status = 0;
  pid_t waited = waitpid(child, &status, 0);
  if (cancellation)
    cancellation->detach();
  if (waited < 0 || !attached || (cancellation && cancellation->cancelled()))
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// A folder for tool output, removed with the object.
class TemporaryFolder {
public:
  TemporaryFolder() {
    std::string pattern = (fs::temp_directory_path() / "ptxdvfs-XXXXXX").string();
    if (mkdtemp(pattern.data()))
      path_ = pattern;
  }
  ~TemporaryFolder() {
    std::error_code error;
    if (!path_.empty())
      fs::remove_all(path_, error);
  }
  TemporaryFolder(const TemporaryFolder &) = delete;
  TemporaryFolder &operator=(const TemporaryFolder &) = delete;
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

bool looksLikeElf(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  char magic[4] = {};
  return file.read(magic, 4) && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
}

/// Parses `ptxPath`, reporting it as `shownAs` (nvcc's output is named
/// after the .cu it came from).
bool parseInto(const std::string &ptxPath, const std::string &input, Inputs &inputs) {
  auto module = ptx::parseFile(ptxPath);
  printDiagnostics(module.diagnostics(), std::cerr);
  if (!module)
    return false;
  warnIfDebugBuild(*module, input);
  inputs.modules.push_back({input, std::move(*module), {}});
  return true;
}

/// nvcc's command line for `file`, writing `ptxPath`.
std::vector<std::string> nvccCommand(const std::string &nvcc, const std::string &file,
                                     const InputFlags &flags, const std::string &ptxPath) {
  std::vector<std::string> argv = {nvcc, "-ptx", "-lineinfo"};
  if (!flags.arch.empty())
    argv.push_back("-arch=" + flags.arch);
  argv.insert(argv.end(), flags.nvccFlags.begin(), flags.nvccFlags.end());
  argv.insert(argv.end(), {fs::absolute(file).string(), "-o", ptxPath});
  return argv;
}

std::string nvccMissing(const std::string &file) {
  return file + ": compiling CUDA needs nvcc, which was not found ($CUDACXX, PATH, "
                "/usr/local/cuda/bin); give the PTX instead (nvcc -ptx -lineinfo " +
         file + ")";
}

std::string nvccFailed(const std::string &file, int status, const std::string &nvcc) {
  return file + ": nvcc " +
         (status < 0 || status == 127 ? std::string("could not be run")
                                      : "failed with exit status " + std::to_string(status)) +
         " (command: " + nvcc + " ...)";
}

bool compileCuda(const std::string &file, const InputFlags &flags, Inputs &inputs) {
  std::string nvcc = findCudaTool("nvcc", "CUDACXX");
  if (nvcc.empty()) {
    spdlog::error("{}", nvccMissing(file));
    return false;
  }
  TemporaryFolder folder;
  if (folder.path().empty()) {
    spdlog::error("{}: cannot create a temporary folder for nvcc's output", file);
    return false;
  }
  std::string ptxPath = (fs::path(folder.path()) / fs::path(file).stem()).string() + ".ptx";
  int status = runTool(nvccCommand(nvcc, file, flags, ptxPath), folder.path());
  if (status != 0) {
    spdlog::error("{}", nvccFailed(file, status, nvcc));
    return false;
  }
  if (!parseInto(ptxPath, file, inputs))
    return false;
  inputs.modules.back().nvccFlags = flags.nvccFlags;
  return true;
}

bool extractFromBinary(const std::string &file, Inputs &inputs) {
  std::string cuobjdump = findCudaTool("cuobjdump", nullptr);
  if (cuobjdump.empty()) {
    spdlog::error("{}: reading PTX from a binary needs cuobjdump (CUDA toolkit), which was not "
                  "found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)",
                  file);
    return false;
  }
  TemporaryFolder folder;
  if (folder.path().empty()) {
    spdlog::error("{}: cannot create a temporary folder for cuobjdump's output", file);
    return false;
  }
  int status = runTool({cuobjdump, "-xptx", "all", fs::absolute(file).string()}, folder.path());
  std::vector<fs::path> extracted;
  for (const auto &entry : fs::directory_iterator(folder.path()))
    if (entry.path().extension() == ".ptx")
      extracted.push_back(entry.path());
  std::sort(extracted.begin(), extracted.end());
  if (extracted.empty()) {
    spdlog::error("{}: carries no PTX{} (embed it with -gencode arch=compute_XX,code=compute_XX)",
                  file, status != 0 ? " that cuobjdump could read" : "");
    return false;
  }
  bool ok = true;
  for (const fs::path &ptx : extracted)
    ok = parseInto(ptx.string(), file + " (" + ptx.filename().string() + ")", inputs) && ok;
  return ok;
}

} // namespace

void Cancellation::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  cancelled_ = true;
  if (child_ > 0)
    kill(child_, SIGTERM);
}

bool Cancellation::cancelled() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cancelled_;
}

bool Cancellation::attach(int pid) {
  std::lock_guard<std::mutex> lock(mutex_);
  child_ = pid;
  return !cancelled_;
}

void Cancellation::detach() {
  std::lock_guard<std::mutex> lock(mutex_);
  child_ = 0;
}

CompiledCuda compileCudaFile(const std::string &file, const InputFlags &flags,
                             Cancellation *cancellation) {
  CompiledCuda result;
  std::string nvcc = findCudaTool("nvcc", "CUDACXX");
  if (nvcc.empty()) {
    result.error = nvccMissing(file);
    return result;
  }
  TemporaryFolder folder;
  if (folder.path().empty()) {
    result.error = file + ": cannot create a temporary folder for nvcc's output";
    return result;
  }
  std::string ptxPath = (fs::path(folder.path()) / fs::path(file).stem()).string() + ".ptx";
  std::string outputPath = (fs::path(folder.path()) / "nvcc-output.txt").string();
  int status = runTool(nvccCommand(nvcc, file, flags, ptxPath), folder.path(), outputPath, cancellation);
  std::ifstream output(outputPath);
  result.nvccOutput.assign(std::istreambuf_iterator<char>(output), std::istreambuf_iterator<char>());
  if (cancellation && cancellation->cancelled()) {
    result.cancelled = true;
    return result;
  }
  if (status != 0) {
    result.error = nvccFailed(file, status, nvcc);
    return result;
  }
  auto module = ptx::parseFile(ptxPath);
  result.diagnostics = module.diagnostics();
  if (!module) {
    result.error = file + ": nvcc's PTX could not be parsed";
    return result;
  }
  result.module = InputModule{file, std::move(*module), flags.nvccFlags};
  return result;
}

std::vector<CudaSourceFile> sourcesOf(const InputModule &input) {
  std::vector<CudaSourceFile> sources = readCudaSources(input.module);
  if (std::string macros = nvccFlagsFile(input.nvccFlags); !macros.empty())
    sources.push_back({kNvccFlagsPath, kNvccFlagsPath, std::move(macros)});
  return sources;
}

Inputs readInputs(const InputFlags &flags) {
  Inputs inputs;
  for (const std::string &file : flags.files) {
    bool ok;
    if (flags.fromBinary) {
      ok = extractFromBinary(file, inputs);
    } else if (fs::path(file).extension() == ".cu") {
      ok = compileCuda(file, flags, inputs);
    } else if (looksLikeElf(file)) {
      spdlog::error("{}: a binary, not PTX: add --from-binary to read the PTX embedded in it", file);
      ok = false;
    } else {
      ok = parseInto(file, file, inputs);
    }
    inputs.allRead = inputs.allRead && ok;
  }
  return inputs;
}

} // namespace ptxdvfs::tools
