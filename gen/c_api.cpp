// The generator's function of the C API (feerie/feerie.h): feerie_generate.
#include "feerie/feerie.h"
#include "gen/generate.h"
#include "gen/plan.h"
#include "probe/c_api_support.h"

extern "C" int feerie_generate(const char* directory, const char* condition, const char* material, int threads,
                               char* error, size_t error_size) {
  using feerie::c_api::fail;
  return feerie::c_api::guarded(error, error_size, int(FEERIE_ERROR_INTERNAL), [&]() -> int {
    if (!directory || !condition || !material)
      return fail("no directory, condition or material given", error, error_size);
    feerie::Expected<feerie::RuleSet> rules = feerie::RuleSet::parse(condition);
    if (!rules) return fail(rules.error(), error, error_size);
    feerie::Expected<feerie::Material> m = feerie::Material::parse(material);
    if (!m) return fail(m.error(), error, error_size);
    feerie::GenerateOptions options;
    options.tables_dir = directory;
    options.threads = threads;
    // As `feerie gen` does: refuse at once what would not fit in the memory available now.
    const feerie::MemoryLimit limit = feerie::default_memory_limit();
    options.max_memory = limit.bytes;
    options.max_memory_source = limit.source;
    feerie::Expected<std::vector<feerie::GeneratedTable>> done = feerie::generate({*m}, *rules, options);
    if (!done) return fail(done.error(), error, error_size);
    return FEERIE_OK;
  });
}
