// Figures that say more than nccl-tests' "Avg bus bandwidth" (a mean over every size, tiny ones
// included, which moves with the sweep range and hides the plateau): where the curve peaks,
// its value at fixed reference sizes, how soon it gets going, and the small-message latency.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/analysis/series.hpp"

namespace collbench::report {

// 1 MiB, 32 MiB, 1 GiB: small enough to be in most sweeps, large enough to mean something.
inline constexpr std::array<std::uint64_t, 3> kReferenceSizes = {std::uint64_t{1} << 20, std::uint64_t{32} << 20,
                                                                 std::uint64_t{1} << 30};

struct ReferenceValue {
  std::uint64_t size_bytes = 0;
  // Measured busbw at exactly this size; or, when the size lies between two measured sizes,
  // interpolated linearly in log2(size); nullopt outside the measured range.
  std::optional<double> busbw_gbps;
  bool interpolated = false;
};

struct SeriesFigures {
  SeriesKey key;
  std::size_t sizes = 0;
  double peak_busbw_gbps = 0;
  std::uint64_t peak_size_bytes = 0;
  std::array<ReferenceValue, kReferenceSizes.size()> at_reference{};
  // The smallest measured size whose busbw reaches half the peak (no interpolation: the
  // resolution is the sweep's step); nullopt when the peak is 0.
  std::optional<std::uint64_t> half_peak_size_bytes;
  // Small-message latency: the headline time at the smallest measured size.
  std::uint64_t smallest_size_bytes = 0;
  double smallest_time_us = 0;
  // nccl-tests' figure, for contrast.
  double mean_busbw_gbps = 0;
  // Peak busbw as a percentage of the bottleneck link's bandwidth, when that is known.
  std::optional<double> percent_of_link;
};

struct FigureOptions {
  // Per-direction bandwidth of the slowest link the collective must cross (GB/s), from the
  // topology when it is known (see report_input.hpp).
  std::optional<double> bottleneck_link_gbps;
};

SeriesFigures figures_of(const Series& series, const FigureOptions& options = {});

// One entry per series of the run (in the run's order); series without points are left out.
std::vector<SeriesFigures> summary_figures(const RunDocument& document, const FigureOptions& options = {});

// Whether any of `figures` has a "% of link" (then tables show that column).
bool any_percent_of_link(const std::vector<SeriesFigures>& figures);

// The busbw of `figures` at reference size `size`, when it is one of kReferenceSizes and known.
std::optional<double> busbw_at_reference(const SeriesFigures& figures, std::uint64_t size);

// Table cells, for text, Markdown and HTML alike. Header: series | peak GB/s | at | 1M | 32M |
// 1G | half peak at | latency | avg (nccl-tests) [| % of link]; callers may prepend a column.
std::vector<std::string> figures_header(bool with_link);
std::vector<std::string> figures_cells(const SeriesFigures& figures, bool with_link);
// "481.11", or "~480.20" for an interpolated value, or "-".
std::string reference_cell(const ReferenceValue& value);

}  // namespace collbench::report
