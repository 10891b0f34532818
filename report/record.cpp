#include "report/record.hpp"

namespace collbench::report {

const char* to_string(Placement p) { return p == Placement::kInPlace ? "in_place" : "out_of_place"; }

const char* to_string(BufferPolicy p) {
  switch (p) {
    case BufferPolicy::kRotated: return "rotated";
    case BufferPolicy::kFixed: return "fixed";
  }
  return "rotated";
}

std::optional<BufferPolicy> buffer_policy_from(std::string_view name) {
  for (const BufferPolicy p : {BufferPolicy::kRotated, BufferPolicy::kFixed}) {
    if (name == to_string(p)) return p;
  }
  return std::nullopt;
}

const char* to_string(RunStatus s) {
  switch (s) {
    case RunStatus::kOk: return "ok";
    case RunStatus::kWrongData: return "wrong_data";
    case RunStatus::kIncomplete: return "incomplete";
    case RunStatus::kInterrupted: return "interrupted";
    case RunStatus::kTimeout: return "timeout";
    case RunStatus::kError: return "error";
  }
  return "error";
}

const char* to_string(AnomalyKind k) {
  switch (k) {
    case AnomalyKind::kDrop: return "drop";
    case AnomalyKind::kDip: return "dip";
    case AnomalyKind::kSpread: return "spread";
    case AnomalyKind::kCache: return "cache";
  }
  return "drop";
}

RunSummary summarize(const std::vector<SizeRecord>& rows) {
  RunSummary s;
  double busbw_sum = 0;
  std::uint64_t measured = 0;
  for (const auto& row : rows) {
    for (const auto& m : row.placements) {
      busbw_sum += m.busbw_gbps;
      ++measured;
      s.total_wrong += m.wrong;
      if (m.wrong > 0) ++s.out_of_bounds;
      if (m.busbw_gbps > s.peak_busbw_gbps) {
        s.peak_busbw_gbps = m.busbw_gbps;
        s.peak_size_bytes = row.size_bytes;
        s.peak_placement = to_string(m.placement);
      }
    }
  }
  s.avg_busbw_gbps = measured > 0 ? busbw_sum / static_cast<double>(measured) : 0;
  s.status = s.total_wrong > 0 ? RunStatus::kWrongData : RunStatus::kOk;
  return s;
}

}  // namespace collbench::report
