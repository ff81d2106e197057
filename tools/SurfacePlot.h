// SurfacePlot.h - one application's predicted surface drawn with Cairo: energy vs speed, and a heat map.
#pragma once

#include "ptxdvfs/model/Decisions.h"

#include <string>

namespace ptxdvfs::tools {

struct PlotRequest {
  std::string title;                          ///< e.g. "saxpy.ptx: kernel saxpy"
  std::string subtitle;                       ///< predictor, GPU
  const model::ApplicationPrediction *prediction = nullptr;
  const model::GridPoints *points = nullptr;
  std::size_t chosen = 0;                     ///< the point the objective chose
};

/// Draws two panels: left, energy against speedup at every V-F point,
/// both relative to the default clocks, the Pareto set joined and the
/// chosen and default points marked; right, a heat map of the energy
/// factor over core clock (x) and memory clock (y), MHz. The format
/// follows the extension of `path` (.svg or .png); the file is written
/// atomically. Returns an error message, empty on success.
std::string writeSurfacePlot(const PlotRequest &request, const std::string &path);

} // namespace ptxdvfs::tools
