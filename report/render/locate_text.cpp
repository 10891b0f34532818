#include "report/render/locate_text.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "common/strings.hpp"
#include "common/text_table.hpp"
#include "common/units.hpp"
#include "report/format/number_format.hpp"

namespace collbench::report {
namespace {

// Lists longer than this (a job of hundreds of hosts has thousands of ranks and a quarter of a
// million pairs) show only what a reader acts on: the outliers, the suspects and the lowest
// figures, with a line that says how many more there are; every row stays in the JSON (-J).
constexpr std::size_t kListedRows = 64;
constexpr std::size_t kLowestShown = 10;

// The positions of the `count` lowest of `values` (NaN last), in ascending order of value.
template <typename Rows, typename Value>
std::vector<std::size_t> lowest(const Rows& rows, std::size_t count, Value value) {
  std::vector<std::size_t> order(rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto key = [&](std::size_t i) {
    const double v = value(rows[i]);
    return std::isnan(v) ? std::numeric_limits<double>::infinity() : v;
  };
  const std::size_t shown = std::min(count, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                    [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  order.resize(shown);
  return order;
}

std::string more_rows_line(std::size_t more, const char* what) {
  return "  ... " + std::to_string(more) + " more " + what + " (every row in the JSON report, -J)\n";
}

std::string left(std::string_view s, std::size_t width) { return pad(s, width, Align::kLeft); }
std::string right(std::string_view s, std::size_t width) { return pad(s, width, Align::kRight); }

std::string figure_text(double v, const std::string& unit) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return format_fixed(v, unit == "GB/s" ? 2 : 3);
}

std::string format_mads(double v) { return std::isfinite(v) ? format_fixed(v, 1) : figure_text(v, ""); }

// A metric in words, for the verdict lines.
std::string metric_words(const std::string& metric) {
  if (metric == "rank_pair_gbps") return "upper-quartile pair bandwidth";
  if (metric == "p2p_gbps") return "bandwidth";
  if (metric == "ring_gbps") return "ring bandwidth";
  if (metric == "uplink_share") return "bandwidth across the switch over inside it";
  return metric;
}

std::string percent(double fraction) { return format_fixed(fraction * 100, 0) + "%"; }

std::string rank_text(const LocateReport& rep, int rank) {
  std::string text = "rank " + std::to_string(rank);
  const auto it = std::find_if(rep.ranks.begin(), rep.ranks.end(), [&](const LocateRank& r) { return r.rank == rank; });
  if (it == rep.ranks.end()) return text;
  text += " on " + it->host;
  std::string where;
  if (!it->gpu.empty()) where = it->gpu;
  if (where.empty() && it->device != "cpu") where = it->device + (it->pci_bus_id.empty() ? "" : " " + it->pci_bus_id);
  if (where.empty()) where = it->device_name;
  if (!it->nic.empty()) where += (where.empty() ? "NIC " : ", NIC ") + it->nic;
  return where.empty() ? text : text + " (" + where + ")";
}

std::string join_ranks(const std::vector<int>& ranks) {
  std::string s;
  for (int r : ranks) s += (s.empty() ? "" : ", ") + std::to_string(r);
  return s;
}

// A ring's members in its row: a rail of 1,024 hosts has 1,024 of them.
std::string ring_ranks(const std::vector<int>& ranks) {
  constexpr std::size_t kListed = 16;
  if (ranks.size() <= kListed) return join_ranks(ranks);
  return join_ranks({ranks.begin(), ranks.begin() + 3}) + ", ..., " + std::to_string(ranks.back()) + " (" +
         std::to_string(ranks.size()) + " ranks)";
}

void write_header(std::ostream& out, const LocateReport& rep) {
  out << job_header_line(rep.job, "locate") << ", budget " << format_shortest(rep.budget_s) << " s\n#\n";
  std::size_t host_w = 4;
  std::size_t dev_w = 6;
  for (const auto& r : rep.ranks) {
    host_w = std::max(host_w, r.host.size());
    dev_w = std::max(dev_w, (r.device == "cpu" ? r.device_name : r.device).size());
  }
  // The switch column only where --fabric placed some host.
  std::size_t leaf_w = 0;
  for (const auto& r : rep.ranks)
    leaf_w = std::max(leaf_w, r.leaf.empty() ? 0 : std::max<std::size_t>(6, r.leaf.size()));
  const auto leaf_cell = [&](const std::string& text) {
    return leaf_w == 0 ? std::string() : left(text, leaf_w) + "  ";
  };
  if (rep.ranks.size() > kListedRows) {
    out << "# " << rep.ranks.size() << " ranks: the rank table is in the JSON report (-J)\n";
    return;
  }
  out << right("rank", 6) << "  " << left("host", host_w) << "  " << leaf_cell("switch") << left("local", 5) << "  "
      << left("device", dev_w) << "  " << left("gpu", 3) << "  nic\n";
  for (const auto& r : rep.ranks) {
    out << right(std::to_string(r.rank), 6) << "  " << left(r.host, host_w) << "  "
        << leaf_cell(r.leaf.empty() ? "-" : r.leaf) << left(std::to_string(r.local_rank), 5) << "  "
        << left(r.device == "cpu" ? r.device_name : r.device, dev_w) << "  " << left(r.gpu.empty() ? "-" : r.gpu, 3)
        << "  " << (r.nic.empty() ? "-" : r.nic) << "\n";
  }
}

// "" when the phase ran, else " not run: <why>".
std::string not_run(const LocateReport& rep, const std::string& name) {
  for (const auto& p : rep.phases) {
    if (p.name == name && p.status == "skipped") return ": not run: " + p.note;
  }
  return "";
}

void write_straggler(std::ostream& out, const LocateReport& rep) {
  out << "#\n# straggler phase: all_reduce (float sum); after a barrier every rank times its own wait inside each call"
      << not_run(rep, "straggler") << "\n";
  if (rep.all_reduce.empty()) return;
  out << right("size", 12) << right("iterations", 12) << right("time(us)", 12) << right("busbw(GB/s)", 13) << "\n";
  for (const auto& s : rep.all_reduce) {
    out << right(format_uint(s.size_bytes), 12) << right(format_uint(s.iterations), 12)
        << right(format_fixed(s.time_us, 1), 12) << right(format_fixed(s.busbw_gbps, 2), 13) << "\n";
  }
}

void write_pairs(std::ostream& out, const LocateReport& rep) {
  out << "#\n# pair phase: sendrecv between two ranks, in rounds of disjoint pairs";
  if (rep.pairs.empty()) {
    out << not_run(rep, "pairs") << "\n";
    return;
  }
  out << ": " << format_bytes(rep.pair_bytes) << " each way; " << rep.pair_rounds << " rounds per pass, "
      << rep.pair_passes << " pass" << (rep.pair_passes == 1 ? "" : "es") << " planned, " << rep.pair_steps_measured
      << " rounds measured\n";
  out << right("pair", 11) << "  " << left("class", 10) << right("round", 6) << right("passes", 7)
      << right("iterations", 12) << right("time(us)", 12) << right("GB/s", 10) << "\n";
  const auto row = [&](const LocatePair& p) {
    out << right(std::to_string(p.a) + "-" + std::to_string(p.b), 11) << "  "
        << left(p.inter_host ? "inter_host" : "intra_host", 10) << right(std::to_string(p.round), 6)
        << right(std::to_string(p.passes), 7) << right(format_uint(p.iterations), 12)
        << right(format_fixed(p.time_us, 1), 12) << right(format_fixed(p.gbps, 2), 10) << "\n";
  };
  if (rep.pairs.size() <= kListedRows) {
    for (const auto& p : rep.pairs) row(p);
    return;
  }
  for (std::size_t i : lowest(rep.pairs, kLowestShown, [](const LocatePair& p) { return p.gbps; })) row(rep.pairs[i]);
  out << more_rows_line(rep.pairs.size() - std::min(kLowestShown, rep.pairs.size()), "pairs, faster than these");
}

void write_groups(std::ostream& out, const LocateReport& rep) {
  out << "#\n# split-group phase: rings within each host and each rail (same local rank on every host)";
  if (rep.groups.empty()) {
    out << not_run(rep, "groups") << "\n";
    return;
  }
  out << ", " << format_bytes(rep.group_bytes) << " each way\n";
  std::size_t label_w = 5;
  for (const auto& g : rep.groups) label_w = std::max(label_w, g.kind.size() + 1 + g.label.size());
  out << "  " << left("group", label_w) << "  " << left("ranks", 16) << right("iterations", 12) << right("time(us)", 12)
      << right("GB/s", 10) << "\n";
  const auto row = [&](const LocateGroup& g) {
    out << "  " << left(g.kind + " " + g.label, label_w) << "  " << left(ring_ranks(g.ranks), 16)
        << right(format_uint(g.iterations), 12) << right(format_fixed(g.time_us, 1), 12)
        << right(format_fixed(g.gbps, 2), 10) << "\n";
  };
  if (rep.groups.size() <= kListedRows) {
    for (const auto& g : rep.groups) row(g);
    return;
  }
  for (std::size_t i : lowest(rep.groups, kLowestShown, [](const LocateGroup& g) { return g.gbps; })) {
    row(rep.groups[i]);
  }
  out << more_rows_line(rep.groups.size() - std::min(kLowestShown, rep.groups.size()), "rings, faster than these");
}

std::string details_text(const LocateFigure& f) {
  std::string s;
  for (const auto& d : f.details) {
    s += (s.empty() ? "" : "  ") + d.name + " " +
         (d.name.ends_with("pairs") ? format_fixed(d.value, 0) : format_fixed(d.value, 2));
  }
  return s;
}

// What follows a figure's line: after OUTLIER for a named one, alone for a suspect not named.
const char* recheck_text(LocateRecheck r) {
  switch (r) {
    case LocateRecheck::kNone: return "";
    case LocateRecheck::kConfirmed: return " (confirmed alone)";
    case LocateRecheck::kDecisive: return " (far enough below to need no recheck)";
    case LocateRecheck::kNotConfirmed: return "  suspect, not confirmed alone";
    case LocateRecheck::kNotMeasured: return "  suspect, no time to measure it alone: not named";
  }
  return "";
}

void write_comparison(std::ostream& out, const LocateComparison& c) {
  out << "# " << c.name << " (" << c.metric << ", " << c.unit << "; higher is better)";
  if (!c.compared) out << ": not compared: " << c.note;
  out << "\n";
  // A long comparison shows its outliers, its suspects and its lowest figures, in their order.
  std::vector<bool> shown(c.figures.size(), c.figures.size() <= kListedRows);
  if (c.figures.size() > kListedRows) {
    const auto judged_value = [](const LocateFigure& f) {
      return f.judged ? f.value : std::numeric_limits<double>::quiet_NaN();
    };
    for (std::size_t i : lowest(c.figures, kLowestShown, judged_value)) shown[i] = c.figures[i].judged;
    for (std::size_t i = 0; i < c.figures.size(); ++i) {
      if (c.figures[i].outlier || c.figures[i].recheck != LocateRecheck::kNone) shown[i] = true;
    }
  }
  std::size_t label_w = 6;
  for (const auto& f : c.figures) label_w = std::max(label_w, f.label.size());
  for (std::size_t i = 0; i < c.figures.size(); ++i) {
    if (!shown[i]) continue;
    const LocateFigure& f = c.figures[i];
    out << "  " << left(f.label, label_w) << right(figure_text(f.value, c.unit), 10);
    if (f.judged) {
      out << "  others " << right(figure_text(f.reference, c.unit), 8) << right(percent(f.gap) + " below", 12)
          << right(format_mads(f.distance_mads) + " MADs", 12);
    } else if (!f.set_aside.empty()) {
      out << "  set aside: " << f.set_aside;
    }
    const std::string details = details_text(f);
    if (!details.empty()) out << "  [" << details << "]";
    if (f.outlier) out << "  OUTLIER";
    out << recheck_text(f.recheck) << "\n";
  }
  const auto hidden = static_cast<std::size_t>(std::count(shown.begin(), shown.end(), false));
  if (hidden > 0) out << more_rows_line(hidden, "figures, none of them an outlier");
}

// Suspects that were fast alone, or that the budget left unconfirmed: worth knowing, but not
// culprits.
void write_contention(std::ostream& out, const LocateReport& rep) {
  for (const auto& c : rep.comparisons) {
    for (const auto& f : c.figures) {
      if (f.recheck == LocateRecheck::kNotMeasured) {
        out << "# note: " << f.label << " ran at " << figure_text(f.value, "GB/s")
            << " GB/s, below the others, but the budget left no time to measure it alone: not named\n";
      }
      if (f.recheck != LocateRecheck::kNotConfirmed) continue;
      const auto alone = std::find_if(f.details.begin(), f.details.end(),
                                      [](const auto& d) { return d.name == "alone_gbps"; });
      out << "# note: " << f.label << " ran at " << figure_text(f.value, "GB/s") << " GB/s beside other traffic but "
          << (alone != f.details.end() ? figure_text(alone->value, "GB/s") : "-")
          << " GB/s alone: slowed by contention, not named\n";
    }
  }
}

void write_budget(std::ostream& out, const LocateReport& rep) {
  out << "#\n# budget: " << format_shortest(rep.budget_s) << " s, spent " << format_fixed(rep.spent_s, 1) << " s:";
  bool first = true;
  for (const auto& p : rep.phases) {
    out << (first ? " " : "; ") << p.name << " ";
    first = false;
    if (p.status == "skipped") {
      out << "skipped (" << p.note << ")";
      continue;
    }
    out << format_fixed(p.spent_s, 1) << " s";
    const bool measuring = p.name != "setup" && p.name != "probe" && p.name != "verdict";
    if (measuring) out << " of " << format_fixed(p.planned_s, 1);
    if (p.status == "cut" || !p.note.empty()) out << " (" << p.note << ")";
  }
  out << "\n";
}

// A finding read from a file written before findings carried their evidence.
LocateEvidence flat_evidence(const LocateFinding& f) {
  return {.figure = f.label,
          .comparison = f.comparison,
          .metric = f.metric,
          .unit = f.unit,
          .value = f.value,
          .reference = f.reference,
          .distance_mads = f.distance_mads,
          .gap = f.gap};
}

// "all_reduce arrival: punctuality 0.011 against a median of 0.999 for the others (99% below,
// 19.8 MADs)"; a comparison without a reference is its name alone.
std::string evidence_text(const LocateEvidence& e) {
  std::ostringstream out;
  out << e.comparison;
  if (!std::isnan(e.reference)) {
    out << ": " << metric_words(e.metric) << " " << figure_text(e.value, e.unit) << " "
        << (e.unit == "GB/s" ? "GB/s " : "") << "against a median of " << figure_text(e.reference, e.unit)
        << " for the others (" << percent(e.gap) << " below, " << format_mads(e.distance_mads) << " MADs)";
  }
  return out.str();
}

void write_verdict(std::ostream& out, const LocateReport& rep) {
  switch (rep.verdict) {
    case LocateVerdict::kNoOutlier:
      out << "# verdict: no outlier found: every compared figure is within the rule\n";
      return;
    case LocateVerdict::kNothingCompared:
      out << "# verdict: nothing compared: too few ranks or too small a budget for two figures of any kind\n";
      return;
    case LocateVerdict::kOutlier: break;
  }
  out << "# verdict: OUTLIER FOUND: " << rep.findings.size() << " finding" << (rep.findings.size() == 1 ? "" : "s")
      << "\n";
  for (const auto& f : rep.findings) {
    out << "#   " << describe_finding(rep, f) << ": "
        << evidence_text(f.evidence.empty() ? flat_evidence(f) : f.evidence.front()) << "\n";
    // The other comparisons that named the same culprit, one line each under it.
    for (std::size_t i = 1; i < f.evidence.size(); ++i) {
      const auto& e = f.evidence[i];
      out << "#     and " << (e.figure == f.label ? "" : e.figure + " by ") << evidence_text(e) << "\n";
    }
    if (!f.cause.empty()) out << "#     cause: " << f.cause << "\n";
  }
}

}  // namespace

std::string describe_finding(const LocateReport& rep, const LocateFinding& f) {
  if (f.subject == "rank" && f.ranks.size() == 1) return rank_text(rep, f.ranks.front());
  if (f.subject == "pair" && f.ranks.size() == 2) {
    return f.label + " (" + rank_text(rep, f.ranks[0]) + " and " + rank_text(rep, f.ranks[1]) + ")";
  }
  if (f.subject == "switch") return f.label + " (hosts " + join(f.hosts, ", ") + ")";
  return f.label + " (ranks " + join_ranks(f.ranks) + ")";
}

void write_locate_text(std::ostream& out, const LocateReport& rep) {
  write_header(out, rep);
  write_straggler(out, rep);
  write_pairs(out, rep);
  write_groups(out, rep);
  out << "#\n# comparisons: an outlier is more than " << format_shortest(rep.rule.threshold_mads)
      << " MADs (the MAD counted as at least " << percent(rep.rule.mad_floor) << " of the median) and at least "
      << percent(rep.rule.min_gap) << " below the median of the other figures, or " << percent(rep.rule.decisive_gap)
      << " below the lowest of " << rep.rule.decisive_others << " or more; a rank " << percent(rep.rule.decisive_gap)
      << " and " << format_shortest(rep.rule.decisive_mads) << " MADs below " << rep.rule.decisive_others
      << " or more others needs no recheck\n";
  for (const auto& c : rep.comparisons) write_comparison(out, c);
  for (const auto& note : rep.notes) out << "# note: " << note << "\n";
  write_contention(out, rep);
  write_budget(out, rep);
  write_verdict(out, rep);
  out.flush();
}

}  // namespace collbench::report
