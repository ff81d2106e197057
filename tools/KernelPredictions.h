// KernelPredictions.h - the path predict, recommend and lint share: model folder, inputs, encoding, predictions.
#pragma once

#include "KernelInputs.h"
#include "LaunchFlags.h"

#include "ptxdvfs/embeddings/EncodingScheme.h"
#include "ptxdvfs/embeddings/InstructionRecord.h"
#include "ptxdvfs/model/Decisions.h"
#include "ptxdvfs/model/ModelCard.h"
#include "ptxdvfs/model/SurfacePredictor.h"

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct ModelFlags {
  std::string model;     ///< empty: shippedModelDir()
  std::string predictor; ///< empty: the folder's default predictor
};

/// What predict, recommend and lint read, and with which model.
struct PredictionFlags {
  InputFlags inputs;
  ModelFlags model;
  LaunchFlags launch; ///< without --budget/--keep-loop-control: the model fixes the reading
};

/// Adds the input flags (addInputFlags, with or without `files`), --model,
/// --predictor and the loop analysis flags a model reading needs
/// (addLaunchFlags).
void addPredictionFlags(CLI::App &command, PredictionFlags &flags, bool files = true);

struct KernelPrediction {
  std::string name; ///< as in the PTX (possibly mangled)
  const ptx::Function *function = nullptr;
  embeddings::EncodedKernel encoded;
  model::ApplicationPrediction prediction;
};

struct ModulePrediction {
  const InputModule *input = nullptr;
  std::vector<CudaSourceFile> sources;   ///< the CUDA sources its `.file` table names, read once
  std::vector<KernelPrediction> kernels; ///< the selected kernels, file order
  /// All selected kernels read as one application (as `evaluate` combines
  /// a benchmark's kernels); only when more than one is selected.
  std::optional<model::ApplicationPrediction> whole;
  /// With `whole`: each kernel's share in it, in step with `kernels`
  /// (model::kernelsRead: its threads per launch over the most; 0 for a
  /// kernel the model's combination does not read).
  std::vector<double> shares;
};

/// The model half of a run: the checked folder and what was opened from it.
/// Loaded once and shared (the language server keeps one for every
/// document); it never moves, so the predictor may keep reading `folder.card`.
struct PredictionModel {
  std::string modelDir;
  model::ModelFolderContents folder; ///< read and checked once; `folder.card` is what predictors read
  std::string predictor;
  model::GridPoints points;
  double risk = 0; ///< the model's risk for `lstm`, 0 for the others (as evaluate)
  std::unique_ptr<const model::SurfacePredictor> surfaces;
  std::unique_ptr<const embeddings::EncodingScheme> scheme;
};

/// Everything a prediction command answers from.
struct PredictionRun {
  std::shared_ptr<const PredictionModel> model;
  Inputs inputs;
  std::vector<ModulePrediction> modules;
};

/// Loads and checks the model folder and opens its predictor and encoding
/// scheme into `model` (left empty on failure). Errors are printed; returns
/// the exit status to use.
int loadPredictionModel(const ModelFlags &flags, std::shared_ptr<const PredictionModel> &model);

/// Encodes every selected kernel of `run.inputs` the way the model reads
/// (as executed, with the launch flags) and predicts each kernel and each
/// module into `run.modules` (replacing them). Errors and encoding
/// warnings are printed; returns the exit status to use.
int predictInputs(const PredictionFlags &flags, PredictionRun &run);

/// loadPredictionModel() into `run.model`, readInputs(), then predictInputs(): returns
/// kExitSuccess when every input was read and some kernel was selected.
int runPredictions(const PredictionFlags &flags, PredictionRun &run);

/// `{"memory_mhz", "core_mhz"}` of a grid point.
nlohmann::json pointJson(const embeddings::VfPoint &point);

/// `{"time", "power", "energy"}` of a ratio between two points.
nlohmann::json ratiosJson(const model::Ratios &ratios);

/// `"3505/975"`: memory/core MHz, the order the tables use.
std::string pointText(const embeddings::VfPoint &point);

/// A ratio as a signed percent change: 0.82 -> "-18%", 1.02 -> "+2%".
std::string percentChange(double ratio);

/// The loops of a kernel whose count rests on a default rather than on
/// the code or the flags given: a bound the PTX cannot tell (an unset
/// parameter, a value read from memory) or the default launch geometry.
/// Their reasons name what to give (--assume, --grid, --block), so that a
/// user of predict or recommend learns what the answer was read with.
struct DefaultedLoops {
  std::size_t loops = 0;            ///< every loop of the kernel
  std::size_t defaulted = 0;        ///< those resting on a default
  std::vector<std::string> reasons; ///< theirs, each once, in loop order
};
DefaultedLoops defaultedLoops(const embeddings::EncodedKernel &kernel);

/// "  loops: 2 of 3 rest on defaults: parameter n (no --assume n=VALUE), ..."
/// (at most four reasons, then how many more and where to see them);
/// empty when no loop rests on a default.
std::string defaultedLoopsLine(const embeddings::EncodedKernel &kernel);

/// The reason a kernel that the host code read never launches gives
/// ("not launched: no launch of `k` in the host code read, which launches
/// ..."); empty for a kernel that runs, or whose launches were not read.
std::string notLaunchedReason(const embeddings::EncodedKernel &kernel);

/// What one kernel's prediction was read with, a line each: its
/// defaultedLoopsLine(), and "  not launched: ..." for a kernel the host
/// code read never launches; empty when neither applies.
std::string kernelReadingLines(const embeddings::EncodedKernel &kernel);

/// "  kernels weigh by their threads per launch: a 262144 (default), b 4096
/// x 100 launches (assumed)", where the shares of `module.whole` differ;
/// else empty.
std::string kernelSharesLine(const ModulePrediction &module);

/// `{"name", "demangled", "loop_counts", "launch"}`: how a kernel was read,
/// beside its surface (predict) or its decision (recommend).
nlohmann::json kernelReadingJson(const KernelPrediction &kernel);

/// `{"loops", "resting_on_defaults", "reasons"}`.
nlohmann::json defaultedLoopsJson(const embeddings::EncodedKernel &kernel);

} // namespace ptxdvfs::tools
