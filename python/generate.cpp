// feerie.generate(): `feerie gen` for notebooks. The job runs without the GIL; after each
// pass it takes the GIL for a moment to look for a pending signal, so that Ctrl-C (or a
// notebook's "interrupt kernel") stops a long generation with KeyboardInterrupt.
#include "gen/generate.h"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gen/help_generate.h"
#include "gen/plan.h"
#include "python/bindings.h"
#include "python/errors.h"

namespace py = pybind11;

namespace feerie::python {

namespace {

py::dict table_summary(const GeneratedTable& t) {
  py::dict d;
  d["material"] = t.material.name();
  d["path"] = t.path;
  d["reused"] = t.reused;
  d["replaced_because"] = t.replaced_because.empty() ? py::object(py::none()) : py::str(t.replaced_because);
  d["seconds"] = t.seconds;
  d["file_bytes"] = t.file_bytes;
  d["entries"] = t.entries;
  return d;
}

py::dict help_table_summary(const GeneratedHelpTable& t) {
  py::dict d, paths, longest;
  d["material"] = t.material.name();
  for (Color mated : {WHITE, BLACK}) {
    const char* colour = mated == WHITE ? "white" : "black";
    paths[colour] = t.paths[mated];
    longest[colour] = t.longest_plies[mated] < 0 ? py::object(py::none()) : py::int_(t.longest_plies[mated]);
  }
  d["paths"] = paths;
  d["reused"] = t.reused;
  d["replaced_because"] = t.replaced_because.empty() ? py::object(py::none()) : py::str(t.replaced_because);
  d["seconds"] = t.seconds;
  d["entries"] = t.entries;
  d["longest_plies"] = longest;
  return d;
}

// Polled by a job after each pass (GenerateOptions::cancelled, HelpGenerateOptions'): takes
// the GIL for a moment and runs the pending signal handlers; the exception one of them
// raised (KeyboardInterrupt) is kept in `signalled`, to be raised again once the job has
// stopped, and stops the job.
std::function<bool()> watch_signals(std::optional<py::error_already_set>& signalled) {
  return [&signalled] {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() == 0) return false;
    signalled.emplace();  // takes the pending exception and clears it
    return true;
  };
}

// Helpmate or selfmate tables, stopped by a signal after a pass as direct-mate ones are.
py::list generate_help_tables(const std::string& directory, const Material& material, const RuleSet& rules,
                              StipulationKind kind, int threads, const MemoryLimit& limit) {
  HelpGenerateOptions options;
  options.kind = kind;
  options.tables_dir = directory;
  options.threads = threads;
  options.max_memory = limit.bytes;
  options.max_memory_source = limit.source;
  std::optional<py::error_already_set> signalled;
  options.cancelled = watch_signals(signalled);
  Expected<std::vector<GeneratedHelpTable>> done =
      without_gil([&] { return generate_helpmates({material}, rules, options); });
  if (signalled) throw *signalled;
  py::list tables;
  for (const GeneratedHelpTable& t : value_or_throw(std::move(done))) tables.append(help_table_summary(t));
  return tables;
}

py::list generate_tables(const std::filesystem::path& directory, const std::string& material_name,
                         const std::string& condition, std::optional<int> threads, const std::string& stipulation) {
  if (threads && (*threads < 0 || *threads > MaxThreads))
    throw py::value_error("threads must be None or 0 (all cores), or 1 to " + std::to_string(MaxThreads) + ", not " +
                          std::to_string(*threads));
  Expected<RuleSet> rules = RuleSet::parse(condition);
  if (!rules) throw Failure(ExceptionType::UnknownCondition, rules.error());
  Expected<Material> material = Material::parse(material_name);
  if (!material) throw Failure(ExceptionType::FeerieError, material.error());
  Expected<StipulationKind> kind = parse_stipulation_kind(stipulation);
  if (!kind) throw py::value_error(kind.error_message());
  // As `feerie gen` and feerie_generate() do: refuse at once a job larger than the memory available now.
  const MemoryLimit limit = default_memory_limit();
  if (*kind != StipulationKind::DirectMate)
    return generate_help_tables(directory.string(), *material, *rules, *kind, threads.value_or(0), limit);

  GenerateOptions options;
  options.tables_dir = directory.string();
  options.threads = threads.value_or(0);
  options.max_memory = limit.bytes;
  options.max_memory_source = limit.source;
  std::optional<py::error_already_set> signalled;
  options.cancelled = watch_signals(signalled);

  Expected<std::vector<GeneratedTable>> done = without_gil([&] { return generate({*material}, *rules, options); });
  if (signalled) throw *signalled;
  py::list tables;
  for (const GeneratedTable& t : value_or_throw(std::move(done))) tables.append(table_summary(t));
  return tables;
}

}  // namespace

void add_generate(py::module_& m) {
  m.def("generate", &generate_tables, py::arg("directory"), py::arg("material"), py::arg("condition") = "orthodox",
        py::arg("threads") = py::none(), py::arg("stipulation") = "#",
        "Generates the table of `material` ('KQvKR', docs/notation.md) and every table it depends on "
        "into <directory>/<condition>/, reusing the sound tables already there, as `feerie gen` does. "
        "`threads`: None for all cores. Blocks until done, without the GIL; Ctrl-C stops it with "
        "KeyboardInterrupt after the current pass. Returns one dict per table in solving order: "
        "material, path, reused (found on disk, not regenerated), replaced_because (why a file on disk "
        "was not trusted, or None), seconds (wall time spent on it), file_bytes, entries (positions "
        "per side to move). `stipulation`: '#' (direct mate), 'h#' (helpmate) or 's#' (selfmate) "
        "tables, as `feerie gen --stipulation`; for h# and s# each dict has paths and longest_plies "
        "(dicts by the colour mated, 'white' and 'black'; None: no mate) instead of path and "
        "file_bytes. Raises UnknownConditionError for an "
        "unknown condition, ValueError for an unknown stipulation, FeerieError with kind 'invalid "
        "argument' for a bad material name, 'resource limit' for a job larger than the memory "
        "available, 'I/O error' when a file cannot be written.");
}

}  // namespace feerie::python
