#include "bench/cli/commands/topo_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "bench/cli/wiring/adapter_registry.hpp"
#include "bench/cli/wiring/host_topology.hpp"
#include "bench/cli/wiring/launch_env.hpp"
#include "bench/cli/wiring/session.hpp"
#include "bench/cli/wiring/wiring.hpp"
#include "report/documents/atomic_file.hpp"
#include "topo/analysis.hpp"
#include "topo/compare.hpp"
#include "topo/discover.hpp"
#include "topo/format.hpp"
#include "topo/host_info.hpp"
#include "topo/json.hpp"

namespace collbench::cli {
namespace {

// topo's output formats: one row each (docs/architecture.md, "Adding an output format").
struct TopoFormat {
  std::string_view name;
  std::string (*render)(const topo::Topology&, const topo::Analysis&);
  bool machine_readable;  // a comparison of hosts goes to stderr, not into the document
};

constexpr std::array kFormats = {
    TopoFormat{"text", topo::format_text, false},
    TopoFormat{"json", [](const topo::Topology& t, const topo::Analysis& a) { return topo::topology_to_json(t, &a); },
               true},
    TopoFormat{"dot", topo::format_dot, true},
    TopoFormat{"matrix", topo::format_matrix, false},
};

const TopoFormat& format_of(const std::string& name) {
  for (const auto& f : kFormats) {
    if (f.name == name) return f;
  }
  return kFormats.front();  // check_topo_flags refused any other name
}

std::string format_names() {
  std::string names;
  for (const auto& f : kFormats) names += (names.empty() ? "" : ", ") + std::string(f.name);
  return names;
}

std::string render(const topo::Topology& t, const std::string& format) {
  return format_of(format).render(t, topo::analyze(t));
}

// Several hosts in JSON: an array of their topology documents, in rank order of the hosts.
std::string render_all(const std::vector<topo::Topology>& all, const std::string& format) {
  if (all.size() == 1 || format != "json") return render(all.front(), format);
  std::string out = "[\n";
  for (std::size_t i = 0; i < all.size(); ++i) out += (i ? ",\n" : "") + render(all[i], format);
  return out + "]\n";
}

// Pipes `input` through `dot -Tsvg -o path`, without a shell.
Status render_svg(const std::string& dot_source, const std::string& path) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return Status::error(ErrorCode::kIo, std::string("--svg: pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[0], STDIN_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    execlp("dot", "dot", "-Tsvg", "-o", path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(pipe_fds[0]);
  std::size_t written = 0;
  while (written < dot_source.size()) {
    const ssize_t n = write(pipe_fds[1], dot_source.data() + written, dot_source.size() - written);
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  close(pipe_fds[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    return Status::error(ErrorCode::kUnsupported,
                         "--svg: Graphviz 'dot' is not installed (Debian: apt-get install graphviz); "
                         "--format dot writes the picture's source");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Status::error(ErrorCode::kIo, "--svg: dot failed to write " + path);
  }
  return ok_status();
}

Status emit(const TopoCommand& cmd, const std::vector<topo::Topology>& all, const std::string& comparison) {
  const topo::Topology& first = all.front();
  const std::string text = render_all(all, cmd.format);
  if (cmd.output.empty()) {
    std::cout << text;
    if (!comparison.empty()) (format_of(cmd.format).machine_readable ? std::cerr : std::cout) << "\n" << comparison;
  } else {
    COLLBENCH_ASSIGN_OR_RETURN(const std::string path, report::choose_output_path(cmd.output, cmd.force));
    COLLBENCH_RETURN_IF_ERROR(report::write_file_atomically(path, text));
    std::cout << comparison << "# topology written to " << path << "\n";
  }
  if (!cmd.svg.empty()) {
    const topo::Analysis analysis = topo::analyze(first);
    COLLBENCH_RETURN_IF_ERROR(render_svg(topo::format_dot(first, analysis), cmd.svg));
    std::cout << "# picture written to " << cmd.svg << "\n";
  }
  return ok_status();
}

// Prints the first topology and, with several, how the others differ (exit 11 when they do).
Status show(const TopoCommand& cmd, const std::vector<topo::Topology>& all) {
  std::string comparison;
  bool differ = false;
  if (all.size() > 1) {
    const topo::Comparison c = topo::compare_hosts(all);
    comparison = topo::format_comparison(c, all);
    differ = !c.all_identical();
  }
  COLLBENCH_RETURN_IF_ERROR(emit(cmd, all, comparison));
  if (differ) return Status::error(ErrorCode::kMismatch, "the hosts' topologies differ (see above)");
  return ok_status();
}

Result<std::vector<topo::Topology>> from_files(const std::vector<std::string>& inputs) {
  std::vector<topo::Topology> all;
  for (const auto& path : inputs) {
    auto t = topo::load_topology_file(path);
    if (!t.ok()) return t.status();
    all.push_back(std::move(t).value());
  }
  return all;
}

}  // namespace

void add_topo_flags(CLI::App& app, TopoCommand& cmd) {
  app.add_option("-i,--input", cmd.inputs,
                 "Topology file(s) instead of this machine: hwloc XML, NCCL topology XML (NCCL_TOPO_FILE) or collbench "
                 "JSON; several are compared");
  app.add_option("--format", cmd.format,
                 "text (nvidia-smi style matrix, affinity, NICs, binding advice), json (an array, one document per "
                 "host, under a launcher), dot, matrix")
      ->capture_default_str();
  app.add_option("-o,--output", cmd.output, "Write to this file instead of stdout");
  app.add_flag("--force", cmd.force, "Overwrite an existing -o file");
  app.add_option("--svg", cmd.svg, "Also render the PCI/NUMA picture as SVG (needs Graphviz dot)");
  app.add_option("--bootstrap", cmd.bootstrap, "Under a launcher: " + bootstrap_flag_help())->capture_default_str();
}

Status check_topo_flags(const TopoCommand& cmd) {
  for (const auto& f : kFormats) {
    if (cmd.format == f.name) return ok_status();
  }
  return Status::error(ErrorCode::kUsage,
                       "--format: unknown value '" + cmd.format + "' (expected " + format_names() + ")");
}

CommandResult topo_command(const TopoCommand& cmd) {
  CommandResult result = CommandResult::from_launcher(topo::host_name());
  if (!cmd.inputs.empty()) {
    auto all = from_files(cmd.inputs);
    result.status = all.ok() ? show(cmd, *all) : all.status();
    return result;
  }
  Wiring wiring;
  wiring.set_rendezvous(kDefaultRendezvousTimeoutS, 0);
  auto boot = wiring.make_bootstrap(cmd.bootstrap, read_launch_env());
  if (!boot.ok()) return result.with(boot.status(), true);
  result.rank = (*boot)->rank();
  result.nranks = (*boot)->size();
  std::vector<std::string> failures;
  auto hosts = gather_host_topologies(**boot, result.host, failures);
  if (!hosts.ok()) return result.with(hosts.status(), true);
  if ((*boot)->rank() != 0) return result;
  for (const auto& f : failures) std::cerr << "collbench: topology discovery failed on " << f << "\n";
  if (hosts->empty()) {
    result.status = Status::error(ErrorCode::kUnsupported,
                                  failures.empty() ? "no topology discovered" : failures.front());
    return result;
  }
  std::vector<topo::Topology> all;
  for (auto& h : *hosts) all.push_back(std::move(h.model));
  result.status = show(cmd, all);
  return result;
}

}  // namespace collbench::cli
