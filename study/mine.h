// Mining a table (the study tools issue): one pass over every position of a material,
// keeping the positions that pass the filters a problemist chooses — side to move,
// result, mate in N, a unique key, soundness as a direct mate, a value that differs
// under another condition, a reciprocal zugzwang — and, with a limit, a seeded random
// sample of them.
//
// Definitions (values from the point of view of the side to move, tablebase.h):
// - mate in N: the side to move wins and mates with its N-th move (N = ceil(plies / 2));
// - unique key: the side to move wins, and exactly one of its legal moves keeps the
//   shortest mate (a move that promotes counts once per promotion choice);
// - sound (every reply): a unique key, and after it, for every legal reply of the defender (not only
//   the best), exactly one move of the attacker keeps the shortest mate from the
//   position reached, and so on down to the mate, whose mating move is unique too. A
//   move that mates later than the shortest but still within the stipulation is not
//   counted as a dual.
// - sound (threat): a problemist's soundness, where only replies that stop every threat
//   are defences (study/threat_sound.h).
// - reciprocal zugzwang: one placement of the units, without an en-passant right, is a
//   legal position with either side to move, and each side does worse with the move than
//   it would with the other side to move (results win > draw > loss; the side to move
//   stalemated counts as a draw, as in Beasley's definition "Black to move loses, White
//   to move cannot win"). Because the results of the two positions are seen from
//   opposite sides, one side doing worse with the move is the other doing worse too:
//   every zugzwang of this kind is mutual. Full point: whoever moves loses. Half point:
//   one side draws with the move where it would win without it, and the other loses
//   with the move where it would draw. Each is one placement, reported once (with the
//   side to move the filter's `side`, White when none is given).
//
// The scan reads each entry of the table once, in index order, block by block; probes
// of the positions after moves go through a Tablebase (cached blocks). Each worker thread
// reads through its own Tablebase on the same directory, so that threads share no lock.
// Memory does not grow with the number of matches: without a limit each match is handed
// over as found, with a limit only the sample is kept.
//
// Thread-safety: mine() runs its own worker threads (OpenMP) and calls its callbacks on
// the calling thread, in scan order.
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "probe/material.h"
#include "probe/tablebase.h"
#include "rules/expected.h"
#include "rules/movegen.h"
#include "rules/position.h"

namespace feerie {

// How --differs-from compares two values.
enum class Difference {
  Value,   // the values differ: the result, or for a mate its distance in plies
  Result,  // the results (win/draw/loss) differ
};

// Which reciprocal zugzwangs --zugzwang keeps (see above).
enum class Zugzwang {
  Full,  // whoever moves loses
  Half,  // one side to move draws where it would win, the other loses where it would draw
  Any,   // either kind
};

// Which keys --key-flights keeps: every key gives a flight, takes one, or takes none.
enum class KeyFlightsWanted { Gives, Takes, NoneTaken };

struct MineFilter {
  std::optional<Color> side;  // the side to move
  std::optional<Wdl> result;  // for the side to move
  // Mate in N moves for the side to move with mate_min <= N <= mate_max (0: no bound).
  int mate_min = 0, mate_max = 0;
  // The side to move is mated in N moves (its own, the last the mating move's reply: a
  // loss in 2N plies) with mated_min <= N <= mated_max (0: no bound); a position already
  // mated is not "mated in N".
  int mated_min = 0, mated_max = 0;
  bool unique_key = false;
  bool sound = false;         // sound in the sense above: every reply is a defence
  bool sound_threat = false;  // a problemist's soundness (study/threat_sound.h)
  // Problem quality (study/problem_quality.h): the keys neither capture nor check; no
  // capture anywhere in the solution tree; every unit but the kings needed.
  bool quiet_key = false;
  bool no_capture = false;
  bool every_unit_needed = false;
  // Checks in the solution (study/problem_quality.h) with checks_min <= n <= checks_max
  // (checks_max < 0: no bound).
  int checks_min = 0, checks_max = -1;
  // What every key does to the defending king's flights (study/problem_quality.h).
  std::optional<KeyFlightsWanted> key_flights;
  // Units on the board, kings included, with units_min <= n <= units_max (0: no bound).
  int units_min = 0, units_max = 0;
  // Only positions with a mate to play: a win, or a loss where the side to move is not
  // yet mated (what a Popeye problem can state).
  bool mate_to_play = false;
  // Compare with the same positions under another condition (tables in the same
  // directory). A position illegal there counts as differing (MineMatch::other_value is
  // value::Illegal). When the other condition has fewer board symmetries, each image of a
  // stored position that it tells apart is compared, and each one that differs is a match.
  std::optional<Tablebase> differs_from;
  Difference difference = Difference::Value;
  // Under differs_from: only positions legal under the other condition too.
  bool legal_there = false;
  std::optional<Zugzwang> zugzwang;
  // Only positions whose pawns stand on ranks 2 to 7: the positions orthodox tablebases
  // hold (SPEC 1 makes a pawn on its first or last rank a position too).
  bool pawns_on_ranks_2_to_7 = false;

  // A mate range, a unique key, soundness or a filter on the solution asks for positions
  // the side to move wins.
  bool wants_win() const { return !win_filters().empty(); }
  // The filters given that ask for a win, in words for messages ("a mate, a quiet key").
  std::string win_filters() const {
    std::string out;
    auto add = [&out](bool given, const char* words) {
      if (given) out += (out.empty() ? "" : ", ") + std::string(words);
    };
    add(mate_min > 0 || mate_max > 0, "a mate");
    add(unique_key, "a unique key");
    add(sound, "soundness");
    add(sound_threat, "a sound threat");
    add(quiet_key, "a quiet key");
    add(no_capture, "no capture");
    add(every_unit_needed, "every unit needed");
    add(checks_min > 0 || checks_max >= 0, "a number of checks");
    add(key_flights.has_value(), "the key's flights");
    return out;
  }
  bool wants_loss() const { return mated_min > 0 || mated_max > 0; }
};

struct MineOptions {
  MineFilter filter;
  std::uint64_t limit = 0;  // 0: every match; else a uniform random sample of this size
  std::uint64_t seed = 0;   // the sample's seed: the same seed gives the same sample
  int threads = 0;          // 0: all cores
  // Called now and then with the share of entries scanned (0 to 1).
  std::function<void(double)> on_progress;
};

struct MineMatch {
  Position position;
  ValueCode value = value::Draw;  // for the side to move
  // The value under MineFilter::differs_from (value::Illegal: not a legal position
  // there), or value::Unknown when there is no comparison.
  ValueCode other_value = value::Unknown;
  // Under MineFilter::zugzwang: the value of the same placement with the other side to
  // move, for that side; value::Unknown otherwise.
  ValueCode other_side_value = value::Unknown;
};

struct MineReport {
  std::uint64_t entries = 0;  // index entries scanned (both sides to move)
  std::uint64_t matches = 0;  // every match, also those the sample left out
};

// Scans the table of `material` (either orientation: the other one is the stored table
// with colours exchanged) and calls `on_match` for each match in scan order (White to
// move first — with a zugzwang filter only the side asked for, White by default — then by index; each stored position
// stands for its symmetric images, which share its value), or with a limit for each match of the sample, in scan order
// once the scan is over. Errors: a missing or corrupt table (of `material`, of the
// materials its moves lead to, or under `differs_from`), a bad filter (InvalidArgument).
Expected<MineReport> mine(const Tablebase& tb, const Material& material, const MineOptions& options,
                          const std::function<void(const MineMatch&)>& on_match);

// The legal moves of `pos` that keep its value `v` (the keys of a win), with the positions
// they lead to, at most `stop_at` of them, in generation order.
Expected<std::vector<MoveResult>> keeping_moves(const Tablebase& tb, const Position& pos, ValueCode v,
                                                int stop_at = INT_MAX);
// The number of legal moves of `pos` that keep its value `v` (the moves best_moves()
// gives), counting at most `stop_at`. The first such move in generation order goes to
// `first` when given.
Expected<int> count_keeping_moves(const Tablebase& tb, const Position& pos, ValueCode v, int stop_at,
                                  Move* first = nullptr);
// The value of `after`, where the attacker is to move after a defence in the solution of
// `from`: a win in at most `max_plies` plies, as that solution promises, or a Corruption
// error naming both positions (the tables disagree with each other). Every reading of a
// solution (soundness of both kinds, the quality filters) steps through defences with it.
Expected<ValueCode> won_after_defence(const Tablebase& tb, const Position& from, const Position& after, int max_plies);
// True when `pos` is won for the side to move and exactly one move keeps its value.
Expected<bool> has_unique_key(const Tablebase& tb, const Position& pos);
// True when `pos` is a sound direct mate in the sense above.
Expected<bool> is_sound(const Tablebase& tb, const Position& pos);

}  // namespace feerie
