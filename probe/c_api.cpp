// The C API (feerie/feerie.h) over the C++ Tablebase.
#include <cstring>
#include <string>
#include <utility>

#include "feerie/feerie.h"
#include "feerie/tablebase.h"
#include "rules/fen.h"
#include "rules/movegen.h"

struct feerie_tablebase {
  feerie::Tablebase tb;
};

namespace {

// The C API's return value for an error of `kind` (feerie.h, feerie_status).
int status_of(feerie::ErrorKind kind) {
  switch (kind) {
    case feerie::ErrorKind::Internal: return FEERIE_ERROR_INTERNAL;
    case feerie::ErrorKind::InvalidArgument: return FEERIE_ERROR_INVALID_ARGUMENT;
    case feerie::ErrorKind::NotFound: return FEERIE_ERROR_NOT_FOUND;
    case feerie::ErrorKind::Corruption: return FEERIE_ERROR_CORRUPT;
    case feerie::ErrorKind::IOError: return FEERIE_ERROR_IO;
    case feerie::ErrorKind::NotSupported: return FEERIE_ERROR_NOT_SUPPORTED;
    case feerie::ErrorKind::ResourceLimit: return FEERIE_ERROR_RESOURCE_LIMIT;
    case feerie::ErrorKind::Interrupted: return FEERIE_ERROR_INTERRUPTED;
  }
  return FEERIE_ERROR_INTERNAL;
}

int fail(const feerie::Error& e, char* error, size_t error_size) {
  if (error && error_size > 0) {
    size_t n = std::min(e.message.size(), error_size - 1);
    std::memcpy(error, e.message.data(), n);
    error[n] = '\0';
  }
  return status_of(e.kind);
}

int fail(const std::string& message, char* error, size_t error_size,
         feerie::ErrorKind kind = feerie::ErrorKind::InvalidArgument) {
  return fail(feerie::error(kind, message), error, error_size);
}

feerie::Expected<feerie::Position> legal_position(const feerie_tablebase* tb, const char* fen) {
  if (!fen) return feerie::error(feerie::ErrorKind::InvalidArgument, "no FEN given");
  return feerie::parse_legal_position(fen, tb->tb.rules());
}

int write_moves(const feerie::Expected<std::vector<feerie::Move>>& moves, char* out, size_t out_size, char* error,
                size_t error_size) {
  if (!moves) return fail(moves.error(), error, error_size);
  std::string text;
  for (feerie::Move m : *moves) {
    if (!text.empty()) text += ' ';
    text += feerie::to_uci(m);
  }
  if (!out || text.size() + 1 > out_size)
    return fail("move buffer too small (" + std::to_string(text.size() + 1) + " bytes needed)", error, error_size);
  std::memcpy(out, text.c_str(), text.size() + 1);
  return 0;
}

// No C++ exception may cross into a C caller: any one (bad_alloc, a filesystem error)
// becomes an error return with its message.
template <class F>
auto guarded(char* error, size_t error_size, decltype(std::declval<F>()()) on_error, F&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    fail(std::string("internal error: ") + e.what(), error, error_size, feerie::ErrorKind::Internal);
  } catch (...) {
    fail("internal error", error, error_size, feerie::ErrorKind::Internal);
  }
  return on_error;
}

}  // namespace

extern "C" {

feerie_tablebase* feerie_open(const char* directory, const char* condition, char* error, size_t error_size) {
  return guarded(error, error_size, static_cast<feerie_tablebase*>(nullptr), [&]() -> feerie_tablebase* {
  if (!directory || !condition) {
    fail("no directory or condition given", error, error_size);
    return nullptr;
  }
  feerie::Expected<feerie::RuleSet> rules = feerie::RuleSet::parse(condition);
  if (!rules) {
    fail(rules.error(), error, error_size);
    return nullptr;
  }
  return new feerie_tablebase{feerie::Tablebase::open(directory, *rules)};
  });
}

void feerie_close(feerie_tablebase* tb) { delete tb; }

int feerie_probe(feerie_tablebase* tb, const char* fen, feerie_result* out, char* error, size_t error_size) {
  return guarded(error, error_size, int(FEERIE_ERROR_INTERNAL), [&]() -> int {
  if (!tb || !out) return fail("no table handle or result given", error, error_size);
  feerie::Expected<feerie::Position> pos = legal_position(tb, fen);
  if (!pos) return fail(pos.error(), error, error_size);
  feerie::Expected<feerie::ProbeResult> r = tb->tb.probe(*pos);
  if (!r) return fail(r.error(), error, error_size);
  out->wdl = r->wdl == feerie::Wdl::Win ? 1 : r->wdl == feerie::Wdl::Loss ? -1 : 0;
  out->dtm_plies = r->dtm_plies;
  out->mate_in = r->mate_in();
  return 0;
  });
}

int feerie_best_moves(feerie_tablebase* tb, const char* fen, char* moves, size_t moves_size, char* error,
                      size_t error_size) {
  return guarded(error, error_size, int(FEERIE_ERROR_INTERNAL), [&]() -> int {
  if (!tb) return fail("no table handle given", error, error_size);
  feerie::Expected<feerie::Position> pos = legal_position(tb, fen);
  if (!pos) return fail(pos.error(), error, error_size);
  return write_moves(tb->tb.best_moves(*pos), moves, moves_size, error, error_size);
  });
}

int feerie_principal_variation(feerie_tablebase* tb, const char* fen, char* moves, size_t moves_size, char* error,
                               size_t error_size) {
  return guarded(error, error_size, int(FEERIE_ERROR_INTERNAL), [&]() -> int {
  if (!tb) return fail("no table handle given", error, error_size);
  feerie::Expected<feerie::Position> pos = legal_position(tb, fen);
  if (!pos) return fail(pos.error(), error, error_size);
  return write_moves(tb->tb.principal_variation(*pos), moves, moves_size, error, error_size);
  });
}

}  // extern "C"
