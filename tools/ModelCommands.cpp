// ModelCommands.cpp - the model subcommands and predictors as `ptxdvfs-model` has them, LibTorch linked.
#include "ModelCommands.h"

#include "DiagnosticPrinter.h"
#include "EvaluateCommand.h"
#include "PredictorSource.h"
#include "TrainCommand.h"

#include "ptxdvfs/model/ComputeThreads.h"
#include "ptxdvfs/model/Predictor.h"

#include <iostream>

namespace ptxdvfs::tools {

void setupModelCommands(CLI::App &app, int, char **, int &exitCode) {
  setupTrainCommand(app, exitCode);
  setupEvaluateCommand(app, exitCode);
}

namespace {

/// A FolderPredictor with the model it reads.
class LoadedPredictor : public model::SurfacePredictor {
public:
  explicit LoadedPredictor(model::LoadedModel model) : model_(std::move(model)) {}
  bool open(const std::string &name) {
    auto predictor = model::FolderPredictor::create(model_, name);
    if (!predictor) {
      printDiagnostics(predictor.diagnostics(), std::cerr);
      return false;
    }
    predictor_ = std::move(*predictor);
    return true;
  }
  model::ApplicationPrediction predict(const std::vector<embeddings::EncodedKernel> &kernels) const override {
    return predictor_->predict(kernels);
  }
  double risk() const override { return predictor_->risk(); }

private:
  model::LoadedModel model_;
  std::unique_ptr<model::FolderPredictor> predictor_;
};

} // namespace

std::unique_ptr<model::SurfacePredictor> openPredictor(const std::string &dir,
                                                       const model::ModelFolderContents &folder,
                                                       const std::string &name) {
  model::setComputeThreads(1); // one application at a time: a second thread only spins
  auto loaded = model::loadModel(dir, folder); // the folder was checked already: only the weights are read
  if (!loaded) {
    printDiagnostics(loaded.diagnostics(), std::cerr);
    return nullptr;
  }
  auto predictor = std::make_unique<LoadedPredictor>(std::move(*loaded));
  if (!predictor->open(name))
    return nullptr;
  return predictor;
}

} // namespace ptxdvfs::tools
