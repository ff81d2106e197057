// PredictorSource.h - where predict, recommend and lint get a predictor; each program has its own answer.
#pragma once

#include "ptxdvfs/model/ModelCard.h"
#include "ptxdvfs/model/SurfacePredictor.h"

#include <memory>
#include <string>

namespace ptxdvfs::tools {

/// Predictor `name` of the model folder `dir`, as readModelFolder() read
/// it into `folder` (which must outlive the predictor). `ptxdvfs` (no LibTorch) gives the card predictors
/// itself and, for any other, re-executes the whole command with
/// `ptxdvfs-model` (so this does not return); `ptxdvfs-model` loads the
/// weights and gives any. nullptr after an error it has printed.
std::unique_ptr<model::SurfacePredictor> openPredictor(const std::string &dir,
                                                       const model::ModelFolderContents &folder,
                                                       const std::string &name);

} // namespace ptxdvfs::tools
