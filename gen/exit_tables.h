// The tables the moves out of a component lead to (gen/solver.h): every material reached by
// a capture, a promotion or a mutation that is not a member, read whole into memory once
// for lock-free look-ups or read through their compressed blocks (Tablebase::Reading: the
// plan chooses; small tables are read whole either way, read_whole_instead_of_blocks()),
// with a route per member and (mover, captured unit, promotion of an ordinary pawn) to the
// table holding the result and its orientation.
#pragma once

#include <memory>
#include <vector>

#include "probe/indexer.h"
#include "probe/tablebase.h"
#include "rules/expected.h"
#include "rules/move.h"

namespace feerie {

class ExitTables {
 public:
  // Reads the tables of every material a move of `members` leads to outside them from
  // `subtables` (missing ones are an error), each as `reading` says, or whole when
  // `small_whole` and read_whole_instead_of_blocks() says so.
  static Expected<ExitTables> load(const std::vector<const Indexer*>& members, const Tablebase& subtables,
                                   Tablebase::Reading reading, bool small_whole);

  // The value, for the mover, of move `m` (`undo` its record; `after` the position it
  // made) from a position of member `member`, leaving the component: found by the unit it
  // captured and its promotion, or by the material after it when mutations changed units
  // or a magic pawn promoted. NotFound when no table was read for it; Corruption when a
  // table read through its blocks has a bad block there.
  Expected<ValueCode> value(int member, const Position& after, Move m, const UndoRecord& undo) const;

 private:
  struct Route {
    const Tablebase::LookupTable* table = nullptr;
    bool flipped = false;
  };
  // Per member: [mover][captured Piece::code()][promotion type]
  struct Routes {
    Route route[COLOR_NB][64][PIECE_TYPE_NB] = {};
  };
  std::vector<Material> members_;
  std::vector<std::shared_ptr<const Tablebase::LookupTable>> tables_;
  std::vector<Routes> routes_;
};

}  // namespace feerie
