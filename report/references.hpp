// Published bus bandwidth figures of whole systems, each with its public source, for
// `--expect auto` and `--expect NAME` (docs/health.md#published-references): "is my number
// normal" answered with a figure someone published for the same system.
//
// Only figures whose system, collective, size, placement and library release the source states
// are listed; a node is expected to reach a share of them (90% unless told).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "report/expect_record.hpp"

namespace collbench::report {

struct PublishedFigure {
  std::uint64_t size_bytes = 0;
  double busbw_gbps = 0;
};

struct PublishedReference {
  std::string_view name;         // "h200-8x": what --expect NAME takes
  std::string_view system;       // "Azure ND H200 v5: 8x NVIDIA H200 141GB, NVLink4 + NVSwitch"
  std::string_view gpu_model;    // what every rank's device name must contain ("H200")
  std::string_view not_in_name;  // and must not ("PCIe"); empty: no exclusion
  int gpus = 0;                  // ranks, one per GPU
  int hosts = 1;
  std::string_view collective;  // "all_reduce"
  std::string_view setting;     // "in-place, NCCL 2.20.5 (NVLS), float sum"
  ExpectPlacement placement = ExpectPlacement::kInPlace;
  std::span<const PublishedFigure> figures;
  std::string_view source;  // where the figures are published
};

std::span<const PublishedReference> published_references();

// "a100-sxm4-8x, h200-8x": every reference's name, for help texts and errors.
std::string reference_names();

// The reference of that name; nullptr when there is none.
const PublishedReference* find_reference(std::string_view name);

// The reference whose GPU model every rank's device has, with the job's rank and host counts;
// nullptr when none (or more than one) matches.
const PublishedReference* match_reference(const std::vector<std::string>& device_names, int hosts);

// "NAME" or "NAME:PCT" (also "auto" and "auto:PCT"): the name and the share (0-100] of the
// published figures a node must reach. kUsage for a share out of range.
struct ReferenceChoice {
  std::string name;
  double percent = 90;
};
Result<ReferenceChoice> parse_reference_choice(std::string_view spec);

// One min_busbw expectation per figure: percent% of the published busbw, at its size and
// placement.
std::vector<Expectation> expectations_from(const PublishedReference& reference, double percent);

}  // namespace collbench::report
