#include "bench/engine/locate/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench/engine/locate/uplinks.hpp"

namespace collbench::engine::locate {
namespace {

using report::LocateComparison;

constexpr std::size_t kMinPairsPerRank = 2;
// Arrival is each rank's own lateness, so two ranks compare; every other figure is a shared
// measurement (a pair runs at the pace of its slower end), and needs a majority of others.
constexpr std::size_t kMinArrivalFigures = 2;
constexpr std::size_t kMinFigures = 3;
using report::LocateFigure;
using report::LocateRecheck;

std::vector<std::string> hosts_of(const Measurements& m, const std::vector<int>& ranks) {
  std::vector<std::string> hosts;
  for (int r : ranks) {
    const std::string& h = m.places[static_cast<std::size_t>(r)].host;
    if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  }
  return hosts;
}

LocateFigure figure(const Measurements& m, std::string label, std::vector<int> ranks, double value) {
  LocateFigure f;
  f.label = std::move(label);
  f.hosts = hosts_of(m, ranks);
  f.ranks = std::move(ranks);
  f.value = value;
  return f;
}

void collect(const LocateComparison& c, Verdict& v, std::set<int>* named);

// How the figures of a comparison are set against each other: each against all the others,
// or (ranks over inter-host pairs) against those on other hosts only: a host's NIC or uplink
// makes all its ranks alike, and two slow ranks of one host would be each other's reference.
enum class Against { kAllOthers, kOtherHosts };

// Ranks are judged apart from their host mates only with three hosts or more: with two, the
// other host's ranks are exactly a rank's partners, each with its slow pair in its figure.
constexpr std::size_t kMinHostsApart = 3;

// Judged against other hosts only: inter-host ranks, and enough hosts among the figures to judge.
bool apart_by_host(const LocateComparison& c, bool inter) {
  std::set<std::string> hosts;
  for (const auto& f : c.figures) {
    if (f.set_aside.empty()) hosts.insert(f.hosts.front());
  }
  return inter && hosts.size() >= kMinHostsApart;
}

void set_judgement(LocateFigure& f, const Judgement& j) {
  f.judged = true;
  f.reference = j.reference;
  f.spread = j.spread;
  f.distance_mads = j.distance_mads;
  f.gap = j.gap;
  f.outlier = j.outlier;
}

// Judges the figures not set aside against each other. Fewer than `min_figures` judged
// figures name nothing: the others would be too few to say what is normal.
void apply_rule(LocateComparison& c, const OutlierRule& rule, std::size_t min_figures,
                Against against = Against::kAllOthers) {
  std::vector<double> values;
  std::vector<int> hosts;
  std::map<std::string, int> host_ids;
  std::vector<LocateFigure*> judged;
  for (auto& f : c.figures) {
    if (!f.set_aside.empty()) continue;
    values.push_back(f.value);
    hosts.push_back(host_ids.emplace(f.hosts.front(), static_cast<int>(host_ids.size())).first->second);
    judged.push_back(&f);
  }
  c.compared = values.size() >= min_figures;
  if (!c.compared) {
    if (c.note.empty()) {
      c.note = judged.empty() ? "nothing left to compare"
               : judged.size() == 1
                   ? "only one figure: nothing to compare with"
                   : std::to_string(judged.size()) + " figures only: too few to tell which is abnormal";
    }
    return;
  }
  const auto verdicts = against == Against::kOtherHosts ? judge_apart(values, hosts, rule) : judge(values, rule);
  for (std::size_t i = 0; i < judged.size(); ++i) set_judgement(*judged[i], verdicts[i]);
}

bool touches(const std::vector<int>& ranks, const std::set<int>& named) {
  return std::any_of(ranks.begin(), ranks.end(), [&](int r) { return named.contains(r); });
}

std::string named_text(const std::vector<int>& ranks, const std::set<int>& named) {
  std::string text;
  for (int r : ranks) {
    if (named.contains(r)) text += (text.empty() ? "" : ", ") + std::to_string(r);
  }
  return "explained by rank " + text + ", named above";
}

LocateComparison arrival_comparison(const Measurements& m) {
  LocateComparison c{"all_reduce arrival", "straggler", "rank", "punctuality", "share", false, "", {}};
  for (std::size_t r = 0; r < m.arrivals.size(); ++r) {
    auto f = figure(m, "rank " + std::to_string(r), {static_cast<int>(r)}, m.arrivals[r].punctuality);
    f.details.push_back({"late_us", m.arrivals[r].late_us});
    c.figures.push_back(std::move(f));
  }
  return c;
}

// Each rank's pair bandwidths in one class, leaving out the pairs of ranks already named.
std::vector<std::vector<double>> class_gbps(const Measurements& m, bool inter, const std::set<int>& named) {
  std::vector<std::vector<double>> gbps(m.places.size());
  for (const auto& p : m.pairs) {
    if (p.inter_host != inter || named.contains(p.a) || named.contains(p.b)) continue;
    gbps[static_cast<std::size_t>(p.a)].push_back(p.gbps);
    gbps[static_cast<std::size_t>(p.b)].push_back(p.gbps);
  }
  return gbps;
}

// What a rank can do over one class of pairs. A pair runs at the pace of its slower end, so
// while most of a rank's partners are healthy the upper quartile shows the rank's own
// capability, and one bad partner (a bad link) barely moves it.
double upper_quartile(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const double pos = 0.75 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

// The uplinks of the leaf switches (locate --fabric; see uplinks.hpp): each leaf's share of
// its inside bandwidth that its pairs across it reach. With three leaves or more they are
// judged against each other; with two, the pairs across them are one path, judged against
// the pairs inside them. No recheck: measured alone, a ring of a leaf's ranks would not cross
// its uplink, and the figure is already the upper quartile of many pairs, over the median of
// the leaf's own inside pairs measured in the same rounds.
struct UplinkComparison {
  LocateComparison comparison{"switch uplinks (pairs across a leaf against inside it)",
                              "pairs",
                              "switch",
                              "uplink_share",
                              "share",
                              false,
                              "",
                              {}};
  std::vector<std::vector<std::string>> leaves;  // per figure: the leaves whose uplinks it measures
};

LocateFigure leaf_figure(const Measurements& m, const LeafPairs& l) {
  const double inside = median_of(l.inside_gbps);
  const double across = l.across_gbps.empty() ? std::numeric_limits<double>::quiet_NaN()
                                              : upper_quartile(l.across_gbps);
  auto f = figure(m, "uplink of switch " + l.leaf, l.ranks, inside > 0 ? across / inside : 0);
  f.details = {{"across_gbps", across},
               {"inside_gbps", inside},
               {"across_pairs", static_cast<double>(l.across_gbps.size())},
               {"inside_pairs", static_cast<double>(l.inside_gbps.size())}};
  if (l.hosts.size() < 2) {
    f.set_aside = "one host under it: its uplink cannot be told from the host's own link";
  } else if (l.inside_gbps.empty() || !(inside > 0)) {
    f.set_aside = "no pair inside it measured";
  } else if (l.across_gbps.empty()) {
    f.set_aside = "no pair across it measured";
  }
  return f;
}

// Two leaves: one figure, the pairs across them as one path, against each pair inside them,
// every figure a share of the median of all the pairs inside. The path's figure is the upper
// quartile of its pairs, as a leaf's is with three leaves or more: a slow host under either
// leaf slows its own pairs across (half of them when it is one of two hosts) but not the
// others, while a slow uplink slows them all. Sharing one reference keeps the spread of the
// pairs inside as measured (one pair per leaf would otherwise always be its own median).
void judge_two_leaves(const Measurements& m, const std::vector<LeafPairs>& leaves, const OutlierRule& rule,
                      UplinkComparison& u) {
  std::vector<double> inside_all = leaves[0].inside_gbps;
  inside_all.insert(inside_all.end(), leaves[1].inside_gbps.begin(), leaves[1].inside_gbps.end());
  const double inside = median_of(inside_all);
  std::vector<double> shares;
  shares.reserve(inside_all.size() + 1);
  for (double g : inside_all) shares.push_back(g / inside);
  std::vector<int> ranks = leaves[0].ranks;
  ranks.insert(ranks.end(), leaves[1].ranks.begin(), leaves[1].ranks.end());
  std::sort(ranks.begin(), ranks.end());
  const double across = upper_quartile(leaves[0].across_gbps);
  auto f = figure(m, "uplinks between switch " + leaves[0].leaf + " and switch " + leaves[1].leaf, ranks,
                  across / inside);
  f.details = {{"across_gbps", across},
               {"inside_gbps", inside},
               {"across_pairs", static_cast<double>(leaves[0].across_gbps.size())},
               {"inside_pairs", static_cast<double>(inside_all.size())}};
  LocateComparison& c = u.comparison;
  c.compared = shares.size() + 1 >= kMinFigures;
  c.note = "two leaves: the pairs across them, as one path, against the " + std::to_string(shares.size()) +
           " pairs inside them";
  if (c.compared) {
    shares.push_back(f.value);
    set_judgement(f, judge(shares, rule).back());
  }
  c.figures.push_back(std::move(f));
  u.leaves.push_back({leaves[0].leaf, leaves[1].leaf});
}

double detail(const LocateFigure& f, const std::string& name) {
  for (const auto& d : f.details) {
    if (d.name == name) return d.value;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

// A leaf's share can also be low because its few pairs inside ran fast (one pair of two hosts,
// by luck of the scheduler); an uplink is slow only if the leaf's pairs across are themselves
// below the other leaves' pairs across, by the same rule. An outlier share whose pairs across
// are not is kept in the table but not named, with a note.
void keep_slow_across(LocateComparison& c, const OutlierRule& rule) {
  std::vector<double> across;
  std::vector<LocateFigure*> judged;
  for (auto& f : c.figures) {
    if (!f.judged) continue;
    across.push_back(detail(f, "across_gbps"));
    judged.push_back(&f);
  }
  if (judged.empty()) return;
  const auto verdicts = judge(across, rule);
  for (std::size_t i = 0; i < judged.size(); ++i) {
    LocateFigure& f = *judged[i];
    if (!f.outlier || verdicts[i].outlier) continue;
    f.outlier = false;
    c.note += std::string(c.note.empty() ? "" : "; ") + f.label +
              ": a low share, but its pairs across run as fast as the other leaves' (its pairs inside ran fast): "
              "not named";
  }
}

UplinkComparison uplink_comparison(const Measurements& m, const std::set<int>& named, const OutlierRule& rule) {
  UplinkComparison u;
  const std::vector<LeafPairs> leaves = leaf_pairs(m, named);
  if (leaves.size() < 2) return u;
  const bool both_judged = std::all_of(leaves.begin(), leaves.end(),
                                       [&](const LeafPairs& l) { return leaf_figure(m, l).set_aside.empty(); });
  if (leaves.size() == 2 && both_judged) {
    judge_two_leaves(m, leaves, rule, u);
    return u;
  }
  for (const LeafPairs& l : leaves) {
    u.comparison.figures.push_back(leaf_figure(m, l));
    u.leaves.push_back({l.leaf});
  }
  apply_rule(u.comparison, rule, kMinFigures);
  keep_slow_across(u.comparison, rule);
  return u;
}

// One comparison of ranks over one class of pairs, with the ranks in `named` left out.
LocateComparison rank_class_comparison(const Measurements& m, bool inter, const std::set<int>& named,
                                       const OutlierRule& rule) {
  LocateComparison c{inter ? "ranks over their inter-host pairs" : "ranks over their intra-host pairs",
                     "pairs",
                     "rank",
                     "rank_pair_gbps",
                     "GB/s",
                     false,
                     "",
                     {}};
  const auto gbps = class_gbps(m, inter, named);
  for (std::size_t r = 0; r < m.places.size(); ++r) {
    const auto& v = gbps[r];
    const double none = std::numeric_limits<double>::quiet_NaN();
    auto fig = figure(m, "rank " + std::to_string(r), {static_cast<int>(r)}, v.empty() ? none : upper_quartile(v));
    if (named.contains(static_cast<int>(r))) {
      fig.set_aside = "named above";
    } else if (v.size() < kMinPairsPerRank) {
      // One pair cannot tell its two ranks apart: it is judged as a pair instead.
      fig.set_aside = v.empty() ? "no pair of this class with an unnamed rank" : "one pair only: judged as a pair";
    }
    fig.details.push_back({"pairs", static_cast<double>(v.size())});
    c.figures.push_back(std::move(fig));
  }
  apply_rule(c, rule, kMinFigures, apart_by_host(c, inter) ? Against::kOtherHosts : Against::kAllOthers);
  return c;
}

// The rank to name next: an outlier in the most classes, then with the widest gap; -1 for none.
int clearest_outlier(const std::vector<LocateComparison>& classes, std::size_t nranks, const std::set<int>& skip) {
  int best = -1;
  std::pair<int, double> best_score{0, 0};
  for (std::size_t r = 0; r < nranks; ++r) {
    if (skip.contains(static_cast<int>(r))) continue;
    std::pair<int, double> score{0, 0};
    for (const auto& c : classes) {
      if (!c.figures[r].outlier) continue;
      ++score.first;
      score.second = std::max(score.second, c.figures[r].gap);
    }
    if (score.first > 0 && score > best_score) {
      best_score = score;
      best = static_cast<int>(r);
    }
  }
  return best;
}

const Recheck* find_recheck(const Measurements& m, const std::vector<int>& ranks) {
  const auto it = std::find_if(m.rechecks.begin(), m.rechecks.end(),
                               [&](const Recheck& r) { return r.ranks == ranks; });
  return it == m.rechecks.end() ? nullptr : &*it;
}

// A healthy pair of one class to measure alone beside a suspect rank's pairs: of the pairs
// that touch no rank in `exclude`, the one closest to their median; empty when none.
std::vector<int> control_pair(const Measurements& m, bool inter, const std::set<int>& exclude) {
  std::vector<const report::LocatePair*> candidates;
  std::vector<double> values;
  for (const auto& p : m.pairs) {
    if (p.inter_host != inter || exclude.contains(p.a) || exclude.contains(p.b)) continue;
    candidates.push_back(&p);
    values.push_back(p.gbps);
  }
  if (candidates.empty()) return {};
  const double mid = median_of(values);
  const auto* best = *std::min_element(candidates.begin(), candidates.end(), [&](const auto* x, const auto* y) {
    return std::abs(x->gbps - mid) < std::abs(y->gbps - mid);
  });
  return {best->a, best->b};
}

// Whether a figure measured alone is still beyond the rule: against its control measured
// alone in turn with it where there was one (both saw the same conditions), otherwise against
// the reference and spread of the comparison.
bool still_slow(double alone_gbps, double control_gap, bool has_control, const LocateFigure& f,
                const OutlierRule& rule) {
  if (has_control) return control_gap >= rule.min_gap;
  const double below = f.reference - alone_gbps;
  return f.reference > 0 && below / f.reference >= rule.min_gap && below > rule.threshold_mads * f.spread;
}

// What a suspect without a recheck becomes: provisional before the confirmation phase (it is
// what the phase measures), not measured and not named after it.
LocateRecheck unmeasured(const Measurements& m) {
  return m.confirmation_done ? LocateRecheck::kNotMeasured : LocateRecheck::kNone;
}

// Whether a suspect stays named after its recheck: a provisional one does until the
// confirmation phase has measured it.
bool named_after(LocateRecheck r) {
  switch (r) {
    case LocateRecheck::kNone:
    case LocateRecheck::kConfirmed:
    case LocateRecheck::kDecisive: return true;
    case LocateRecheck::kNotConfirmed:
    case LocateRecheck::kNotMeasured: return false;
  }
  return false;
}

// The pairs a suspect rank is measured again on, alone: its two fastest of the class (a rank
// slow by itself is slow on its best pairs too; one slowed by the traffic beside it is fast on
// them alone).
std::vector<std::vector<int>> recheck_pairs_of(const Measurements& m, bool inter, int r, const std::set<int>& named) {
  std::vector<const report::LocatePair*> mine;
  for (const auto& p : m.pairs) {
    if (p.inter_host == inter && (p.a == r || p.b == r) && !named.contains(p.a + p.b - r)) mine.push_back(&p);
  }
  std::sort(mine.begin(), mine.end(), [](const auto* x, const auto* y) { return x->gbps > y->gbps; });
  std::vector<std::vector<int>> out;
  for (std::size_t i = 0; i < mine.size() && i < 2; ++i) out.push_back({mine[i]->a, mine[i]->b});
  return out;
}

// Whether a rank's figure is far enough below enough others to need no recheck. Over
// inter-host pairs, its host mates are not among the others it was judged against.
bool decisive(const LocateComparison& c, bool inter, const LocateFigure& f, const OutlierRule& rule) {
  const bool apart = apart_by_host(c, inter);
  const auto others = static_cast<std::size_t>(std::count_if(c.figures.begin(), c.figures.end(), [&](const auto& x) {
    return x.judged && &x != &f && (!apart || x.hosts != f.hosts);
  }));
  return f.outlier && others >= rule.decisive_others && f.gap >= rule.decisive_gap &&
         f.distance_mads >= rule.decisive_mads;
}

// A rank that only its pairs accuse, measured alone on its best pairs: confirmed when the
// best of them is still beyond the rule where it was an outlier (against a control measured
// alone in turn), not confirmed when not, and unmeasured(m) when none was re-measured.
LocateRecheck confirm_rank(const Measurements& m, const std::vector<bool>& classes, std::vector<LocateComparison>& last,
                           int r, const std::set<int>& named, const OutlierRule& rule) {
  const auto i = static_cast<std::size_t>(r);
  bool still = false;
  for (std::size_t k = 0; k < classes.size(); ++k) {
    LocateFigure& f = last[k].figures[i];
    if (!f.outlier) continue;
    std::vector<double> alone;
    std::vector<double> controls;
    std::vector<double> gaps;
    for (const auto& pair : recheck_pairs_of(m, classes[k], r, named)) {
      // The best pair is measured first; when the budget held only it, it decides alone.
      const Recheck* rc = find_recheck(m, pair);
      if (rc == nullptr) continue;
      alone.push_back(rc->gbps);
      if (!rc->control.empty()) {
        controls.push_back(rc->control_gbps);
        gaps.push_back(rc->gap);
      }
    }
    if (alone.empty()) return unmeasured(m);
    const double figure_alone = *std::max_element(alone.begin(), alone.end());
    f.details.push_back({"alone_gbps", figure_alone});
    const bool has_control = !controls.empty();
    if (has_control) f.details.push_back({"control_gbps", median_of(controls)});
    // Its best pair against that pair's control: a rank slow by itself is behind on every one.
    const double gap = has_control ? *std::min_element(gaps.begin(), gaps.end()) : 0;
    if (has_control) f.details.push_back({"control_gap", gap});
    still = still || still_slow(figure_alone, gap, has_control, f, rule);
  }
  return still ? LocateRecheck::kConfirmed : LocateRecheck::kNotConfirmed;
}

bool kept_outlier(const std::vector<std::vector<LocateFigure>>& kept, std::size_t r) {
  return std::any_of(kept.begin(), kept.end(), [&](const auto& figures) { return figures[r].outlier; });
}

// Ranks over their pairs, one at a time: the clearest outlier is named, its pairs are set
// aside, and the rest judged again, so that a slow rank does not drag its partners down with
// it. A rank that arrival did not name must survive its pairs measured alone (`cleared` ones
// did not). Each named or cleared rank keeps the figures of that moment; the others show the
// last round's.
void name_ranks_by_pairs(const Measurements& m, const OutlierRule& rule, Verdict& v, std::set<int>& named) {
  std::vector<bool> classes;
  for (bool inter : {false, true}) {
    if (std::any_of(m.pairs.begin(), m.pairs.end(), [&](const auto& p) { return p.inter_host == inter; })) {
      classes.push_back(inter);
    }
  }
  const std::size_t n = m.places.size();
  std::set<int> by_pairs;
  std::set<int> cleared;
  std::vector<LocateComparison> last(classes.size());
  std::vector<std::vector<LocateFigure>> kept(classes.size(), std::vector<LocateFigure>(n));
  while (true) {
    for (std::size_t k = 0; k < classes.size(); ++k) last[k] = rank_class_comparison(m, classes[k], by_pairs, rule);
    const int best = clearest_outlier(last, n, cleared);
    if (best < 0) break;
    const auto b = static_cast<std::size_t>(best);
    const bool corroborated = named.contains(best);  // by arrival
    bool clear = false;
    for (std::size_t k = 0; k < classes.size(); ++k)
      clear = clear || decisive(last[k], classes[k], last[k].figures[b], rule);
    LocateRecheck recheck = LocateRecheck::kNone;
    if (clear && !corroborated) {
      recheck = LocateRecheck::kDecisive;
    } else if (!corroborated) {
      recheck = confirm_rank(m, classes, last, best, by_pairs, rule);
    }
    for (std::size_t k = 0; k < classes.size(); ++k) {
      if (!corroborated && recheck == LocateRecheck::kNone && last[k].figures[b].outlier) {
        std::set<int> exclude = by_pairs;
        exclude.insert(named.begin(), named.end());
        exclude.insert(best);
        const std::vector<int> control = control_pair(m, classes[k], exclude);
        for (auto& pair : recheck_pairs_of(m, classes[k], best, by_pairs)) {
          v.recheck_pairs.push_back({std::move(pair), control});
        }
      }
      kept[k][b] = last[k].figures[b];
      if (!kept[k][b].outlier) continue;
      kept[k][b].recheck = recheck;
      kept[k][b].outlier = named_after(recheck);
    }
    (kept_outlier(kept, b) ? by_pairs : cleared).insert(best);
  }
  for (std::size_t k = 0; k < classes.size(); ++k) {
    for (int r : by_pairs) last[k].figures[static_cast<std::size_t>(r)] = kept[k][static_cast<std::size_t>(r)];
    for (int r : cleared) last[k].figures[static_cast<std::size_t>(r)] = kept[k][static_cast<std::size_t>(r)];
    collect(last[k], v, &named);
    v.comparisons.push_back(std::move(last[k]));
  }
}

// The two hosts of an inter-host pair, in order: the link it crossed.
using HostPair = std::pair<std::string, std::string>;
HostPair link_of(const Measurements& m, const report::LocatePair& p) {
  const std::string& a = m.places[static_cast<std::size_t>(p.a)].host;
  const std::string& b = m.places[static_cast<std::size_t>(p.b)].host;
  return a < b ? HostPair{a, b} : HostPair{b, a};
}

std::string link_label(const HostPair& link) { return "link " + link.first + "-" + link.second; }

// Each link (pair of hosts) by the median of its inter-host pairs, the pairs of named ranks
// left out. With several ranks per host a slow link is a block of pairs: at 3 hosts, 4 of the
// 12, enough to widen the MAD that each of them is judged by, while as one link of three it
// stands alone. Empty when no link has two pairs: then it is the pair comparison again.
LocateComparison link_comparison(const Measurements& m, const std::set<int>& named) {
  LocateComparison c{"links (host pairs)", "pairs", "link", "link_gbps", "GB/s", false, "", {}};
  std::map<HostPair, std::vector<const report::LocatePair*>> links;
  for (const auto& p : m.pairs) {
    if (p.inter_host) links[link_of(m, p)].push_back(&p);
  }
  bool any_block = false;
  for (const auto& [link, pairs] : links) {
    std::vector<double> gbps;
    std::set<int> ranks;
    for (const auto* p : pairs) {
      ranks.insert({p->a, p->b});
      if (!named.contains(p->a) && !named.contains(p->b)) gbps.push_back(p->gbps);
    }
    any_block = any_block || pairs.size() >= 2;
    auto f = figure(m, link_label(link), {ranks.begin(), ranks.end()}, median_of(gbps));
    f.details.push_back({"pairs", static_cast<double>(gbps.size())});
    if (gbps.size() < 2) f.set_aside = gbps.empty() ? named_text(f.ranks, named) : "one pair only: judged as a pair";
    c.figures.push_back(std::move(f));
  }
  if (!any_block) c.figures.clear();
  return c;
}

LocateComparison pair_comparison(const Measurements& m, bool inter, const std::set<int>& named,
                                 const std::set<HostPair>& named_links, const std::set<std::string>& uplinks) {
  LocateComparison c{
      inter ? "inter-host pairs" : "intra-host pairs", "pairs", "pair", "p2p_gbps", "GB/s", false, "", {}};
  for (const auto& p : m.pairs) {
    if (p.inter_host != inter) continue;
    auto f = figure(m, "pair " + std::to_string(p.a) + "-" + std::to_string(p.b), {p.a, p.b}, p.gbps);
    f.details.push_back({"time_us", p.time_us});
    if (touches(f.ranks, named)) {
      f.set_aside = named_text(f.ranks, named);
    } else if (inter && named_links.contains(link_of(m, p))) {
      f.set_aside = "explained by " + link_label(link_of(m, p)) + ", named above";
    } else if (through_uplink(m, p, uplinks)) {
      f.set_aside = "across the uplink of a switch named above";
    }
    c.figures.push_back(std::move(f));
  }
  return c;
}

LocateComparison group_comparison(const Measurements& m, GroupKind kind, const std::set<int>& named) {
  const bool host = kind == GroupKind::kHost;
  LocateComparison c{host ? "host rings" : "rail rings", "groups", to_string(kind), "ring_gbps", "GB/s", false, "", {}};
  for (const auto& g : m.groups) {
    if (g.kind != to_string(kind)) continue;
    auto f = figure(m, (host ? "host " : "rail ") + g.label, g.ranks, g.gbps);
    f.details.push_back({"time_us", g.time_us});
    if (touches(f.ranks, named)) f.set_aside = named_text(f.ranks, named);
    c.figures.push_back(std::move(f));
  }
  return c;
}

// A suspect measured alone stays an outlier only if its figure alone is still beyond the
// rule (see still_slow); one the confirmation had no time for is not named.
void apply_rechecks(LocateComparison& c, const Measurements& m, const OutlierRule& rule) {
  for (auto& f : c.figures) {
    if (!f.outlier) continue;
    const Recheck* rc = find_recheck(m, f.ranks);
    if (rc == nullptr) {
      f.recheck = unmeasured(m);
      f.outlier = named_after(f.recheck);
      continue;
    }
    f.details.push_back({"alone_gbps", rc->gbps});
    if (!rc->control.empty()) {
      f.details.push_back({"control_gbps", rc->control_gbps});
      f.details.push_back({"control_gap", rc->gap});
    }
    const bool still = still_slow(rc->gbps, rc->gap, !rc->control.empty(), f, rule);
    f.recheck = still ? LocateRecheck::kConfirmed : LocateRecheck::kNotConfirmed;
    f.outlier = still;
  }
}

// One finding per culprit: a culprit already named by an earlier comparison (a rank by its
// arrival, then by its pairs) gains this comparison as evidence instead of a second finding.
void add_finding(Verdict& v, report::LocateFinding f) {
  const auto same = std::find_if(v.findings.begin(), v.findings.end(), [&](const auto& g) {
    return g.subject == f.subject && g.ranks == f.ranks && g.hosts == f.hosts;
  });
  if (same == v.findings.end()) {
    v.findings.push_back(std::move(f));
    return;
  }
  same->evidence.insert(same->evidence.end(), f.evidence.begin(), f.evidence.end());
}

void collect(const LocateComparison& c, Verdict& v, std::set<int>* named) {
  for (const auto& f : c.figures) {
    if (!f.outlier) continue;
    add_finding(v, report::make_finding(c.subject, f.label, f.ranks, f.hosts,
                                        {.figure = f.label,
                                         .comparison = c.name,
                                         .metric = c.metric,
                                         .unit = c.unit,
                                         .value = f.value,
                                         .reference = f.reference,
                                         .distance_mads = f.distance_mads,
                                         .gap = f.gap}));
    if (named != nullptr) named->insert(f.ranks.begin(), f.ranks.end());
  }
}

// Slow pairs between the same two hosts are one finding: the link between them (a switch port,
// a cable, a route), not as many separate pairs.
void merge_links(Verdict& v) {
  std::map<std::vector<std::string>, std::vector<std::size_t>> by_hosts;
  for (std::size_t i = 0; i < v.findings.size(); ++i) {
    const auto& f = v.findings[i];
    if (f.subject != "pair" || f.hosts.size() != 2) continue;
    std::vector<std::string> key = f.hosts;
    std::sort(key.begin(), key.end());
    by_hosts[key].push_back(i);
  }
  std::vector<bool> merged(v.findings.size(), false);
  std::vector<report::LocateFinding> links;
  for (const auto& [hosts, members] : by_hosts) {
    if (members.size() < 2) continue;
    report::LocateFinding link = v.findings[members.front()];
    link.subject = "link";
    link.label = "link " + hosts[0] + "-" + hosts[1] + " (" + std::to_string(members.size()) + " pairs)";
    link.ranks.clear();
    std::vector<double> values;
    std::vector<double> gaps;
    link.evidence.clear();
    for (std::size_t i : members) {
      merged[i] = true;
      const auto& f = v.findings[i];
      link.evidence.insert(link.evidence.end(), f.evidence.begin(), f.evidence.end());
      for (int r : f.ranks) {
        if (std::find(link.ranks.begin(), link.ranks.end(), r) == link.ranks.end()) link.ranks.push_back(r);
      }
      values.push_back(f.value);
      gaps.push_back(f.gap);
    }
    std::sort(link.ranks.begin(), link.ranks.end());
    link.hosts = hosts;
    link.value = median_of(values);
    link.gap = median_of(gaps);
    links.push_back(std::move(link));
  }
  std::vector<report::LocateFinding> kept;
  for (std::size_t i = 0; i < v.findings.size(); ++i) {
    if (!merged[i]) kept.push_back(std::move(v.findings[i]));
  }
  kept.insert(kept.end(), links.begin(), links.end());
  v.findings = std::move(kept);
}

// A host all of whose ranks were named, when there are other hosts to set it apart from: the
// host is the culprit, so its ranks' findings become its evidence (one finding, not one per
// rank and one more for the host).
void name_whole_hosts(const Measurements& m, const std::set<int>& named, Verdict& v) {
  const auto hosts = host_groups(m.places);
  if (hosts.size() < 2) return;
  for (const auto& h : hosts) {
    if (!std::all_of(h.ranks.begin(), h.ranks.end(), [&](int r) { return named.contains(r); })) continue;
    // No figure of its own: the number of ranks stands as the value, with no reference.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto host = report::make_finding("host", "host " + h.label, h.ranks, {h.label},
                                     {.figure = "host " + h.label,
                                      .comparison = "every rank of the host named",
                                      .metric = "ranks_named",
                                      .unit = "ranks",
                                      .value = static_cast<double>(h.ranks.size()),
                                      .reference = nan,
                                      .distance_mads = nan,
                                      .gap = nan});
    const auto of_host = [&](const report::LocateFinding& f) {
      return f.subject == "rank" && f.ranks.size() == 1 &&
             std::find(h.ranks.begin(), h.ranks.end(), f.ranks.front()) != h.ranks.end();
    };
    for (const auto& f : v.findings) {
      if (of_host(f)) host.evidence.insert(host.evidence.end(), f.evidence.begin(), f.evidence.end());
    }
    std::erase_if(v.findings, of_host);
    v.findings.push_back(std::move(host));
  }
}

// A finding's ranks against the others: descheduled at least kContentionFactor times as often
// as the median other rank, and at least kContentionMinSwitches times (a few hundred
// preemptions over seconds of pairs are a busy machine's normal); or a host losing at least
// kStealMinShare of its CPU time to steal and kContentionFactor times the others' median.
constexpr double kContentionFactor = 10;
constexpr double kContentionMinSwitches = 200;
constexpr double kStealMinShare = 0.05;

std::string count_text(double v) { return std::to_string(static_cast<long long>(std::llround(v))); }

std::string contention_cause(const std::vector<report::LocateCpu>& cpu, const std::vector<int>& ranks) {
  std::vector<double> mine_switches, other_switches, mine_steal, other_steal;
  for (const auto& c : cpu) {
    const bool mine = std::find(ranks.begin(), ranks.end(), c.rank) != ranks.end();
    (mine ? mine_switches : other_switches).push_back(c.involuntary_switches);
    if (!std::isnan(c.steal_share)) (mine ? mine_steal : other_steal).push_back(c.steal_share);
  }
  if (mine_switches.empty() || other_switches.empty()) return "";
  const double switches = median_of(mine_switches);
  const double others = median_of(other_switches);
  if (switches >= kContentionMinSwitches && switches >= kContentionFactor * std::max(others, 1.0)) {
    return "descheduled " + count_text(switches) + " times during the pairs (others: " + count_text(others) +
           "): CPU contention on its host, not the network";
  }
  if (mine_steal.empty() || other_steal.empty()) return "";
  const double steal = median_of(mine_steal);
  const double others_steal = median_of(other_steal);
  if (steal >= kStealMinShare && steal >= kContentionFactor * others_steal) {
    return "its host lost " + count_text(100 * steal) +
           "% of its CPU time to steal during the pairs (others: " + count_text(100 * others_steal) +
           "%): CPU contention on its host (the hypervisor), not the network";
  }
  return "";
}

void name_cpu_contention(const Measurements& m, Verdict& v) {
  if (m.cpu.size() < 2) return;
  for (auto& f : v.findings) {
    if (f.subject == "rank" || f.subject == "host") f.cause = contention_cause(m.cpu, f.ranks);
  }
}

// The healthy figure of a comparison to measure alone beside a suspect: judged, not an
// outlier, closest to the suspect's reference, sharing no rank with it where possible.
std::vector<int> control_figure(const LocateComparison& c, const LocateFigure& suspect) {
  const LocateFigure* best = nullptr;
  std::pair<bool, double> best_key{true, 0};
  for (const auto& f : c.figures) {
    if (!f.judged || f.outlier) continue;
    const bool shares = std::any_of(f.ranks.begin(), f.ranks.end(), [&](int r) {
      return std::find(suspect.ranks.begin(), suspect.ranks.end(), r) != suspect.ranks.end();
    });
    const std::pair<bool, double> key{shares, std::abs(f.value - suspect.reference)};
    if (best == nullptr || key < best_key) {
      best = &f;
      best_key = key;
    }
  }
  return best == nullptr ? std::vector<int>{} : best->ranks;
}

}  // namespace

Verdict decide(const Measurements& m, const OutlierRule& rule) {
  Verdict v;
  std::set<int> named;
  const auto add = [&](LocateComparison c, bool names_ranks) {
    apply_rule(c, rule, names_ranks ? kMinArrivalFigures : kMinFigures);
    if (!names_ranks) apply_rechecks(c, m, rule);
    collect(c, v, names_ranks ? &named : nullptr);
    v.comparisons.push_back(std::move(c));
  };
  // Ranks first, from both phases, so that pairs and groups see every named rank.
  if (!m.arrivals.empty()) add(arrival_comparison(m), true);
  // Uplinks before the ranks' pairs: the ranks under a slow uplink are slow across it only.
  std::set<std::string> uplinks;
  if (UplinkComparison u = uplink_comparison(m, named, rule); !u.comparison.figures.empty()) {
    collect(u.comparison, v, nullptr);
    for (std::size_t i = 0; i < u.comparison.figures.size(); ++i) {
      if (u.comparison.figures[i].outlier) uplinks.insert(u.leaves[i].begin(), u.leaves[i].end());
    }
    v.comparisons.push_back(std::move(u.comparison));
  }
  Measurements without_uplinks;
  if (!uplinks.empty()) without_uplinks = without_uplink_pairs(m, uplinks);
  const Measurements& rest = uplinks.empty() ? m : without_uplinks;
  name_ranks_by_pairs(rest, rule, v, named);
  std::set<HostPair> named_links;
  if (LocateComparison links = link_comparison(rest, named); !links.figures.empty()) {
    add(std::move(links), false);
    for (const auto& f : v.comparisons.back().figures) {
      if (f.outlier) named_links.insert(std::minmax(f.hosts.front(), f.hosts.back()));
    }
  }
  for (bool inter : {false, true}) {
    const bool any = std::any_of(m.pairs.begin(), m.pairs.end(), [&](const auto& p) { return p.inter_host == inter; });
    if (any) add(pair_comparison(m, inter, named, named_links, uplinks), false);
  }
  for (GroupKind kind : {GroupKind::kHost, GroupKind::kRail}) {
    const bool any = std::any_of(m.groups.begin(), m.groups.end(),
                                 [&](const auto& g) { return g.kind == to_string(kind); });
    if (any) add(group_comparison(m, kind, named), false);
  }
  merge_links(v);
  name_whole_hosts(m, named, v);
  name_cpu_contention(m, v);
  const bool compared = std::any_of(v.comparisons.begin(), v.comparisons.end(),
                                    [](const auto& c) { return c.compared; });
  if (!v.findings.empty()) {
    v.verdict = report::LocateVerdict::kOutlier;
  } else {
    v.verdict = compared ? report::LocateVerdict::kNoOutlier : report::LocateVerdict::kNothingCompared;
  }
  return v;
}

double least_gap(const std::vector<double>& alone_gbps, const std::vector<double>& control_gbps) {
  const double usual = median_of(control_gbps);
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < alone_gbps.size() && i < control_gbps.size(); ++i) {
    const double c = control_gbps[i];
    if (c <= 0 || c < usual / 2) continue;
    least = std::min(least, (c - alone_gbps[i]) / c);
  }
  return std::isinf(least) ? 0 : least;
}

std::vector<Suspect> suspects(const Verdict& v) {
  std::vector<Suspect> out;
  const auto add = [&](Suspect s) {
    const bool seen = std::any_of(out.begin(), out.end(), [&](const Suspect& o) { return o.ranks == s.ranks; });
    if (!seen) out.push_back(std::move(s));
  };
  for (const auto& c : v.comparisons) {
    // Ranks are re-measured on their pairs (recheck_pairs below); an uplink is not re-measured.
    if (c.subject == "rank" || c.subject == "switch") continue;
    for (const auto& f : c.figures) {
      if (f.outlier) add({f.ranks, control_figure(c, f)});
    }
  }
  for (const auto& pair : v.recheck_pairs) add(pair);
  return out;
}

}  // namespace collbench::engine::locate
