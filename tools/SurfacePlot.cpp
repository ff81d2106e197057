// SurfacePlot.cpp - the two panels of `predict --plot`, drawn with Cairo into SVG or PNG.
#include "SurfacePlot.h"

#include "AtomicFile.h"

#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

namespace ptxdvfs::tools {

namespace {

constexpr double kWidth = 1100, kHeight = 500;

struct Box {
  double left, top, right, bottom;
  double width() const { return right - left; }
  double height() const { return bottom - top; }
};

using Rgb = std::array<double, 3>;

/// A perceptually ordered ramp (dark blue, teal, green, yellow), low to high.
Rgb ramp(double t) {
  static const Rgb stops[] = {{0.27, 0.00, 0.33}, {0.23, 0.32, 0.55}, {0.13, 0.57, 0.55},
                              {0.37, 0.79, 0.38}, {0.99, 0.91, 0.14}};
  t = std::clamp(t, 0.0, 1.0) * 4;
  auto i = std::min<std::size_t>(static_cast<std::size_t>(t), 3);
  double f = t - static_cast<double>(i);
  Rgb colour;
  for (std::size_t c = 0; c < 3; ++c)
    colour[c] = stops[i][c] + f * (stops[i + 1][c] - stops[i][c]);
  return colour;
}

/// Tick positions at 1, 2 or 5 times a power of ten, about `count` of them.
std::vector<double> ticks(double low, double high, int count = 6) {
  double raw = (high - low) / count;
  double magnitude = std::pow(10, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double factor : {1.0, 2.0, 5.0, 10.0})
    if (magnitude * factor >= raw) {
      step = magnitude * factor;
      break;
    }
  std::vector<double> values;
  for (double value = std::ceil(low / step) * step; value <= high + step * 1e-9; value += step)
    values.push_back(std::fabs(value) < step * 1e-9 ? 0 : value);
  return values;
}

std::string format(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

class Painter {
public:
  explicit Painter(cairo_t *cr) : cr_(cr) {
    cairo_select_font_face(cr_, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  }
  void colour(const Rgb &rgb, double alpha = 1) { cairo_set_source_rgba(cr_, rgb[0], rgb[1], rgb[2], alpha); }
  /// Text with its anchor at (x, y): `align` 0 left, 0.5 centre, 1 right; `rotate` for a vertical label.
  void text(const std::string &value, double x, double y, double size, double align = 0, bool rotate = false) {
    cairo_set_font_size(cr_, size);
    cairo_text_extents_t extents;
    cairo_text_extents(cr_, value.c_str(), &extents);
    cairo_save(cr_);
    cairo_translate(cr_, x, y);
    if (rotate)
      cairo_rotate(cr_, -M_PI / 2);
    cairo_move_to(cr_, -align * extents.x_advance, 0);
    cairo_show_text(cr_, value.c_str());
    cairo_restore(cr_);
  }
  void line(double x0, double y0, double x1, double y1, double width = 1) {
    cairo_set_line_width(cr_, width);
    cairo_move_to(cr_, x0, y0);
    cairo_line_to(cr_, x1, y1);
    cairo_stroke(cr_);
  }
  void circle(double x, double y, double radius, bool fill) {
    cairo_new_sub_path(cr_);
    cairo_arc(cr_, x, y, radius, 0, 2 * M_PI);
    fill ? cairo_fill(cr_) : cairo_stroke(cr_);
  }
  void rectangle(double x, double y, double w, double h, bool fill) {
    cairo_rectangle(cr_, x, y, w, h);
    fill ? cairo_fill(cr_) : cairo_stroke(cr_);
  }
  cairo_t *cr() { return cr_; }

private:
  cairo_t *cr_;
};

const Rgb kBlack{0, 0, 0}, kGrey{0.6, 0.6, 0.6}, kRed{0.80, 0.10, 0.10};

/// Left panel: energy vs speedup, both against the default clocks.
void drawTradeOff(Painter &paint, const PlotRequest &request, const Box &box) {
  const model::Surface &mean = request.prediction->surface.mean;
  const model::GridPoints &points = *request.points;
  std::size_t base = points.defaultIndex;
  std::vector<double> speed, energy;
  for (std::size_t p = 0; p < mean.size(); ++p) {
    model::Ratios ratios = model::ratiosAt(mean, p, base);
    speed.push_back(1 / ratios.time);
    energy.push_back(ratios.energy);
  }
  auto padded = [](const std::vector<double> &values) {
    auto [low, high] = std::minmax_element(values.begin(), values.end());
    double pad = std::max((*high - *low) * 0.08, 0.01);
    return std::pair{*low - pad, *high + pad};
  };
  auto [xLow, xHigh] = padded(speed);
  auto [yLow, yHigh] = padded(energy);
  auto X = [&](double v) { return box.left + (v - xLow) / (xHigh - xLow) * box.width(); };
  auto Y = [&](double v) { return box.bottom - (v - yLow) / (yHigh - yLow) * box.height(); };

  paint.colour(kGrey, 0.35);
  for (double t : ticks(xLow, xHigh))
    paint.line(X(t), box.top, X(t), box.bottom, 0.5);
  for (double t : ticks(yLow, yHigh))
    paint.line(box.left, Y(t), box.right, Y(t), 0.5);
  paint.colour(kBlack);
  paint.rectangle(box.left, box.top, box.width(), box.height(), false);
  for (double t : ticks(xLow, xHigh))
    paint.text(format(t, 2), X(t), box.bottom + 16, 11, 0.5);
  for (double t : ticks(yLow, yHigh))
    paint.text(format(t, 2), box.left - 6, Y(t) + 4, 11, 1);
  paint.text("speedup vs default clocks (x, higher is faster)", (box.left + box.right) / 2, box.bottom + 36, 12, 0.5);
  paint.text("energy vs default clocks (x, lower is better)", box.left - 46, (box.top + box.bottom) / 2, 12, 0.5, true);

  // The Pareto front, fastest first.
  std::vector<std::size_t> pareto = model::paretoPoints(mean);
  std::sort(pareto.begin(), pareto.end(), [&](std::size_t a, std::size_t b) { return speed[a] > speed[b]; });
  paint.colour(kRed, 0.7);
  cairo_set_line_width(paint.cr(), 1.5);
  for (std::size_t i = 0; i < pareto.size(); ++i)
    (i == 0 ? cairo_move_to : cairo_line_to)(paint.cr(), X(speed[pareto[i]]), Y(energy[pareto[i]]));
  cairo_stroke(paint.cr());

  // One colour per memory clock, lowest first.
  std::vector<unsigned> memories;
  for (const auto &point : points.grid)
    if (std::find(memories.begin(), memories.end(), point.memoryMHz) == memories.end())
      memories.push_back(point.memoryMHz);
  std::sort(memories.begin(), memories.end());
  auto memoryColour = [&](unsigned memory) {
    auto rank = static_cast<double>(std::find(memories.begin(), memories.end(), memory) - memories.begin());
    return ramp(memories.size() > 1 ? 0.15 + 0.6 * rank / static_cast<double>(memories.size() - 1) : 0.4);
  };
  for (std::size_t p = 0; p < mean.size(); ++p) {
    paint.colour(memoryColour(points.grid[p].memoryMHz));
    paint.circle(X(speed[p]), Y(energy[p]), 3.5, true);
  }
  paint.colour(kBlack);
  cairo_set_line_width(paint.cr(), 1.5);
  paint.rectangle(X(speed[base]) - 5, Y(energy[base]) - 5, 10, 10, false);
  paint.colour(kRed);
  cairo_set_line_width(paint.cr(), 2);
  paint.circle(X(speed[request.chosen]), Y(energy[request.chosen]), 8, false);

  // Legend, one row above the panel, where it hides no point.
  double lx = box.left, ly = box.top - 10;
  auto advance = [&](const std::string &label) {
    cairo_text_extents_t extents;
    cairo_set_font_size(paint.cr(), 11);
    cairo_text_extents(paint.cr(), label.c_str(), &extents);
    paint.colour(kBlack);
    paint.text(label, lx + 14, ly, 11);
    lx += 14 + extents.x_advance + 14;
  };
  for (unsigned memory : memories) {
    paint.colour(memoryColour(memory));
    paint.circle(lx + 4, ly - 4, 3.5, true);
    advance("mem " + std::to_string(memory) + " MHz");
  }
  paint.colour(kRed, 0.7);
  paint.line(lx, ly - 4, lx + 9, ly - 4, 1.5);
  advance("Pareto");
  paint.colour(kRed);
  cairo_set_line_width(paint.cr(), 2);
  paint.circle(lx + 4, ly - 4, 6, false);
  advance("chosen " + std::to_string(points.grid[request.chosen].memoryMHz) + "/" +
          std::to_string(points.grid[request.chosen].coreMHz));
  paint.colour(kBlack);
  cairo_set_line_width(paint.cr(), 1.5);
  paint.rectangle(lx, ly - 9, 9, 9, false);
  advance("default " + std::to_string(points.grid[base].memoryMHz) + "/" +
          std::to_string(points.grid[base].coreMHz));
}

/// Right panel: the energy factor over (core clock, memory clock).
void drawHeatMap(Painter &paint, const PlotRequest &request, const Box &box) {
  const model::Surface &mean = request.prediction->surface.mean;
  const model::GridPoints &points = *request.points;
  std::map<unsigned, std::vector<std::size_t>> rows; // memory clock -> grid indices, core ascending
  for (std::size_t p = 0; p < points.grid.size(); ++p)
    rows[points.grid[p].memoryMHz].push_back(p);
  std::size_t columns = 0;
  for (const auto &[memory, indices] : rows)
    columns = std::max(columns, indices.size());
  double low = INFINITY, high = -INFINITY;
  for (std::size_t p = 0; p < mean.size(); ++p) {
    double e = model::ratiosAt(mean, p, points.defaultIndex).energy;
    low = std::min(low, e);
    high = std::max(high, e);
  }
  if (high - low < 1e-9)
    high = low + 1e-9;
  Box cells{box.left, box.top, box.right - 70, box.bottom};
  double cellWidth = cells.width() / static_cast<double>(columns);
  double cellHeight = cells.height() / static_cast<double>(rows.size());
  std::size_t row = 0;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it, ++row) { // highest memory clock on top
    double y = cells.top + static_cast<double>(row) * cellHeight;
    paint.colour(kBlack);
    paint.text(std::to_string(it->first), cells.left - 6, y + cellHeight / 2 + 4, 11, 1);
    for (std::size_t c = 0; c < it->second.size(); ++c) {
      std::size_t p = it->second[c];
      double x = cells.left + static_cast<double>(c) * cellWidth;
      double e = model::ratiosAt(mean, p, points.defaultIndex).energy;
      paint.colour(ramp((e - low) / (high - low)));
      paint.rectangle(x, y, cellWidth, cellHeight, true);
      paint.colour(e > low + 0.6 * (high - low) ? kBlack : Rgb{1, 1, 1});
      if (cellHeight > 40)
        paint.text(format(e, 2), x + cellWidth / 2, y + cellHeight / 2 + 4, 9, 0.5, true);
      if (p == request.chosen) {
        paint.colour(kRed);
        cairo_set_line_width(paint.cr(), 2.5);
        paint.rectangle(x + 1.5, y + 1.5, cellWidth - 3, cellHeight - 3, false);
      }
      if (p == points.defaultIndex) {
        paint.colour(kBlack);
        cairo_set_line_width(paint.cr(), 1.5);
        paint.rectangle(x + 4, y + 4, cellWidth - 8, cellHeight - 8, false);
      }
      if (row + 1 == rows.size() && (c % 2 == 0 || columns <= 8)) {
        paint.colour(kBlack);
        paint.text(std::to_string(points.grid[p].coreMHz), x + cellWidth / 2, cells.bottom + 16, 10, 0.5);
      }
    }
  }
  paint.colour(kBlack);
  paint.text("core clock (MHz)", (cells.left + cells.right) / 2, cells.bottom + 36, 12, 0.5);
  paint.text("memory clock (MHz)", cells.left - 46, (cells.top + cells.bottom) / 2, 12, 0.5, true);

  // Colour bar with its scale.
  double barLeft = cells.right + 20, barWidth = 14;
  for (int i = 0; i < 100; ++i) {
    paint.colour(ramp(i / 99.0));
    double y = cells.bottom - (i + 1) * cells.height() / 100;
    paint.rectangle(barLeft, y, barWidth, cells.height() / 100 + 0.5, true);
  }
  paint.colour(kBlack);
  for (double t : ticks(low, high, 5)) {
    double y = cells.bottom - (t - low) / (high - low) * cells.height();
    paint.line(barLeft + barWidth, y, barLeft + barWidth + 4, y);
    paint.text(format(t, 2), barLeft + barWidth + 6, y + 4, 10);
  }
  paint.text("energy vs default (x)", barLeft + barWidth + 48, (cells.top + cells.bottom) / 2, 11, 0.5, true);
}

cairo_status_t appendTo(void *closure, const unsigned char *data, unsigned int length) {
  static_cast<std::string *>(closure)->append(reinterpret_cast<const char *>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

void draw(cairo_t *cr, const PlotRequest &request) {
  Painter paint(cr);
  paint.colour({1, 1, 1});
  cairo_paint(cr);
  paint.colour(kBlack);
  paint.text(request.title, 20, 28, 16);
  paint.colour({0.3, 0.3, 0.3});
  paint.text(request.subtitle, 20, 48, 11);
  drawTradeOff(paint, request, {90, 90, 560, kHeight - 60});
  drawHeatMap(paint, request, {660, 90, kWidth - 30, kHeight - 60});
}

} // namespace

std::string writeSurfacePlot(const PlotRequest &request, const std::string &path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), ::tolower);
  if (extension != ".svg" && extension != ".png")
    return path + ": --plot writes .svg or .png files";
  std::string bytes;
  cairo_surface_t *surface =
      extension == ".svg"
          ? cairo_svg_surface_create_for_stream(appendTo, &bytes, kWidth, kHeight)
          : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, static_cast<int>(kWidth), static_cast<int>(kHeight));
  cairo_t *cr = cairo_create(surface);
  draw(cr, request);
  cairo_status_t status = cairo_status(cr);
  cairo_destroy(cr);
  if (extension == ".png" && status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_write_to_png_stream(surface, appendTo, &bytes);
  cairo_surface_finish(surface); // flushes the SVG into `bytes`
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  if (status != CAIRO_STATUS_SUCCESS)
    return path + ": cannot draw the plot: " + cairo_status_to_string(status);
  return writeFileAtomically(path, bytes);
}

} // namespace ptxdvfs::tools
