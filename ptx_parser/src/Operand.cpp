// Operand.cpp - rendering operands back to PTX syntax.
#include "ptxdvfs/ptx/Operand.h"

namespace ptxdvfs::ptx {

static std::string joined(const std::vector<Operand> &operands) {
  std::string text;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    if (i)
      text += ", ";
    text += toString(operands[i]);
  }
  return text;
}

namespace {
struct Printer {
  std::string operator()(const Register &r) const { return (r.negated ? "!" : "") + r.name; }
  std::string operator()(const VectorElement &e) const { return e.base + "." + e.component; }
  std::string operator()(const Symbol &s) const { return s.name; }
  std::string operator()(const Immediate &i) const { return i.text; }
  std::string operator()(const RegisterOffset &r) const {
    return r.base + "+" + std::to_string(r.offset);
  }
  std::string operator()(const Address &a) const { return "[" + joined(a.parts) + "]"; }
  std::string operator()(const VectorPack &v) const { return "{" + joined(v.elements) + "}"; }
  std::string operator()(const ArgumentList &l) const { return "(" + joined(l.elements) + ")"; }
  std::string operator()(const PredicatePair &p) const { return p.first + "|" + p.second; }
  std::string operator()(const Sink &) const { return "_"; }
  std::string operator()(const Expression &e) const { return e.text; }
};
} // namespace

std::string toString(const Operand &operand) { return std::visit(Printer{}, operand.value); }

} // namespace ptxdvfs::ptx
