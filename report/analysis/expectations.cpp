#include "report/analysis/expectations.hpp"

#include <cmath>
#include <string>

#include "report/format/number_format.hpp"

namespace collbench::report {
namespace {

bool matches(const SizeRecord& row, const Expectation& e) {
  return row.collective == e.collective && row.size_bytes == e.size_bytes && (!e.dtype || row.dtype == *e.dtype) &&
         (!e.op || row.op == *e.op);
}

bool matches(const Measurement& m, ExpectPlacement p) {
  switch (p) {
    case ExpectPlacement::kBoth: return true;
    case ExpectPlacement::kOutOfPlace: return m.placement == Placement::kOutOfPlace;
    case ExpectPlacement::kInPlace: return m.placement == Placement::kInPlace;
  }
  return true;
}

double figure_of(const Measurement& m, ExpectBound b) {
  switch (b) {
    case ExpectBound::kMinBusbw: return m.busbw_gbps;
    case ExpectBound::kMinAlgbw: return m.algbw_gbps;
    case ExpectBound::kMaxTime: return m.time_us;
  }
  return m.busbw_gbps;
}

bool is_min(ExpectBound b) {
  switch (b) {
    case ExpectBound::kMinBusbw:
    case ExpectBound::kMinAlgbw: return true;
    case ExpectBound::kMaxTime: return false;
  }
  return true;
}

// NaN is the worst of all: it can meet no bound.
bool worse(double candidate, double current, ExpectBound b) {
  if (std::isnan(candidate)) return !std::isnan(current);
  if (std::isnan(current)) return false;
  return is_min(b) ? candidate < current : candidate > current;
}

bool meets(double figure, const Expectation& e) {
  return is_min(e.bound) ? figure >= e.limit : figure <= e.limit;  // false for NaN
}

const char* figure_name(ExpectBound b) {
  switch (b) {
    case ExpectBound::kMinBusbw: return "busbw";
    case ExpectBound::kMinAlgbw: return "algbw";
    case ExpectBound::kMaxTime: return "time";
  }
  return "busbw";
}

const char* unit_of(ExpectBound b) { return is_min(b) ? " GB/s" : " us"; }

// "all_reduce float sum 1048576 B in_place"
std::string subject(const Expectation& e) {
  std::string s = e.collective;
  if (e.dtype) s += " " + *e.dtype;
  if (e.op) s += " " + *e.op;
  s += " " + std::to_string(e.size_bytes) + " B";
  if (e.placement != ExpectPlacement::kBoth) s += " " + std::string(to_string(e.placement));
  return s;
}

std::string bound_text(const Expectation& e) {
  std::string text = std::string(is_min(e.bound) ? ">= " : "<= ") + format_general(e.limit) + unit_of(e.bound);
  if (e.percent_of_bound > 0) text += " (" + format_general(e.percent_of_bound) + "% of the bound)";
  return text;
}

std::string message_of(const ExpectationResult& r) {
  const Expectation& e = r.expectation;
  if (!r.measured) return subject(e) + ": not measured, expected " + figure_name(e.bound) + " " + bound_text(e);
  return subject(e) + ": " + figure_name(e.bound) + " " + format_general(r.figure) + unit_of(e.bound) + ", expected " +
         bound_text(e) + " (worst: " + r.placement + ")";
}

ExpectationResult check_one(const std::vector<SizeRecord>& rows, const Expectation& e) {
  ExpectationResult r;
  r.expectation = e;
  for (const auto& row : rows) {
    if (!matches(row, e)) continue;
    for (const auto& m : row.placements) {
      if (!matches(m, e.placement)) continue;
      const double figure = figure_of(m, e.bound);
      if (!r.measured || worse(figure, r.figure, e.bound)) {
        r.figure = figure;
        r.placement = to_string(m.placement);
      }
      r.measured = true;
    }
  }
  r.passed = r.measured && meets(r.figure, e);
  r.message = message_of(r);
  return r;
}

}  // namespace

std::vector<ExpectationResult> check_expectations(const std::vector<SizeRecord>& rows,
                                                  const std::vector<Expectation>& expectations) {
  std::vector<ExpectationResult> results;
  results.reserve(expectations.size());
  for (const auto& e : expectations) results.push_back(check_one(rows, e));
  return results;
}

Status apply_busbw_bound(std::vector<Expectation>& expectations, const std::optional<ExpectedBusbw>& bound) {
  for (std::size_t i = 0; i < expectations.size(); ++i) {
    Expectation& e = expectations[i];
    if (e.percent_of_bound <= 0) continue;
    if (!bound || bound->gbps <= 0) {
      return Status::error(ErrorCode::kUsage, "--expect: rows[" + std::to_string(i) +
                                                  "] asks for a share of the busbw bound, which is unknown here (" +
                                                  (bound ? bound->bottleneck : std::string("not computed")) + ")");
    }
    e.limit = bound->gbps * e.percent_of_bound / 100;
  }
  return ok_status();
}

Status expectations_met(const std::vector<ExpectationResult>& results) {
  std::size_t failed = 0;
  const ExpectationResult* first = nullptr;
  for (const auto& r : results) {
    if (r.passed) continue;
    ++failed;
    if (first == nullptr) first = &r;
  }
  if (first == nullptr) return ok_status();
  return Status::error(ErrorCode::kBelowExpectation, std::to_string(failed) + " of " + std::to_string(results.size()) +
                                                         " expectations failed (--expect): " + first->message);
}

}  // namespace collbench::report
