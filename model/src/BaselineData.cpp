// BaselineData.cpp - baselines.json, the training mean and the nearest mix, without LibTorch.
#include "ptxdvfs/model/BaselineData.h"

#include "ptxdvfs/model/Neighbours.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ptxdvfs::model {

double histogramDistance(const InstructionHistogram &a, const InstructionHistogram &b) {
  return mixL1Distance(a, b) / 6.0; // three blocks, each at most 2 apart
}

bool hasUnitBlocks(const BaselineData &data) {
  return !data.histograms.empty() &&
         std::all_of(data.histograms.begin(), data.histograms.end(),
                     [](const InstructionHistogram &histogram) { return hasUnitBlock(histogram); });
}

bool offersBaseline(const BaselineData &data, const std::string &name) {
  return name != "knn_unit_mix" || hasUnitBlocks(data);
}

nlohmann::json toJson(const BaselineData &data) {
  nlohmann::json applications = nlohmann::json::array();
  for (std::size_t a = 0; a < data.names.size(); ++a) {
    nlohmann::json histogram = nlohmann::json::object();
    for (const auto &[feature, share] : data.histograms[a])
      histogram[std::to_string(feature)] = share;
    applications.push_back(
        {{"name", data.names[a]}, {"histogram", histogram}, {"surface", data.surfaces[a]}});
  }
  return {{"applications", applications}};
}

BaselineData baselineDataFrom(const nlohmann::json &json) {
  BaselineData data;
  std::size_t points = 0;
  for (const auto &application : json.at("applications")) {
    data.names.push_back(application.at("name").get<std::string>());
    InstructionHistogram histogram;
    for (const auto &[feature, share] : application.at("histogram").items()) {
      int64_t index = std::stoll(feature);
      if (index < 0 || index >= kHistogramFeatures)
        throw std::out_of_range("histogram feature " + feature + " out of range");
      histogram[index] = share.get<float>();
    }
    data.histograms.push_back(std::move(histogram));
    data.surfaces.push_back(application.at("surface").get<Surface>());
    if (points == 0)
      points = data.surfaces.back().size();
    if (data.surfaces.back().size() != points || points == 0)
      throw std::length_error("application '" + data.names.back() +
                              "' has a surface of a different size");
    for (const auto &factors : data.surfaces.back())
      for (double factor : factors)
        if (!(factor > 0) || !std::isfinite(factor))
          throw std::domain_error("application '" + data.names.back() +
                                  "' has a scaling factor that is not a positive number");
  }
  if (data.names.empty())
    throw std::length_error("no applications");
  return data;
}

SurfacePrediction trainingMean(const BaselineData &data) {
  std::size_t points = data.surfaces.front().size();
  double count = static_cast<double>(data.surfaces.size());
  SurfacePrediction result{Surface(points, {0, 0, 0}), Surface(points, {0, 0, 0})};
  for (const Surface &surface : data.surfaces)
    for (std::size_t p = 0; p < points; ++p)
      for (std::size_t m = 0; m < 3; ++m)
        result.mean[p][m] += surface[p][m] / count;
  for (const Surface &surface : data.surfaces)
    for (std::size_t p = 0; p < points; ++p)
      for (std::size_t m = 0; m < 3; ++m)
        result.spread[p][m] += std::pow(surface[p][m] - result.mean[p][m], 2) / count;
  for (auto &factors : result.spread)
    for (double &variance : factors)
      variance = std::sqrt(variance);
  return result;
}

std::size_t nearestApplication(const BaselineData &data, const InstructionHistogram &histogram) {
  std::size_t nearest = 0;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < data.histograms.size(); ++a) {
    double distance = histogramDistance(histogram, data.histograms[a]);
    if (distance < best) {
      best = distance;
      nearest = a;
    }
  }
  return nearest;
}

} // namespace ptxdvfs::model
