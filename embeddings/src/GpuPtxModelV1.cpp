// GpuPtxModelV1.cpp - line rules, operand checks and the dependency window of gpuptxmodel-v1.
//
// Every `quirk:` below is a behaviour of the original tool that the public
// training data was encoded with; see shared/docs/encoding-v1.md. Fixing
// one means a new scheme, not an edit here.
#include "GpuPtxModelV1.h"

#include <algorithm>
#include <deque>

namespace ptxdvfs::embeddings {

namespace {

constexpr std::size_t kWindowSize = 9;
constexpr unsigned kMaxOperandCount = 9;
/// 1-based position of `param` in the state-space list the data was made
/// with (reg sreg const global local param ...). quirk: the original meant
/// `shared` here; `.param` loads get DependencyKind::Shared.
constexpr unsigned kParamSpaceDigit = 6;

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/// Python's str.strip().
std::string_view strip(std::string_view text) {
  while (!text.empty() && isSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back()))
    text.remove_suffix(1);
  return text;
}

/// Python's str.split() with no argument: runs of whitespace separate.
std::vector<std::string_view> splitWhitespace(std::string_view text) {
  std::vector<std::string_view> tokens;
  tokens.reserve(8); // an instruction line: mnemonic and a few operands
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && isSpace(text[i]))
      ++i;
    std::size_t start = i;
    while (i < text.size() && !isSpace(text[i]))
      ++i;
    if (i > start)
      tokens.push_back(text.substr(start, i - start));
  }
  return tokens;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  parts.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), separator)) + 1);
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(separator, start)) != std::string_view::npos;
       start = at + 1)
    parts.push_back(text.substr(start, at - start));
  parts.push_back(text.substr(start));
  return parts;
}

/// The text before the first `c` (all of it if there is none).
std::string_view cutAt(std::string_view text, char c) { return text.substr(0, text.find(c)); }

/// The text between the first `[` and the `]` after it; a missing bracket
/// leaves that end open.
std::string_view insideBrackets(std::string_view token) {
  std::size_t open = token.find('[');
  if (open != std::string_view::npos)
    token.remove_prefix(open + 1);
  return cutAt(token, ']');
}

/// The trimmed comma-separated names inside the line's first `{...}`.
std::vector<std::string_view> namesInFirstBraces(std::string_view line) {
  std::size_t open = line.find('{');
  if (open == std::string_view::npos)
    return {};
  std::string_view inside = cutAt(line.substr(open + 1), '}');
  std::vector<std::string_view> names;
  for (std::string_view name : split(inside, ','))
    names.push_back(strip(name));
  return names;
}

/// The most recently written operands, most recent first, each with the
/// kind of instruction that wrote it.
class DependencyWindow {
public:
  struct Match {
    unsigned distance = 0;
    DependencyKind kind = DependencyKind::Core;
  };

  /// Looks `operand` up and keeps it in `best` if closer than what `best`
  /// holds (on a tie, the operand checked first wins).
  void check(std::string_view operand, Match &best) const {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i].operand != operand)
        continue;
      auto distance = static_cast<unsigned>(i + 1);
      if (best.distance == 0 || distance < best.distance)
        best = {distance, entries_[i].kind};
      return;
    }
  }

  void write(std::string_view operand, DependencyKind kind) {
    entries_.push_front({std::string(operand), kind});
    if (entries_.size() > kWindowSize)
      entries_.pop_back();
  }

private:
  struct Entry {
    std::string operand;
    DependencyKind kind;
  };
  std::deque<Entry> entries_;
};

bool hasModifier(const std::vector<std::string_view> &parts, std::string_view modifier) {
  return std::find(parts.begin() + 1, parts.end(), modifier) != parts.end();
}

/// Applies the rules to one source line; nullopt when the line is not an
/// instruction of the scheme's vocabulary.
std::optional<InstructionRecord> encodeLine(std::string_view lineText,
                                            const Vocabulary &vocabulary,
                                            DependencyWindow &window) {
  std::string_view line = strip(lineText);
  std::vector<std::string_view> tokens = splitWhitespace(line);
  if (tokens.empty())
    return std::nullopt;
  // quirk: a guarded line starts with its guard, and `ret;`/`exit;` keep
  // their `;`, so none of them matches an opcode and they are skipped.
  std::vector<std::string_view> parts = split(tokens[0], '.');
  std::string_view opcode = parts[0];
  auto opcodeIndex = Vocabulary::indexIn(vocabulary.opcodes, opcode);
  if (!opcodeIndex)
    return std::nullopt;

  InstructionRecord record;
  record.opcode = static_cast<std::uint16_t>(*opcodeIndex);
  // The state space is looked for between the first and the last part only.
  for (std::size_t i = 1; parts.size() > 2 && i + 1 < parts.size(); ++i) {
    if (auto space = Vocabulary::indexIn(vocabulary.stateSpaces, parts[i])) {
      record.stateSpace = static_cast<std::uint8_t>(*space + 1);
      break;
    }
  }
  if (auto type = Vocabulary::indexIn(vocabulary.types, parts.back()))
    record.type = static_cast<std::uint8_t>(*type + 1);
  // Raw count for the operand rules below; clamped only in the record so
  // that the code keeps its width (the spec leaves the rules' N open).
  auto operandCount = static_cast<unsigned>(std::count(line.begin(), line.end(), ',')) + 1;
  record.operandCount = static_cast<std::uint8_t>(std::min(operandCount, kMaxOperandCount));

  bool isVector = hasModifier(parts, "v2") || hasModifier(parts, "v4");
  auto token = [&](std::size_t i) { return i < tokens.size() ? tokens[i] : std::string_view(); };
  DependencyWindow::Match dependency;

  if (opcode == "st") {
    // quirk: `[%rd7+8]` gives `%rd7+8`, which never matches a register.
    if (tokens.size() > 1)
      window.check(cutAt(insideBrackets(tokens[1]), ','), dependency);
    if (isVector) {
      for (std::string_view value : namesInFirstBraces(line))
        window.check(value, dependency);
    } else if (tokens.size() > 2) {
      window.check(cutAt(tokens[2], ';'), dependency);
    }
  } else if (opcode == "ld") {
    DependencyKind kind = record.stateSpace == kParamSpaceDigit ? DependencyKind::Shared
                                                                : DependencyKind::Memory;
    std::size_t addressToken = hasModifier(parts, "v2") ? 3 : hasModifier(parts, "v4") ? 5 : 2;
    if (tokens.size() > addressToken)
      window.check(cutAt(cutAt(insideBrackets(tokens[addressToken]), ','), ';'), dependency);
    if (isVector) {
      for (std::string_view destination : namesInFirstBraces(line))
        window.write(destination, kind);
    } else if (tokens.size() > 1) {
      window.write(cutAt(cutAt(tokens[1], ','), ';'), kind);
    }
  } else {
    if (operandCount > 1) {
      if (tokens.size() >= operandCount + 1) {
        for (std::size_t i = 2; i <= operandCount; ++i)
          window.check(cutAt(cutAt(tokens[i], ','), ';'), dependency);
      } else if (tokens.size() > 1) {
        // quirk: operands without spaces: the first two pieces of token 1,
        // the destination among them.
        std::vector<std::string_view> pieces = split(tokens[1], ',');
        window.check(pieces[0], dependency);
        if (pieces.size() > 1)
          window.check(cutAt(pieces[1], ';'), dependency);
      }
    }
    // quirk: token 1 is written whatever it is (`bar.sync 0;` writes `0`,
    // `bra.uni $L;` the label); a line without one writes nothing.
    if (!token(1).empty())
      window.write(cutAt(cutAt(token(1), ','), ';'), DependencyKind::Core);
  }
  record.dependencyDistance = static_cast<std::uint8_t>(dependency.distance);
  record.dependencyKind = dependency.kind;
  return record;
}

// quirk: one window for the whole file, never reset between kernels.
struct WindowThroughFile : EncodingScheme::CarriedState {
  DependencyWindow window;
};

} // namespace

std::unique_ptr<EncodingScheme::CarriedState> GpuPtxModelV1::newCarriedState() const {
  return std::make_unique<WindowThroughFile>();
}

std::vector<EncodedKernel> GpuPtxModelV1::encodeSteps(const std::vector<KernelSteps> &kernels,
                                                      CarriedState &state) const {
  std::vector<EncodedKernel> encoded;
  DependencyWindow &window = static_cast<WindowThroughFile &>(state).window;
  for (const KernelSteps &kernel : kernels) {
    EncodedKernel out(kernel.name, {});
    for (const Step &step : kernel.steps) {
      // The rules see source lines: a line holding two instructions counts once.
      if (step.continuesLine)
        continue;
      auto record = encodeLine(step.instruction->lineText, vocabulary(), window);
      if (!record)
        continue;
      record->location = step.instruction->location;
      record->debugLocation = step.instruction->debugLocation;
      record->weight = step.weight;
      record->loop = step.loop;
      out.instructions.push_back(*record);
    }
    encoded.push_back(std::move(out));
  }
  return encoded;
}

} // namespace ptxdvfs::embeddings
