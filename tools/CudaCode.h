// CudaCode.h - one CUDA file read as code: comments and literals blanked,
// braces matched into blocks (what a name declared in one can be seen
// from), and the small scanners the host-code readers share.
#pragma once

#include "CudaPreprocessor.h"
#include "CudaSource.h"
#include "CudaWordIndex.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ptxdvfs::tools {

class CudaCode {
public:
  /// `code`: codeOf(file.text), which the reader of several files needs
  /// first for the macros each defines; `macrosElsewhere`: the macros the
  /// other files read with it define; `flags`: those the build's -D and -U
  /// flags set (readConditionals()).
  CudaCode(const CudaSourceFile &file, std::string code, const std::set<std::string, std::less<>> &macrosElsewhere,
           const FlagMacros &flags = {});

  /// The file's text with comments and literals blanked (codeOf()), and
  /// the lines the build without -D flags leaves out too
  /// (readConditionals()); offsets are the file's.
  const std::string &code() const { return code_; }

  /// The innermost chain of `#if`s around `offset` whose conditions read a
  /// macro that no file defines as undefined (readConditionals()): what it
  /// keeps holds only for a build without that -D flag. Null where none is.
  const UndefinedKnob *knobAround(std::size_t offset) const;

  /// The file's text as written, for quoting it: offsets are code()'s.
  const std::string &text() const { return text_; }

  /// Where `name` is written in code() as a whole word before `before`, the nearest first:
  /// `for (std::size_t at : source.wordsBefore(name, before))`.
  WordIndex::Before wordsBefore(const std::string &name, std::size_t before) const {
    return words_.before(code_, name, before);
  }
  /// Where `name` is written in code() as a whole word, in order.
  const std::vector<std::size_t> &wordsNamed(const std::string &name) const { return words_.wordsNamed(code_, name); }

  /// `main.cu:57`: the file's name and the 1-based line of `offset`.
  std::string where(std::size_t offset) const;

  /// The innermost block (`{...}`) holding `offset`; -1 at file scope.
  int blockAt(std::size_t offset) const;

  /// Whether code in block `inner` sees what is declared in block `outer`
  /// (the same block or one around it; -1, file scope, is around all).
  bool encloses(int outer, int inner) const;

  /// Whether `block` is a function's body or inside one.
  bool insideFunction(int block) const;

  /// Whether `block` is a function's body itself.
  bool isFunctionBody(int block) const { return blocks_[static_cast<std::size_t>(block)].functionBody; }

  /// The body of the function that holds `offset` (the innermost); -1 outside every function.
  int functionBodyAt(std::size_t offset) const;

  /// The body of the function at file scope that holds `offset`, through
  /// the named lambdas in it (whose template parameters are its); -1
  /// outside every function.
  int outermostFunctionBodyAt(std::size_t offset) const;

  /// The name of the innermost function whose body holds `offset`
  /// (functionNameOf(functionBodyAt(offset))); empty outside every function.
  std::string functionNameAt(std::size_t offset) const { return functionNameOf(functionBodyAt(offset)); }

  /// The name of the function whose body `block` is (`run` for `void
  /// Solver::run(int n) const {`); empty for a block that is no function's body.
  std::string functionNameOf(int block) const;

  /// The bodies of the functions named `name` (functionNameOf()) that this
  /// file defines, in order; a declaration or a call has none.
  std::vector<int> functionBodiesNamed(const std::string &name) const;

  /// Whether this file defines a member function named `name`: in its
  /// class's body (`class Solver { void step() {...} };`) or qualified
  /// (`void Solver::step() {...}`).
  bool definesMethod(const std::string &name) const;

  /// How many functions named `name` this file defines, and how many of
  /// them are `const` member functions (`int cells() const {`), which
  /// leave their object as it was.
  std::pair<std::size_t, std::size_t> constMethodsNamed(const std::string &name) const;

  /// The name of the class or struct whose body `block` is (`Solver` for
  /// `class Solver : public Base {`); empty for a namespace's, an enum's
  /// or any other block.
  std::string classNameOf(int block) const;

  /// The offset of the `{` that opens `block` (0 <= block < the number of blocks).
  std::size_t openBraceOf(int block) const { return blocks_[static_cast<std::size_t>(block)].open; }

  /// Just past the `}` that closes the block whose `{` is at `open`; npos
  /// where no block opens there, or it is not closed (as pastClosing(),
  /// without reading the block again).
  std::size_t pastBlockOpenedAt(std::size_t open) const;

  /// statementEndFrom() of code() at `start`, remembered: the bodies of an
  /// `else if` chain of N options each run to its end, read once each.
  std::size_t statementEndAt(std::size_t start) const;

  /// How many blocks the file has: they are numbered from 0 in the order of their `{`.
  int blocks() const { return static_cast<int>(blocks_.size()); }

  /// The block around `block`; -1 at file scope.
  int parentOf(int block) const { return blocks_[static_cast<std::size_t>(block)].parent; }

  /// The parameter list of a function definition: the function's body,
  /// and the offsets of the list's `(` and `)`.
  struct ParameterList {
    int body = -1;
    std::size_t open = 0, close = 0;
  };

  /// The parameter list, of a function defined in this file, that holds
  /// `offset`; nullopt elsewhere (in a prototype's, a lambda's or a call's).
  std::optional<ParameterList> parameterListAround(std::size_t offset) const;

  /// A parameter of a function template: `typename T`, `int BLOCK = 256`.
  struct TemplateParameter {
    std::string name;                   ///< empty where it is unnamed
    bool type = false;                  ///< `typename T` or `class T`, no value
    std::vector<std::string> declaredAs; ///< its words before its name: `unsigned`, `int`
    std::string defaultText;            ///< what follows its `=`; empty without one
  };
  struct TemplateParameterList {
    std::size_t open = 0, close = 0; ///< its `<` and `>`
    std::vector<TemplateParameter> parameters;
  };

  /// The template parameters of the function whose body is `block`
  /// (`template <typename T, int N> void run(...) {`); nullopt where it is
  /// no function template.
  std::optional<TemplateParameterList> templateParametersOf(int block) const;

  /// The template parameters of the class whose body is `block`
  /// (`template <int BLOCK> struct Solver {`); nullopt where it is no
  /// class template.
  std::optional<TemplateParameterList> templateParametersOfClass(int block) const;

  /// The parameters the function whose body is `block` declares, each as
  /// written (`float *x`, `int &threads`, `int n = 4`); empty for a block
  /// that is no function's body, and for `f()`.
  std::vector<std::string> parametersOf(int block) const;

  /// The class whose member function has the body `block`: the class
  /// around it (`class Solver { void step() {...} };`), or the one its
  /// name is qualified with (`void Solver::step() {`, `void
  /// Solver<B>::step() {`); empty for a free
  /// function, a lambda, or a block that is no function's body.
  std::string classOfFunction(int block) const;

  /// Whether the function whose body is `block` is a constructor of its
  /// class (classOfFunction()): named as the class, not `~` it.
  bool isConstructor(int block) const;

  /// Whether this file defines a constructor of the class `name`, or a
  /// class template of that name (whose objects' types write its
  /// arguments): where objects built of it pass something. Read in one
  /// pass over the blocks, on first use.
  bool definesConstructor(const std::string &name) const;
  bool definesClassTemplate(const std::string &name) const;

  /// One member initializer of a constructor, `n_(n)` or `v_{0}`: the
  /// member's name, and the offsets of the bracket that opens its value
  /// and of the one that closes it.
  struct MemberInitializer {
    std::string member;
    std::size_t open = 0, close = 0;
  };

  /// The member initializers written between the parameters of the
  /// constructor whose body is `block` and that body, in order; empty
  /// where it has none.
  std::vector<MemberInitializer> memberInitializersOf(int block) const;

  /// The offset of the `(` that opens the parameter list of the function
  /// whose body `brace` opens (its name is the word before it, its member
  /// initializers between); npos for another block.
  std::size_t parameterListOf(std::size_t brace) const;

  /// The body of the function whose head, from its parameter list's `(`
  /// to its body's `{`, holds `offset` (a parameter's declaration, a
  /// constructor's member initializers); -1 where none does.
  int functionHeadAt(std::size_t offset) const;

private:
  /// The `template <...>` list that the words and brackets before `at`
  /// (a name, a return type, `struct Solver`) start with; nullopt where
  /// another token comes first.
  std::optional<TemplateParameterList> templateListBefore(std::size_t at) const;

  /// The first block opened after `offset`, past those of braced member
  /// initializers (`v_{0}`): where `offset` is in a function's head, its
  /// body; -1 where that block is no function's body.
  int bodyAfterHead(std::size_t offset) const;

  /// A lambda given a name, `auto name = [captures](parameters) mutable {`
  /// or `auto name = [captures] {`: read as a function of that name.
  struct NamedLambda {
    std::string name;
    std::size_t parameters = std::string::npos; ///< its `(`; npos where it has no parameter list
  };

  /// The named lambda whose body `brace` opens; nullopt for another block
  /// (a lambda passed straight to a call, or kept in a `std::function`).
  std::optional<NamedLambda> namedLambdaOf(std::size_t brace) const;

  struct Block {
    std::size_t open, close; ///< offsets of `{` and `}` (the file's end when unclosed)
    int parent;              ///< the block around it; -1 at file scope
    bool functionBody;
  };
  std::string shownAs_;
  std::string text_, code_;
  std::vector<UndefinedKnob> knobs_; ///< readConditionals()
  std::vector<Block> blocks_; ///< in order of their `{`
  mutable std::vector<std::size_t> newlines_; ///< where each line ends, found on first use
  WordIndex words_;
  mutable std::unordered_map<std::size_t, std::size_t> statementEnds_; ///< statementEndAt()'s, by start
  /// The classes whose constructors, and the class templates, the file
  /// defines (definesConstructor()), found on first use.
  mutable std::optional<std::pair<std::set<std::string>, std::set<std::string>>> classes_;
  void readClasses() const;
};

bool isSpace(char c);

/// Just past the last character before `at` that is not a space (0 where none is).
std::size_t codeEndBefore(const std::string &code, std::size_t at);

/// Whether the name at `at` is written as another object's member, after
/// `.` or `->` (`cfg.n`, `p->n`), spaces between allowed.
bool afterMemberAccess(const std::string &code, std::size_t at);

/// The name that the member written at `member` is reached through (`p`
/// of `p.n`, `s` of `s->step(`), `objectAt` moved to where it starts;
/// empty where `member` follows no `.` or `->`, or that name is itself a
/// member (`a.b.n`).
std::string objectBefore(const std::string &code, std::size_t member, std::size_t &objectAt);

/// Where `this` starts, for the name at `at` written `this->name`; npos otherwise.
std::size_t thisBefore(const std::string &code, std::size_t at);

/// Whether the name at `at` is written after `::` (`cfg::n`, `::n`).
bool afterScopeOperator(const std::string &code, std::size_t at);

/// The identifier that ends at `at`, spaces before `at` skipped (empty
/// when none does); `at` moves back to its first character.
std::string wordBefore(const std::string &code, std::size_t &at);

/// The specifiers written between a function's `)` and the `{` of its
/// body at `brace` (`f() const noexcept {`, `[&](int n) mutable {`): where
/// the first of them starts (`brace` where there are none), and whether
/// `const` is one of them. The words read are `const`, `final`,
/// `mutable`, `noexcept`, `override` and `volatile`.
struct FunctionSpecifiers {
  std::size_t start = 0;
  bool isConst = false;
};
FunctionSpecifiers functionSpecifiersBefore(const std::string &code, std::size_t brace);

/// The `:` that starts a constructor's member initializers, where the
/// `{` at `brace` opens its body (`Solver(int n) : n_(n), v_{0} {`); npos
/// where no such list comes before it.
std::size_t memberInitializersBefore(const std::string &code, std::size_t brace);

/// Where `file`, in a function's body, builds an object of the class
/// `name` in a way callsIn() does not find: `name s(...)`, `name s{...}`,
/// `name s = {...}`, `name s;`, `name{...}` and
/// `std::make_unique<name>(...)`; the offsets
/// of `name`. Its constructor's calls, with `name(...)` and `new
/// name(...)`, which callsIn() finds.
std::vector<std::size_t> constructionsIn(const CudaCode &file, const std::string &name);

/// Where the variable that the construction of the class `className`
/// found at `at` (constructionsIn()) declares is named: `a` of `Solver
/// a(...)`, found at `Solver`, or `b` of `Solver a(...), b(...)`, found at
/// `b`; npos for a temporary (`Solver{...}`, `std::make_unique<Solver>(...)`).
std::size_t constructedVariable(const std::string &code, std::size_t at, const std::string &className);

/// The arguments a construction that constructionsIn() found at `at`
/// passes, split at top-level commas (none for `name s;`); nullopt where
/// there is none at `at`, or its brackets do not close.
std::optional<std::vector<std::string>> constructionArguments(const std::string &code, std::size_t at,
                                                              std::size_t length);

/// Whether the line that ends at `newline` is a preprocessor directive.
bool preprocessorLineEndsAt(const std::string &code, std::size_t newline);

/// The offset of the bracket that `close` (`)`, `]`, `}` or `>`) closes;
/// 0 when none does.
std::size_t openingOf(const std::string &code, std::size_t close);

/// `text` on one line, trimmed, at most about 40 characters, in
/// backquotes: how a reason quotes host code (`` `for (int t = 0; t < n; t++)` ``).
std::string quotedCode(std::string_view text);

/// Just past the template arguments (`<T, 256>`) that open at `at`; `at`
/// itself where none do (`<<<`, `<=`, or no `>` before the statement ends).
std::size_t pastTemplateArguments(const std::string &code, std::size_t at);

/// The `(` that opens the arguments of a call of the name of `length`
/// characters at `at`, past any template arguments (`run<float, 256>(`);
/// npos where the name is not called there.
std::size_t callArgumentsAt(const std::string &code, std::size_t at, std::size_t length);

/// Where `file` calls a function named `name`: `name(` or `name<...>(` in
/// a function's body, not a longer name, and `obj.name(` or `p->name(`
/// only with `methods` (where `name` is a member function of the files);
/// the offsets of the names.
std::vector<std::size_t> callsIn(const CudaCode &file, const std::string &name, bool methods = false);

/// The `<` of the `template <...>` list that holds `offset`; npos where none does.
std::size_t templateListAround(const std::string &code, std::size_t offset);

/// The template arguments written after the name of `length` characters
/// at `at` (`run<float, 256>(` gives `float` and ` 256`); empty where none are.
std::vector<std::string> templateArgumentsAt(const std::string &code, std::size_t at, std::size_t length);

/// `text` split at its `separator`s outside brackets: its top-level commas by default.
std::vector<std::string> topLevelParts(std::string_view text, char separator = ',');

/// The parts of `text` at the top-level commas of `code` (codeOf() of
/// `text`, offsets shared, so that a literal's commas and brackets do not
/// count: `sscanf(argv[1], "%d,%d", ...)`), each trimmed.
std::vector<std::string> topLevelPartsAsWritten(std::string_view code, std::string_view text);

/// What the parentheses opened at `open` hold, split at top-level commas:
/// a call's arguments, a function's parameters; none for `()`. nullopt
/// where they do not close.
std::optional<std::vector<std::string>> partsInParentheses(const std::string &code, std::size_t open);

} // namespace ptxdvfs::tools
