// The C API (feerie/feerie.h) over the C++ Tablebase.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "feerie/feerie.h"
#include "probe/c_api_support.h"
#include "probe/help_tablebase.h"
#include "probe/stipulation.h"
#include "probe/tablebase.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "rules/text.h"

struct feerie_tablebase {
  feerie::Tablebase tb;
  // The helpmate and selfmate tables of the same directory and condition, each file opened
  // when first probed (feerie_probe_help).
  feerie::HelpTablebase helpmates;
  feerie::HelpTablebase selfmates;
};

namespace {

using feerie::c_api::fail;
using feerie::c_api::guarded;

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
  if (!out || text.size() + 1 > out_size) {
    if (out && out_size > 0) out[0] = '\0';  // no stale text for a caller that ignores the status
    return fail("move buffer too small (" + std::to_string(text.size() + 1) + " bytes needed)", error, error_size);
  }
  std::memcpy(out, text.c_str(), text.size() + 1);
  return 0;
}

// A probe result as the C API gives it.
feerie_result c_result(const feerie::ProbeResult& p) {
  return feerie_result{p.wdl == feerie::Wdl::Win ? 1 : p.wdl == feerie::Wdl::Loss ? -1 : 0, p.dtm_plies, p.mate_in()};
}

// The FEN of a piece list, so that a position given either way passes the same checks.
feerie::Expected<std::string> fen_of_pieces(const feerie_piece* pieces, std::size_t count, int white_to_move,
                                            int ep_square) {
  using feerie::ErrorKind;
  std::string board[64];
  if (white_to_move != 0 && white_to_move != 1)
    return feerie::error(ErrorKind::InvalidArgument,
                         "white_to_move is " + std::to_string(white_to_move) + ", not 1 (White) or 0 (Black)");
  for (std::size_t i = 0; i < count; ++i) {
    const feerie_piece& p = pieces[i];
    const char type = char(std::toupper(static_cast<unsigned char>(p.type)));
    if (p.square < 0 || p.square > 63)
      return feerie::error(ErrorKind::InvalidArgument,
                           "piece " + std::to_string(i) + ": square " + std::to_string(p.square) + " is not 0..63");
    if (std::string("KQRBNPGL").find(type) == std::string::npos || type == '\0')
      return feerie::error(ErrorKind::InvalidArgument, "piece " + std::to_string(i) + ": unknown type '" +
                                                           feerie::printable(std::string(1, p.type)) +
                                                           "' (K Q R B N P G L)");
    if ((p.white != 0 && p.white != 1) || (p.magic != 0 && p.magic != 1))
      return feerie::error(ErrorKind::InvalidArgument, "piece " + std::to_string(i) +
                                                           ": white and magic are 1 or 0, not " +
                                                           std::to_string(p.white) + " and " + std::to_string(p.magic));
    if (!board[p.square].empty())
      return feerie::error(ErrorKind::InvalidArgument, "two pieces on square " + std::to_string(p.square));
    board[p.square] = std::string(1, p.white ? type : char(std::tolower(type))) + (p.magic ? "*" : "");
  }
  if (ep_square < -1 || ep_square > 63)
    return feerie::error(ErrorKind::InvalidArgument,
                         "en-passant square " + std::to_string(ep_square) + " is not -1..63");
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const std::string& unit = board[8 * rank + file];
      if (unit.empty()) {
        ++empty;
        continue;
      }
      if (empty) fen += std::to_string(empty), empty = 0;
      fen += unit;
    }
    if (empty) fen += std::to_string(empty);
    if (rank) fen += '/';
  }
  fen += white_to_move ? " w - " : " b - ";
  fen += ep_square < 0 ? std::string("-") : std::string{char('a' + ep_square % 8), char('1' + ep_square / 8)};
  return fen + " 0 1";
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
    return new feerie_tablebase{feerie::Tablebase::open(directory, *rules),
                                feerie::HelpTablebase(*rules, directory, feerie::StipulationKind::Helpmate),
                                feerie::HelpTablebase(*rules, directory, feerie::StipulationKind::Selfmate)};
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
    *out = c_result(*r);
    return 0;
  });
}

int feerie_probe_help(feerie_tablebase* tb, const char* fen, const char* stipulation, const char* mated,
                      feerie_help_result* out, char* error, size_t error_size) {
  return guarded(error, error_size, int(FEERIE_ERROR_INTERNAL), [&]() -> int {
    if (!tb || !stipulation || !out) return fail("no table handle, stipulation or result given", error, error_size);
    feerie::Expected<feerie::StipulationKind> kind = feerie::parse_stipulation_kind(stipulation);
    if (!kind) return fail(kind.error(), error, error_size);
    if (*kind == feerie::StipulationKind::DirectMate)
      return fail("feerie_probe_help reads h# and s# tables; direct mates are feerie_probe's", error, error_size);
    // NULL asks for the default colour.
    feerie::Expected<feerie::Color> colour =
        feerie::parse_mated_colour(mated ? std::optional<std::string_view>(mated) : std::nullopt, *kind);
    if (!colour)
      return fail("the mated side is \"white\", \"black\" or NULL, not '" + feerie::printable_excerpt(mated, 40) + "'",
                  error, error_size);
    const feerie::HelpTablebase& help = *kind == feerie::StipulationKind::Helpmate ? tb->helpmates : tb->selfmates;
    feerie::Expected<feerie::Position> pos = legal_position(tb, fen);
    if (!pos) return fail(pos.error(), error, error_size);
    feerie::Expected<feerie::HelpEntry> e = help.entry(*pos, *colour);
    if (!e) return fail(e.error(), error, error_size);
    const bool mate = feerie::value::is_mate(e->plies);
    *out = feerie_help_result{mate ? feerie::value::plies(e->plies) : -1,
                              mate && *kind == feerie::StipulationKind::Helpmate ? e->solutions : 0};
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

const char* feerie_version(void) { return FEERIE_VERSION_STRING; }

int feerie_probe_wdl(feerie_tablebase* tb, const char* fen, int* wdl, char* error, size_t error_size) {
  feerie_result r;
  int status = feerie_probe(tb, fen, wdl ? &r : nullptr, error, error_size);
  if (status == FEERIE_OK) *wdl = r.wdl;
  return status;
}

int feerie_probe_pieces(feerie_tablebase* tb, const feerie_piece* pieces, size_t count, int white_to_move,
                        int ep_square, feerie_result* out, char* error, size_t error_size) {
  return guarded(error, error_size, int(FEERIE_ERROR_INTERNAL), [&]() -> int {
    if (!pieces && count) return fail("no piece list given", error, error_size);
    feerie::Expected<std::string> fen = fen_of_pieces(pieces, count, white_to_move, ep_square);
    if (!fen) return fail(fen.error(), error, error_size);
    return feerie_probe(tb, fen->c_str(), out, error, error_size);
  });
}

int feerie_move_values(feerie_tablebase* tb, const char* fen, feerie_move_value* out, size_t capacity, size_t* count,
                       char* error, size_t error_size) {
  return guarded(error, error_size, int(FEERIE_ERROR_INTERNAL), [&]() -> int {
    if (!tb || !count || (!out && capacity))
      return fail("no table handle, result buffer or count given", error, error_size);
    feerie::Expected<feerie::Position> pos = legal_position(tb, fen);
    if (!pos) return fail(pos.error(), error, error_size);
    feerie::Expected<std::vector<feerie::MoveValue>> values = tb->tb.move_values(*pos);
    if (!values) return fail(values.error(), error, error_size);
    *count = values->size();
    if (values->size() > capacity)
      return fail("move value buffer too small (" + std::to_string(values->size()) + " entries needed)", error,
                  error_size);
    for (std::size_t i = 0; i < values->size(); ++i) {
      const feerie::MoveValue& mv = (*values)[i];
      std::string name = feerie::to_uci(mv.move);
      std::memset(out[i].move, 0, sizeof out[i].move);
      std::memcpy(out[i].move, name.data(), std::min(name.size(), sizeof out[i].move - 1));
      out[i].value = c_result(feerie::ProbeResult::of(mv.value));
      out[i].checkmate = mv.checkmate;
      out[i].stalemate = mv.stalemate;
    }
    return FEERIE_OK;
  });
}

int feerie_list_tables(feerie_tablebase* tb, char* names, size_t names_size, char* error, size_t error_size) {
  return guarded(error, error_size, int(FEERIE_ERROR_INTERNAL), [&]() -> int {
    if (!tb) return fail("no table handle given", error, error_size);
    feerie::Expected<std::vector<feerie::Material>> tables = tb->tb.tables_on_disk();
    if (!tables) return fail(tables.error(), error, error_size);
    std::string text;
    for (const feerie::Material& m : *tables) {
      if (!text.empty()) text += ' ';
      text += m.name();
    }
    if (!names || text.size() + 1 > names_size) {
      if (names && names_size > 0) names[0] = '\0';
      return fail("name buffer too small (" + std::to_string(text.size() + 1) + " bytes needed)", error, error_size);
    }
    std::memcpy(names, text.c_str(), text.size() + 1);
    return FEERIE_OK;
  });
}

}  // extern "C"
