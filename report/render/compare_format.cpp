#include "report/render/compare_format.hpp"

#include <map>
#include <utility>

#include "common/strings.hpp"
#include "report/analysis/json_views.hpp"
#include "report/format/number_format.hpp"
#include "report/format/size_label.hpp"
#include "common/text_table.hpp"

namespace collbench::report {
namespace {

// ---- cells shared by text and Markdown ----

std::string gbps(double v) { return format_fixed(v, 2); }

std::string band_cell(const ComparedSide& s) { return gbps(s.band_low_gbps) + "-" + gbps(s.band_high_gbps); }

std::string verdict_cell(const ComparedPoint& p) {
  std::string text(to_string(p.verdict));
  if (p.within_noise) text += " (noise)";
  if (p.base.wrong > 0) text += " BASE-WRONG-DATA";
  if (p.current.wrong > 0) text += " NEW-WRONG-DATA";
  return text;
}

std::string ratio_cell(const ComparedPoint& p) { return p.ratio ? format_fixed(*p.ratio, 3) : "-"; }

std::string placement_cell(const std::optional<Placement>& p) { return p ? placement_words(*p) : "both"; }

const std::vector<Align> kPointAlign = {Align::kRight, Align::kRight, Align::kRight, Align::kRight,
                                        Align::kRight, Align::kRight, Align::kLeft};

// One table per series, in the order the points came.
std::vector<std::pair<SeriesKey, TableRows>> point_tables(const Comparison& c) {
  std::vector<std::pair<SeriesKey, TableRows>> tables;
  for (const auto& p : c.points) {
    if (tables.empty() || !(tables.back().first == p.key)) {
      tables.push_back({p.key, {{"size", "BASE GB/s", "BASE band", "NEW GB/s", "NEW band", "NEW/BASE", "verdict"}}});
    }
    tables.back().second.push_back({short_size(p.size_bytes), gbps(p.base.busbw_gbps), band_cell(p.base),
                                    gbps(p.current.busbw_gbps), band_cell(p.current), ratio_cell(p), verdict_cell(p)});
  }
  return tables;
}

// Unmatched points with the same series and states, listed as one line of sizes.
TableRows unmatched_rows(const Comparison& c) {
  TableRows rows = {{"series", "placement", "sizes", "BASE", "NEW"}};
  std::string last_key;
  for (const auto& u : c.unmatched) {
    const std::string key = describe(u.group) + "|" + placement_cell(u.placement) + "|" + u.base + "|" + u.current;
    if (key == last_key) {
      rows.back()[2] += ", " + short_size(u.size_bytes);
      continue;
    }
    last_key = key;
    rows.push_back({describe(u.group), placement_cell(u.placement), short_size(u.size_bytes), u.base, u.current});
  }
  return rows;
}

TableRows difference_rows(const Comparison& c) {
  TableRows rows = {{"field", "BASE", "NEW"}};
  for (const auto& d : c.differences) rows.push_back({d.field, d.base, d.current});
  return rows;
}

TableRows figures_rows(const Comparison& c) {
  const bool with_link = any_percent_of_link(c.base_figures) || any_percent_of_link(c.new_figures);
  std::vector<std::string> header = figures_header(with_link);
  header.insert(header.begin(), "run");
  TableRows rows = {header};
  for (const auto& [side, list] : {std::make_pair("BASE", &c.base_figures), std::make_pair("NEW", &c.new_figures)}) {
    for (const auto& f : *list) {
      std::vector<std::string> cells = figures_cells(f, with_link);
      cells.insert(cells.begin(), side);
      rows.push_back(std::move(cells));
    }
  }
  return rows;
}

std::string result_line(const Comparison& c) {
  const VerdictCounts& n = c.counts;
  std::string text = c.regressed() ? "REGRESSION: " : (c.points.empty() ? "NOTHING COMPARED: " : "no regression: ");
  text += format_uint(n.slower) + " slower, " + format_uint(n.faster) + " faster, " + format_uint(n.same) + " same (" +
          format_uint(n.within_noise) + " beyond the threshold but within noise)";
  if (n.unknown > 0) text += ", " + format_uint(n.unknown) + " not comparable";
  text += "; " + format_uint(c.unmatched.size()) + " points not compared" +
          (c.unmatched.empty() ? "" : " (listed above)");
  if (c.outside_size_range > 0) text += ", " + format_uint(c.outside_size_range) + " outside the size range";
  return text;
}

// ---- text and Markdown ----

std::string table(const TableRows& rows, bool markdown, const std::vector<Align>& align = {}) {
  return markdown ? render_markdown_table(rows, align) : render_text_table(rows, align);
}

std::string heading(const std::string& text, bool markdown) {
  return markdown ? "\n### " + text + "\n\n" : "\n" + text + "\n";
}

std::string prose(const Comparison& c, bool markdown) {
  const std::string bullet = markdown ? "- " : "  ";
  std::string out = markdown ? "## collbench compare\n\n" : "collbench compare\n";
  out += bullet + "BASE: " + c.base_label + "\n" + bullet + "NEW:  " + c.new_label + "\n";
  out += bullet + "Rule: " + noise_rule_text(c.options.threshold) + "\n";
  if (c.options.min_size > 0 || c.options.max_size != CompareOptions{}.max_size) {
    out += bullet + "Sizes: " + short_size(c.options.min_size) + " .. " +
           (c.options.max_size == CompareOptions{}.max_size ? std::string("any") : short_size(c.options.max_size)) +
           "\n";
  }
  for (const auto& f : c.flags) out += bullet + "WARNING: " + std::string(to_string(f.side)) + ": " + f.message + "\n";
  if (!c.setup_differences.empty()) {
    out += bullet + "WARNING: the runs differ in " + join(c.setup_differences, ", ") +
           ": the verdicts compare two different setups (busbw is normalised for the rank count, not for the system)\n";
  }
  return out;
}

std::string human(const Comparison& c, bool markdown) {
  std::string out = prose(c, markdown);
  if (!c.differences.empty()) out += heading("Context differences", markdown) + table(difference_rows(c), markdown);
  for (const auto& [key, rows] : point_tables(c))
    out += heading(describe(key), markdown) + table(rows, markdown, kPointAlign);
  if (!c.unmatched.empty()) {
    out += heading("Not compared (on one side only, or skipped)", markdown) + table(unmatched_rows(c), markdown);
  }
  out += heading("Summary figures (whole runs)", markdown) + table(figures_rows(c), markdown);
  out += (markdown ? "\n**" : "\n") + result_line(c) + (markdown ? "**\n" : "\n");
  return out;
}

// ---- JSON ----

Json side_json(const ComparedSide& s) {
  return {{"busbw_gbps", real(s.busbw_gbps)},
          {"band_low_gbps", real(s.band_low_gbps)},
          {"band_high_gbps", real(s.band_high_gbps)},
          {"time_us", real(s.time_us)},
          {"wrong", s.wrong}};
}

Json points_json(const Comparison& c) {
  Json points = Json::array();
  for (const auto& p : c.points) {
    Json j = series_key_json(p.key);
    j["size_bytes"] = p.size_bytes;
    j["base"] = side_json(p.base);
    j["new"] = side_json(p.current);
    j["ratio"] = p.ratio ? real(*p.ratio) : Json(nullptr);
    j["verdict"] = to_string(p.verdict);
    j["within_noise"] = p.within_noise;
    points.push_back(std::move(j));
  }
  return points;
}

Json unmatched_json(const Comparison& c) {
  Json out = Json::array();
  for (const auto& u : c.unmatched) {
    Json j = group_json(u.group);
    j["placement"] = u.placement ? Json(to_string(*u.placement)) : Json(nullptr);
    j["size_bytes"] = u.size_bytes;
    j["base"] = u.base;
    j["new"] = u.current;
    out.push_back(std::move(j));
  }
  return out;
}

Json figures_list(const std::vector<SeriesFigures>& figures) {
  Json out = Json::array();
  for (const auto& f : figures) out.push_back(figures_json(f));
  return out;
}

std::string json(const Comparison& c) {
  Json differences = Json::array();
  for (const auto& d : c.differences) differences.push_back({{"field", d.field}, {"base", d.base}, {"new", d.current}});
  Json flags = Json::array();
  for (const auto& f : c.flags)
    flags.push_back({{"side", f.side == Side::kBase ? "base" : "new"}, {"message", f.message}});
  const VerdictCounts& n = c.counts;
  const Json j = {{"schema", "collbench.compare"},
                  {"schema_version", 1},
                  {"base", c.base_label},
                  {"new", c.new_label},
                  {"threshold", c.options.threshold},
                  {"min_size_bytes", c.options.min_size},
                  {"max_size_bytes", c.options.max_size},
                  {"rule", noise_rule_text(c.options.threshold)},
                  {"regressed", c.regressed()},
                  {"counts",
                   {{"slower", n.slower},
                    {"faster", n.faster},
                    {"same", n.same},
                    {"within_noise", n.within_noise},
                    {"not_comparable", n.unknown},
                    {"not_compared", c.unmatched.size()},
                    {"outside_size_range", c.outside_size_range}}},
                  {"flags", flags},
                  {"setup_differences", c.setup_differences},
                  {"context_differences", differences},
                  {"points", points_json(c)},
                  {"unmatched", unmatched_json(c)},
                  {"figures", {{"base", figures_list(c.base_figures)}, {"new", figures_list(c.new_figures)}}}};
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string percent_text(double fraction) { return format_general(fraction * 100) + "%"; }

std::string noise_rule_text(double threshold) {
  return "slower/faster only when NEW/BASE busbw is beyond 1 -/+ " + percent_text(threshold) +
         " and the spread bands (the busbw of single iterations, p95 to fastest, and the headline) do not overlap";
}

std::string format_comparison(const Comparison& comparison, TextFormat format) {
  switch (format) {
    case TextFormat::kText: return human(comparison, false);
    case TextFormat::kMarkdown: return human(comparison, true);
    case TextFormat::kJson: return json(comparison);
  }
  return human(comparison, false);
}

}  // namespace collbench::report
