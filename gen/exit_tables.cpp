#include "gen/exit_tables.h"

#include <algorithm>

#include "gen/graph.h"
#include "probe/table_file.h"

namespace feerie {

Expected<ExitTables> ExitTables::load(const std::vector<const Indexer*>& members, const Tablebase& subtables,
                                      Tablebase::Reading reading, bool small_whole) {
  ExitTables out;
  for (const Indexer* member : members) out.members_.push_back(member->material());
  auto known = [](const std::vector<Material>& list, const Material& m) {
    return std::find(list.begin(), list.end(), m) != list.end();
  };
  std::vector<Material> loaded;
  for (const Material& own : out.members_)
    for (const Material& m : material_successors(own, subtables.rules())) {
      if (known(out.members_, m) || known(loaded, m)) continue;
      const bool small = small_whole && read_whole_instead_of_blocks(Indexer(m, subtables.rules()).size());
      Expected<std::shared_ptr<const Tablebase::LookupTable>> t =
          subtables.lookup_table(m, small ? Tablebase::Reading::Whole : reading);
      if (!t) return t.error();
      out.tables_.push_back(*t);
      loaded.push_back(m);
    }
  out.routes_.resize(out.members_.size());
  for (std::size_t member = 0; member < out.members_.size(); ++member) {
    const Material& own = out.members_[member];
    for (Color mover : {WHITE, BLACK})
      for (int code = 0; code < 64; ++code)
        for (int promotion = 0; promotion < PIECE_TYPE_NB; ++promotion) {
          Piece captured = Piece::from_code(std::uint8_t(code));
          Material m = own;
          if (!captured.empty()) {
            if (captured.type() >= PIECE_TYPE_NB || captured.color() != ~mover || captured.type() == KING ||
                captured.type() == NO_PIECE_TYPE || own.count(captured.color(), captured.type(), captured.magic()) == 0)
              continue;
            m.set_count(captured.color(), captured.type(), captured.magic(),
                        own.count(captured.color(), captured.type(), captured.magic()) - 1);
          }
          if (promotion != NO_PIECE_TYPE) {
            if (own.count(mover, PAWN) == 0 || promotion == PAWN || promotion == KING) continue;
            m.set_count(mover, PAWN, false, m.count(mover, PAWN) - 1);
            m.set_count(mover, PieceType(promotion), false, m.count(mover, PieceType(promotion)) + 1);
          }
          for (const auto& t : out.tables_)
            if (t->material() == m.canonical_orientation())
              out.routes_[member].route[mover][code][promotion] = {t.get(), !m.is_canonical_orientation()};
        }
  }
  return out;
}

namespace {

// The mover's value of a move whose successor's value was looked up (or the look-up's error).
Expected<ValueCode> through_move(Expected<ValueCode> successor) {
  if (!successor) return successor;
  return value_through_move(*successor);
}

}  // namespace

Expected<ValueCode> ExitTables::value(int member, const Position& after, Move m, const UndoRecord& undo) const {
  if (undo.change_count == 0 && !undo.moved.magic()) {
    const Route& route = routes_[std::size_t(member)].route[~after.side_to_move()][undo.captured.code()][m.promotion()];
    if (route.table) return through_move(route.table->value_code(after, route.flipped));
  } else {
    Material material = Material::of(after).canonical_orientation();
    for (const auto& t : tables_)
      if (t->material() == material) return through_move(t->value_code(after));
  }
  return error(ErrorKind::NotFound, "no sub-table " + Material::of(after).canonical_orientation().name() +
                                        " for a move out of " + members_[std::size_t(member)].name());
}

}  // namespace feerie
