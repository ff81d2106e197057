// AstBuilder.h - turns one ANTLR parse tree into the typed AST.
//
// The only code that sees parse-tree contexts and grammar spellings; the
// public AST never exposes ANTLR types.
#pragma once

#include "ptxdvfs/ptx/Module.h"

#include "PTXParser.h"

#include <string>
#include <string_view>

namespace ptxdvfs::ptx {

/// Appends what `tree` declares to `module`. `source` is the whole file
/// the tree's tokens point into. When `treeHasErrors`, subtrees that hold
/// error nodes are skipped (best effort), since error recovery leaves
/// missing children behind. Problems found while building (an integer
/// literal too large, a kernel with a result list) go to `diagnostics`.
void buildAst(PTXParser::ModuleContext *tree, std::string_view source,
              const std::string &path, bool treeHasErrors, Module &module,
              Diagnostics &diagnostics);

/// Splits a mnemonic at its dots: `ld.global.v4.f32` -> `ld` + {global, v4, f32}.
/// `::` scopes stay inside their modifier (`shared::cta`).
void splitMnemonic(std::string_view mnemonic, std::string_view &opcode,
                   std::vector<std::string_view> &modifiers);

/// The typed reading of a modifier list (state space, types, vector width).
InstructionDetails readDetails(const std::vector<std::string_view> &modifiers);

} // namespace ptxdvfs::ptx
