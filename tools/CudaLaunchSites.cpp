// CudaLaunchSites.cpp - finding the launches written in host code, and
// the kernels a launch through a function pointer stands for.
#include "CudaLaunchSites.h"

#include "CudaCode.h"
#include "CudaSource.h"
#include "CudaStatements.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

namespace ptxdvfs::tools {

namespace {

/// The kernel named just before `<<<` at `launch`: `scale`, `ns::scale`,
/// `scale<float, 4>` (whose arguments go to `templateArguments`); `at`
/// moves to the start of its name.
std::string launchedName(const std::string &code, std::size_t launch, std::vector<std::string> &templateArguments,
                         std::size_t &at) {
  at = codeEndBefore(code, launch);
  if (at > 0 && code[at - 1] == '>') {
    const std::size_t close = at - 1;
    at = openingOf(code, close);
    if (code[at] == '<')
      templateArguments = topLevelParts(std::string_view(code).substr(at + 1, close - at - 1));
  }
  return wordBefore(code, at);
}

/// `&config` -> `config`: an argument without its leading `&` and spaces.
std::string withoutAddressOf(std::string_view argument) {
  std::string written = trimmed(argument);
  return written.rfind('&', 0) == 0 ? trimmed(std::string_view(written).substr(1)) : written;
}

/// The launches written in `folder`'s files, each by the name before `<<<` or the API's first argument.
std::vector<LaunchSite> writtenLaunchSites(const ConstantFolder &folder) {
  std::vector<LaunchSite> sites;
  for (std::size_t file = 0; file < folder.files().size(); ++file) {
    const std::string &code = folder.files()[file].code();
    auto add = [&](std::string kernel, std::size_t at, std::size_t statement, const std::vector<std::string> &parts,
                   std::optional<std::vector<std::string>> arguments, std::vector<std::string> templateArguments) {
      if (!kernel.empty() && parts.size() >= 2)
        sites.push_back({std::move(kernel), file, at, statement, parts[0], parts[1], std::move(arguments),
                         std::move(templateArguments), {}, 1, {}, {}});
    };
    for (std::size_t at = code.find("<<<"); at != std::string::npos; at = code.find("<<<", at + 3)) {
      const std::size_t close = code.find(">>>", at + 3);
      if (close == std::string::npos)
        continue;
      std::optional<std::vector<std::string>> arguments;
      const std::size_t open = code.find_first_not_of(" \t\r\n", close + 3);
      if (open != std::string::npos && code[open] == '(')
        arguments = partsInParentheses(code, open); // none for `kernel<<<g, b>>>()`
      std::vector<std::string> templateArguments;
      std::size_t statement = at;
      std::string kernel = launchedName(code, at, templateArguments, statement);
      add(std::move(kernel), at, statement, topLevelParts(std::string_view(code).substr(at + 3, close - at - 3)),
          std::move(arguments), std::move(templateArguments));
    }
    for (std::string_view api : {"cudaLaunchKernel", "cudaLaunchCooperativeKernel"}) {
      for (std::size_t at = code.find(api); at != std::string::npos; at = code.find(api, at + 1)) {
        std::size_t open = code.find_first_not_of(" \t\r\n", at + api.size());
        if (open == std::string::npos || code[open] != '(' || (at > 0 && isIdentifierChar(code[at - 1])))
          continue;
        const std::size_t close = pastClosing(code, open);
        if (close == std::string::npos)
          continue;
        std::vector<std::string> parts = topLevelParts(std::string_view(code).substr(open + 1, close - open - 2));
        std::string kernel;
        for (const std::string &word : wordsIn(parts[0]))
          if (kernel.empty() && word != "void" && word != "const" && word != "reinterpret_cast" && word != "static_cast")
            kernel = word;
        parts.erase(parts.begin());
        // Its kernel's arguments, through an array of their addresses: `void *args[] = {&a, &n};`.
        const std::string array = parts.size() > 2 ? trimmed(parts[2]) : "";
        add(kernel, at, at, parts, isName(array) ? argumentArrayNames(code, array, at) : std::nullopt, {});
      }
    }
    // `cudaLaunchKernelEx(&config, kernel, arguments...)`: the sizes are the config's fields.
    static constexpr std::string_view kLaunchEx = "cudaLaunchKernelEx";
    for (std::size_t at = code.find(kLaunchEx); at != std::string::npos; at = code.find(kLaunchEx, at + 1)) {
      const std::size_t open = code.find_first_not_of(" \t\r\n", at + kLaunchEx.size());
      if (open == std::string::npos || code[open] != '(' || !isWholeWord(code, at, kLaunchEx.size()))
        continue;
      const std::size_t close = pastClosing(code, open);
      if (close == std::string::npos)
        continue;
      std::vector<std::string> parts = topLevelParts(std::string_view(code).substr(open + 1, close - open - 2));
      if (parts.size() < 2)
        continue;
      const std::string config = firstWordOf(withoutAddressOf(parts[0]));
      if (config.empty())
        continue;
      // Folded as any member is: its last assignment (`config.gridDim = dim3(n / 256);`) or the initializer.
      std::vector<std::string> sizes{config + ".gridDim", config + ".blockDim"};
      add(firstWordOf(withoutAddressOf(parts[1])), at, at, sizes,
          std::vector<std::string>(parts.begin() + 2, parts.end()), {});
    }
  }
  return sites;
}

/// Calls `visit(offset, name)` for each identifier of `text`, in order.
template <typename Visit> void forEachIdentifier(std::string_view text, Visit visit) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (!isIdentifierChar(text[at]) || (at > 0 && isIdentifierChar(text[at - 1])))
      continue;
    std::size_t length = 1;
    while (at + length < text.size() && isIdentifierChar(text[at + length]))
      ++length;
    visit(at, text.substr(at, length));
    at += length - 1;
  }
}

/// The kernels of a function pointer, each with the template arguments
/// written after it (`&reduce<256>`), in the order first given.
using PointerTargets = std::vector<std::pair<std::string, std::vector<std::string>>>;

/// Adds `target` to `targets` unless a kernel of its name is there.
void addTarget(PointerTargets &targets, std::pair<std::string, std::vector<std::string>> target) {
  if (std::none_of(targets.begin(), targets.end(), [&](const auto &known) { return known.first == target.first; }))
    targets.push_back(std::move(target));
}

/// Adds the kernels among `kernels` (unmangled names) that `value`, the
/// right side of an assignment at `from` of `code`, names to `targets`.
void addAssignedKernels(const std::string &code, std::size_t from, std::string_view value,
                        const std::set<std::string, std::less<>> &kernels, PointerTargets &targets) {
  forEachIdentifier(value, [&](std::size_t word, std::string_view target) {
    if (kernels.count(target))
      addTarget(targets, {std::string(target), templateArgumentsAt(code, from + word, target.size())});
  });
}

/// Per function of `file` ("" for file scope) and pointer among
/// `pointers`, the kernels among `kernels` it is given there: `kernel =
/// &copy;`, `void (*kernel)(float *, int) = copy;`, `kernel = tiled ?
/// &tiledCopy : &copy;`. One pass over the file, however many pointers.
std::map<std::pair<std::string, std::string>, PointerTargets, std::less<>> pointerAssignments(
    const CudaCode &file, const std::set<std::string, std::less<>> &pointers,
    const std::set<std::string, std::less<>> &kernels) {
  std::map<std::pair<std::string, std::string>, PointerTargets, std::less<>> assigned;
  const std::string &code = file.code();
  forEachIdentifier(code, [&](std::size_t start, std::string_view name) {
    if (!pointers.count(name) || (start > 0 && (code[start - 1] == '.' || code[start - 1] == '>')))
      return;
    std::size_t next = code.find_first_not_of(" \t\r\n", start + name.size());
    if (next != std::string::npos && code[next] == ')') { // the declarator of `void (*name)(...)`
      next = code.find_first_not_of(" \t\r\n", next + 1);
      if (next != std::string::npos && code[next] == '(' && (next = pastClosing(code, next)) != std::string::npos)
        next = code.find_first_not_of(" \t\r\n", next);
    }
    if (next == std::string::npos || code[next] != '=' || code.compare(next, 2, "==") == 0)
      return;
    const std::size_t end = statementEndFrom(code, next + 1);
    const std::string_view value =
        std::string_view(code).substr(next + 1, (end == std::string::npos ? code.size() : end) - next - 1);
    addAssignedKernels(code, next + 1, value, kernels, assigned[{file.functionNameAt(start), std::string(name)}]);
  });
  return assigned;
}

/// The position of the parameter named `name` in the list of the
/// function whose body is `body`; npos where it has none of that name.
std::size_t parameterIndex(const CudaCode &source, int body, const std::string &name) {
  const std::vector<std::string> parameters = source.parametersOf(body);
  for (std::size_t index = 0; index < parameters.size(); ++index) {
    const std::vector<std::string> words = wordsIn(parameters[index]);
    if (std::find(words.begin(), words.end(), name) != words.end())
      return index;
  }
  return std::string::npos;
}

/// A kernel a function's parameter is given, and the calls that give it:
/// the function's own, and where a call passes its caller's parameter on
/// (`void twice(K k) { timed(k); timed(k); }`), the caller's calls too.
struct PassedKernel {
  std::pair<std::string, std::vector<std::string>> kernel; ///< name, template arguments
  TemplateCalls calls;
};

/// How many functions a kernel is followed through, parameter to parameter.
constexpr int kMostParameterHops = 3;

/// Adds to `passed` what the calls of `function` (of a file that `file`
/// sees) pass as its parameter `index`, merged by kernel; false where
/// some call passes anything but one kernel or a parameter of its own
/// function that is followed so (`hops` functions at most).
bool addKernelsPassed(const ConstantFolder &folder, std::size_t file, const std::string &function, std::size_t index,
                      const std::set<std::string, std::less<>> &kernels, int hops, std::vector<PassedKernel> &passed) {
  const std::vector<std::pair<std::size_t, std::size_t>> &calls = folder.callsOf(function);
  bool any = false;
  for (const std::pair<std::size_t, std::size_t> &call : calls) {
    if (!folder.sees(file, call.first))
      continue; // another program's function of the same name
    const CudaCode &caller = folder.files()[call.first];
    const std::string &code = caller.code();
    const std::size_t arguments = code.compare(call.second, function.size(), function) == 0
                                      ? callArgumentsAt(code, call.second, function.size())
                                      : std::string::npos; // `b` of `Solver a(4), b(8);`
    const std::size_t end = arguments == std::string::npos ? arguments : pastClosing(code, arguments);
    if (end == std::string::npos)
      return false;
    const std::vector<std::string> passedArguments =
        topLevelParts(std::string_view(code).substr(arguments + 1, end - arguments - 2));
    if (index >= passedArguments.size())
      return false;
    PointerTargets targets;
    addAssignedKernels(passedArguments[index], 0, passedArguments[index], kernels, targets);
    std::vector<PassedKernel> found;
    if (targets.size() == 1) {
      found.push_back({targets.front(), {}});
    } else {
      // The caller's own parameter, passed on: what the caller's calls give it.
      const std::string name = trimmed(passedArguments[index]);
      const int body = caller.functionBodyAt(call.second);
      const std::size_t callerIndex = targets.empty() && firstWordOf(name) == name && hops > 1
                                          ? parameterIndex(caller, body, name)
                                          : std::string::npos;
      if (callerIndex == std::string::npos ||
          !addKernelsPassed(folder, call.first, caller.functionNameOf(body), callerIndex, kernels, hops - 1, found))
        return false;
    }
    for (PassedKernel &each : found) {
      each.calls[function].push_back(call);
      auto same = std::find_if(passed.begin(), passed.end(),
                               [&](const PassedKernel &known) { return known.kernel == each.kernel; });
      if (same == passed.end()) {
        passed.push_back(std::move(each));
        continue;
      }
      for (auto &[name, through] : each.calls)
        for (const auto &one : through)
          if (std::find(same->calls[name].begin(), same->calls[name].end(), one) == same->calls[name].end())
            same->calls[name].push_back(one);
    }
    any = true;
  }
  return any;
}

/// For a launch through a parameter of the function around it (`void
/// timed(void (*kernel)(float *)) { kernel<<<...>>>(x); }`): one launch of
/// each kernel that the function's calls pass there (`timed(copy)`,
/// `timed(&reduce<256>)`, or a caller's parameter that its own calls
/// give, kMostParameterHops functions up), standing for the calls that
/// pass it alone. Only the calls in the files that see the launch's
/// count. Empty where the name is no parameter, or some call passes
/// something else (a pointer variable, a choice).
std::vector<LaunchSite> throughParameter(const ConstantFolder &folder, const LaunchSite &site,
                                         const std::set<std::string, std::less<>> &kernels) {
  const CudaCode &source = folder.files()[site.file];
  const int body = source.functionBodyAt(site.offset);
  const std::size_t index = parameterIndex(source, body, site.kernel);
  const std::string function = body < 0 ? std::string() : source.functionNameOf(body);
  std::vector<PassedKernel> passed;
  if (index == std::string::npos || function.empty() || !site.instance.empty() ||
      !addKernelsPassed(folder, site.file, function, index, kernels, kMostParameterHops, passed))
    return {};
  std::vector<LaunchSite> each;
  for (PassedKernel &kernel : passed) {
    LaunchSite launch = site;
    launch.kernel = kernel.kernel.first;
    launch.templateArguments = kernel.kernel.second;
    launch.instance = std::move(kernel.calls);
    launch.through = "through `" + function + "`'s parameter `" + site.kernel + "`";
    each.push_back(std::move(launch));
  }
  return each;
}

/// `sites` with each launch through a function pointer replaced by one
/// launch of each kernel the pointer is given in the launch's function or
/// at file scope (pointerAssignments()), sharing its runs, or, for a
/// pointer that is the function's parameter, by what its calls pass
/// (throughParameter()).
std::vector<LaunchSite> throughPointers(const ConstantFolder &folder, std::vector<LaunchSite> sites,
                                        const std::set<std::string, std::less<>> &kernels) {
  std::map<std::size_t, std::set<std::string, std::less<>>> pointersByFile;
  for (const LaunchSite &site : sites)
    if (!kernels.count(site.kernel))
      pointersByFile[site.file].insert(site.kernel);
  std::map<std::size_t, std::map<std::pair<std::string, std::string>, PointerTargets, std::less<>>> assigned;
  for (const auto &[file, pointers] : pointersByFile)
    assigned.emplace(file, pointerAssignments(folder.files()[file], pointers, kernels));
  std::vector<LaunchSite> resolved;
  for (LaunchSite &site : sites) {
    PointerTargets targets;
    if (const auto inFile = assigned.find(site.file); inFile != assigned.end()) {
      const std::string function = folder.files()[site.file].functionNameAt(site.offset);
      for (const std::string &scope : {function, std::string()})
        if (const auto given = inFile->second.find(std::make_pair(scope, site.kernel)); given != inFile->second.end())
          for (const auto &target : given->second)
            addTarget(targets, target);
    }
    if (targets.empty()) {
      std::vector<LaunchSite> passed = throughParameter(folder, site, kernels);
      if (passed.empty())
        resolved.push_back(std::move(site));
      for (LaunchSite &launch : passed)
        resolved.push_back(std::move(launch));
      continue;
    }
    for (const auto &[kernel, templateArguments] : targets) {
      LaunchSite each = site;
      each.kernel = kernel;
      each.templateArguments = templateArguments;
      each.sharedBy = targets.size();
      resolved.push_back(std::move(each));
    }
  }
  return resolved;
}

/// The names `code` declares or defines `__global__`: the name before
/// the first `(` after it that does not open `__launch_bounds__(...)`,
/// and before the template arguments of an explicit specialization or
/// instantiation (`template __global__ void k<float>(float *);`).
void addKernelNames(const std::string &code, std::set<std::string, std::less<>> &names) {
  static constexpr std::string_view kGlobal = "__global__";
  for (std::size_t at = code.find(kGlobal); at != std::string::npos; at = code.find(kGlobal, at + kGlobal.size())) {
    if (!isWholeWord(code, at, kGlobal.size()))
      continue;
    for (std::size_t open = code.find('(', at + kGlobal.size()); open != std::string::npos;
         open = code.find('(', open + 1)) {
      std::size_t start = codeEndBefore(code, open);
      if (start > at && code[start - 1] == '>')
        start = openingOf(code, start - 1);
      const std::string name = wordBefore(code, start);
      if (name != "__launch_bounds__") {
        names.insert(name);
        break;
      }
      if ((open = pastClosing(code, open)) == std::string::npos)
        break;
      --open; // the search resumes past the closing bracket
    }
  }
}

} // namespace

std::vector<LaunchSite> launchSitesIn(const ConstantFolder &folder, const std::set<std::string, std::less<>> &kernels) {
  return throughPointers(folder, writtenLaunchSites(folder), kernels);
}

bool everyLaunchNamesAKernel(const ConstantFolder &folder, const std::vector<LaunchSite> &sites) {
  std::set<std::string, std::less<>> kernels;
  for (const CudaCode &file : folder.files())
    addKernelNames(file.code(), kernels);
  return std::all_of(sites.begin(), sites.end(), [&](const LaunchSite &site) { return kernels.count(site.kernel); });
}

std::set<std::string, std::less<>> kernelsNamedOtherwise(const ConstantFolder &folder,
                                                          const std::set<std::string, std::less<>> &kernels) {
  std::set<std::string, std::less<>> named;
  for (const CudaCode &file : folder.files()) {
    const std::string &code = file.code();
    forEachIdentifier(code, [&](std::size_t start, std::string_view name) {
      if (kernels.count(name) && !named.count(name) && !inKernelDeclaration(code, start))
        named.emplace(name);
    });
  }
  return named;
}

} // namespace ptxdvfs::tools
