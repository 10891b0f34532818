#include "report/references.hpp"

#include <array>

#include "common/strings.hpp"
#include "common/units.hpp"

namespace collbench::report {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

// The tables list sizes as nccl-tests prints them (67M is 64 MiB, 8G is 8 GiB).
constexpr std::array kA100Figures = {PublishedFigure{64 * kMiB, 166.63}, PublishedFigure{kGiB, 228.10},
                                     PublishedFigure{8 * kGiB, 231.58}};
constexpr std::array kH200Figures = {PublishedFigure{64 * kMiB, 368.11}, PublishedFigure{kGiB, 467.58},
                                     PublishedFigure{8 * kGiB, 479.98}};

const std::array kReferences = {
    PublishedReference{"a100-sxm4-8x", "Azure ND A100 v4: 8x NVIDIA A100-SXM4-80GB, NVLink3 + NVSwitch", "A100", "PCIE",
                       8, 1, "all_reduce", "in-place, NCCL 2.18.5, CUDA 12.5", ExpectPlacement::kInPlace, kA100Figures,
                       "github.com/Azure/AI-benchmarking-guide, Azure_Results/ND_A100_v4_results.md, "
                       "\"NCCL Bandwidth\""},
    PublishedReference{"h200-8x", "Azure ND H200 v5: 8x NVIDIA H200 141GB, NVLink4 + NVSwitch", "H200", "NVL", 8, 1,
                       "all_reduce", "in-place, NCCL 2.20.5 (NVLS), CUDA 12.6", ExpectPlacement::kInPlace, kH200Figures,
                       "github.com/Azure/AI-benchmarking-guide, Azure_Results/ND_H200_v5_results.md, "
                       "\"NCCL Bandwidth\""},
};

bool contains_ignoring_case(std::string_view text, std::string_view part) {
  return to_lower(text).find(to_lower(part)) != std::string::npos;
}

bool fits(const PublishedReference& r, const std::vector<std::string>& device_names, int hosts) {
  if (static_cast<int>(device_names.size()) != r.gpus || hosts != r.hosts) return false;
  for (const auto& name : device_names) {
    if (!contains_ignoring_case(name, r.gpu_model)) return false;
    if (!r.not_in_name.empty() && contains_ignoring_case(name, r.not_in_name)) return false;
  }
  return true;
}

}  // namespace

std::span<const PublishedReference> published_references() { return kReferences; }

std::string reference_names() {
  std::vector<std::string> names;
  names.reserve(kReferences.size());
  for (const auto& r : kReferences) names.emplace_back(r.name);
  return join(names, ", ");
}

const PublishedReference* find_reference(std::string_view name) {
  for (const auto& r : kReferences) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

const PublishedReference* match_reference(const std::vector<std::string>& device_names, int hosts) {
  const PublishedReference* found = nullptr;
  for (const auto& r : kReferences) {
    if (!fits(r, device_names, hosts)) continue;
    if (found != nullptr) return nullptr;
    found = &r;
  }
  return found;
}

Result<ReferenceChoice> parse_reference_choice(std::string_view spec) {
  ReferenceChoice choice;
  const auto colon = spec.find(':');
  choice.name = std::string(spec.substr(0, colon));
  if (colon == std::string_view::npos) return choice;
  auto percent = parse_double(spec.substr(colon + 1));
  if (!percent.ok() || !(*percent > 0 && *percent <= 100)) {
    return Status::error(ErrorCode::kUsage, "--expect " + std::string(spec) +
                                                ": the share after ':' must be a "
                                                "percentage above 0 and at most 100");
  }
  choice.percent = *percent;
  return choice;
}

std::vector<Expectation> expectations_from(const PublishedReference& reference, double percent) {
  std::vector<Expectation> out;
  for (const auto& f : reference.figures) {
    Expectation e;
    e.collective = std::string(reference.collective);
    e.size_bytes = f.size_bytes;
    e.placement = reference.placement;
    e.bound = ExpectBound::kMinBusbw;
    e.limit = f.busbw_gbps * percent / 100;
    out.push_back(e);
  }
  return out;
}

}  // namespace collbench::report
