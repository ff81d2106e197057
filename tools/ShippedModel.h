// ShippedModel.h - where the shipped model is, installed or in the source tree.
#pragma once

#include <string>

namespace ptxdvfs::tools {

/// The shipped model folder: $PTXDVFS_MODEL if set, else
/// `<prefix>/share/ptxdvfs/trained_weights/gtxtitanx` beside an installed
/// program (bin/ or libexec/ptxdvfs/), else the source tree's
/// `trained_weights/gtxtitanx`.
std::string shippedModelDir();

/// Its encoding vocabulary, the default of `encode --vocabulary` and of
/// dataset import from PTX.
std::string shippedVocabularyDir();

} // namespace ptxdvfs::tools
