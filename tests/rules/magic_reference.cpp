// Independent, deliberately slow reference move generator for magic pieces (SPEC 3.5).
// See magic_reference.h. Plain 64-square array, moves found by walking directions,
// each move applied to a copy, mutations found by comparing adjacency before/after,
// legality by scanning every enemy ordinary unit for a capture of the own king.
#include "tests/rules/magic_reference.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace feerie::test::magic_reference {
namespace {

constexpr int kWhite = 0;
constexpr int kBlack = 1;

struct Unit {
  char type = 0;  // 0 = empty, else upper case K Q R B N P G L
  int color = kWhite;
  bool magic = false;
};

struct Pos {
  std::array<Unit, 64> sq{};  // index = rank * 8 + file, rank 0 = rank "1"
  int side = kWhite;          // side to move
  int ep = -1;                // usable en-passant square, or -1
};

struct Mv {
  int from = 0;
  int to = 0;
  int cap = -1;    // square of the captured unit, -1 if none
  char promo = 0;  // upper-case promotion type, 0 if none
  bool dbl = false;
};

int file_of(int s) { return s % 8; }
int rank_of(int s) { return s / 8; }
bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }
int sq_of(int f, int r) { return r * 8 + f; }

// Rank counted from the owner's side: 0 = own first rank, 7 = own last rank.
int rel_rank(int s, int color) { return color == kWhite ? rank_of(s) : 7 - rank_of(s); }
int forward(int color) { return color == kWhite ? 1 : -1; }

bool adjacent(int a, int b) {
  int df = std::abs(file_of(a) - file_of(b));
  int dr = std::abs(rank_of(a) - rank_of(b));
  return std::max(df, dr) == 1;
}

const int kQueenDirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
const int kKnightJumps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

std::string square_name(int s) {
  std::string r;
  r += static_cast<char>('a' + file_of(s));
  r += static_cast<char>('1' + rank_of(s));
  return r;
}

// A unit that an ordinary enemy unit may capture in a move (kings are never taken by a
// move: such a position would already be illegal).
bool capturable_by(const Unit& u, int mover_color) {
  return u.type != 0 && u.color != mover_color && !u.magic && u.type != 'K';
}

bool board_has_type(const Pos& p, char t) {
  for (const Unit& u : p.sq)
    if (u.type == t) return true;
  return false;
}

// ---------------------------------------------------------------- en passant

// `ep` is usable for p.side: on the right rank, empty, an ordinary enemy pawn just in
// front of it (the one that double-stepped), and an ordinary pawn of the side to move
// that could capture onto it diagonally.
bool ep_usable(const Pos& p, int ep) {
  if (ep < 0 || ep >= 64) return false;
  int us = p.side;
  int them = 1 - us;
  if (rel_rank(ep, us) != 5) return false;
  if (p.sq[ep].type != 0) return false;
  int pushed = ep - 8 * forward(us);  // square of the double-stepped enemy pawn
  const Unit& victim = p.sq[pushed];
  if (!(victim.type == 'P' && victim.color == them && !victim.magic)) return false;
  for (int df : {-1, 1}) {
    int f = file_of(pushed) + df;
    if (!on_board(f, rank_of(pushed))) continue;
    const Unit& c = p.sq[sq_of(f, rank_of(pushed))];
    if (c.type == 'P' && c.color == us && !c.magic) return true;
  }
  return false;
}

// ---------------------------------------------------------------- FEN

std::vector<std::string> split_ws(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

Pos parse_fen(const std::string& fen) {
  auto bad = [&](const std::string& why) {
    throw std::invalid_argument("magic_reference: bad FEN '" + fen + "': " + why);
  };
  std::vector<std::string> f = split_ws(fen);
  if (f.size() != 4 && f.size() != 6) bad("expected 4 or 6 fields");
  Pos p;
  int rank = 7, file = 0;
  const std::string& pl = f[0];
  for (std::size_t i = 0; i < pl.size(); ++i) {
    char c = pl[i];
    if (c == '/') {
      if (file != 8) bad("rank does not have 8 squares");
      if (rank == 0) bad("too many ranks");
      --rank;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) bad("rank too long");
    } else {
      char up = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
      if (std::string("KQRBNPGL").find(up) == std::string::npos || up == 0) bad("unknown letter");
      if (file >= 8) bad("rank too long");
      Unit u;
      u.type = up;
      u.color = (c >= 'a' && c <= 'z') ? kBlack : kWhite;
      if (i + 1 < pl.size() && pl[i + 1] == '*') {
        if (up == 'K') bad("a king cannot be magic");
        u.magic = true;
        ++i;
      }
      p.sq[sq_of(file, rank)] = u;
      ++file;
    }
  }
  if (rank != 0 || file != 8) bad("placement does not have 8 full ranks");
  if (f[1] == "w")
    p.side = kWhite;
  else if (f[1] == "b")
    p.side = kBlack;
  else
    bad("side to move");
  if (f[2] != "-") bad("castling field must be '-'");
  if (f[3] != "-") {
    if (f[3].size() != 2 || f[3][0] < 'a' || f[3][0] > 'h' || f[3][1] < '1' || f[3][1] > '8') bad("en-passant field");
    int e = sq_of(f[3][0] - 'a', f[3][1] - '1');
    p.ep = ep_usable(p, e) ? e : -1;
  }
  if (f.size() == 6 && (!all_digits(f[4]) || !all_digits(f[5]))) bad("move counters");
  int kings[2] = {0, 0};
  for (const Unit& u : p.sq)
    if (u.type == 'K') ++kings[u.color];
  if (kings[0] != 1 || kings[1] != 1) bad("need exactly one king per side");
  return p;
}

std::string to_fen(const Pos& p) {
  std::string s;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      const Unit& u = p.sq[sq_of(f, r)];
      if (u.type == 0) {
        ++empty;
        continue;
      }
      if (empty) s += static_cast<char>('0' + empty);
      empty = 0;
      s += u.color == kWhite ? u.type : static_cast<char>(u.type - 'A' + 'a');
      if (u.magic) s += '*';
    }
    if (empty) s += static_cast<char>('0' + empty);
    if (r) s += '/';
  }
  s += p.side == kWhite ? " w - " : " b - ";
  s += p.ep >= 0 ? square_name(p.ep) : std::string("-");
  s += " 0 1";
  return s;
}

// ---------------------------------------------------------------- attack (check)

// Does the ordinary unit on `from` capture on `target` by its walk?
bool unit_attacks(const Pos& p, int from, int target) {
  const Unit& u = p.sq[from];
  if (u.type == 0 || u.magic || from == target) return false;
  int ff = file_of(from), fr = rank_of(from);
  int tf = file_of(target), tr = rank_of(target);
  int df = tf - ff, dr = tr - fr;
  switch (u.type) {
    case 'K':
      return adjacent(from, target);
    case 'N':
      return (std::abs(df) == 1 && std::abs(dr) == 2) || (std::abs(df) == 2 && std::abs(dr) == 1);
    case 'P': {
      if (rel_rank(from, u.color) == 0) return false;  // a pawn on its first rank observes nothing
      return dr == forward(u.color) && std::abs(df) == 1;
    }
    default:
      break;
  }
  // Line walkers: Q R B G L. Walk each queen direction from `from`.
  for (const auto& d : kQueenDirs) {
    bool diag = d[0] != 0 && d[1] != 0;
    if (u.type == 'R' && diag) continue;
    if (u.type == 'B' && !diag) continue;
    int f = ff + d[0], r = fr + d[1];
    while (on_board(f, r) && p.sq[sq_of(f, r)].type == 0) {
      f += d[0];
      r += d[1];
    }
    if (!on_board(f, r)) continue;
    int first = sq_of(f, r);  // first unit met
    if (u.type == 'Q' || u.type == 'R' || u.type == 'B') {
      if (first == target) return true;
    } else if (u.type == 'G') {
      int lf = f + d[0], lr = r + d[1];
      if (on_board(lf, lr) && sq_of(lf, lr) == target) return true;
    } else if (u.type == 'L') {
      int lf = f + d[0], lr = r + d[1];
      if (first == target && on_board(lf, lr) && p.sq[sq_of(lf, lr)].type == 0) return true;
    }
  }
  return false;
}

bool in_check(const Pos& p, int color) {
  int king = -1;
  for (int s = 0; s < 64; ++s)
    if (p.sq[s].type == 'K' && p.sq[s].color == color) king = s;
  if (king < 0) return false;
  for (int s = 0; s < 64; ++s) {
    const Unit& u = p.sq[s];
    if (u.type != 0 && u.color != color && !u.magic && unit_attacks(p, s, king)) return true;
  }
  return false;
}

// ---------------------------------------------------------------- pseudo-legal moves

void add_pawn_move(const Pos& p, std::vector<Mv>& out, int from, int to, int cap, bool dbl) {
  const Unit& u = p.sq[from];
  if (rel_rank(to, u.color) == 7) {
    std::string choices = "QRBN";
    if (board_has_type(p, 'G')) choices += 'G';
    if (board_has_type(p, 'L')) choices += 'L';
    for (char c : choices) out.push_back(Mv{from, to, cap, c, false});
  } else {
    out.push_back(Mv{from, to, cap, 0, dbl});
  }
}

std::vector<Mv> pseudo_moves(const Pos& p) {
  std::vector<Mv> out;
  int us = p.side;
  for (int from = 0; from < 64; ++from) {
    const Unit& u = p.sq[from];
    if (u.type == 0 || u.color != us) continue;
    int ff = file_of(from), fr = rank_of(from);
    auto step_to = [&](int to) {
      const Unit& t = p.sq[to];
      if (t.type == 0)
        out.push_back(Mv{from, to, -1, 0, false});
      else if (!u.magic && capturable_by(t, us))
        out.push_back(Mv{from, to, to, 0, false});
    };
    switch (u.type) {
      case 'K':
        for (const auto& d : kQueenDirs)
          if (on_board(ff + d[0], fr + d[1])) step_to(sq_of(ff + d[0], fr + d[1]));
        break;
      case 'N':
        for (const auto& d : kKnightJumps)
          if (on_board(ff + d[0], fr + d[1])) step_to(sq_of(ff + d[0], fr + d[1]));
        break;
      case 'Q':
      case 'R':
      case 'B':
        for (const auto& d : kQueenDirs) {
          bool diag = d[0] != 0 && d[1] != 0;
          if (u.type == 'R' && diag) continue;
          if (u.type == 'B' && !diag) continue;
          int f = ff + d[0], r = fr + d[1];
          while (on_board(f, r)) {
            int to = sq_of(f, r);
            step_to(to);
            if (p.sq[to].type != 0) break;
            f += d[0];
            r += d[1];
          }
        }
        break;
      case 'G':
        for (const auto& d : kQueenDirs) {
          int f = ff + d[0], r = fr + d[1];
          while (on_board(f, r) && p.sq[sq_of(f, r)].type == 0) {
            f += d[0];
            r += d[1];
          }
          if (!on_board(f, r)) continue;  // no hurdle
          int lf = f + d[0], lr = r + d[1];
          if (!on_board(lf, lr)) continue;
          step_to(sq_of(lf, lr));
        }
        break;
      case 'L':
        if (u.magic) break;  // a magic locust can never capture, so has no move
        for (const auto& d : kQueenDirs) {
          int f = ff + d[0], r = fr + d[1];
          while (on_board(f, r) && p.sq[sq_of(f, r)].type == 0) {
            f += d[0];
            r += d[1];
          }
          if (!on_board(f, r)) continue;
          int victim = sq_of(f, r);
          if (!capturable_by(p.sq[victim], us)) continue;
          int lf = f + d[0], lr = r + d[1];
          if (!on_board(lf, lr) || p.sq[sq_of(lf, lr)].type != 0) continue;
          out.push_back(Mv{from, sq_of(lf, lr), victim, 0, false});
        }
        break;
      case 'P': {
        int rr = rel_rank(from, us);
        if (rr == 0 || rr == 7) break;  // first rank: no move; last rank: no move
        int fw = forward(us);
        int one = sq_of(ff, fr + fw);
        if (p.sq[one].type == 0) {
          add_pawn_move(p, out, from, one, -1, false);
          if (rr == 1) {
            int two = sq_of(ff, fr + 2 * fw);
            if (p.sq[two].type == 0) add_pawn_move(p, out, from, two, -1, true);
          }
        }
        if (!u.magic) {
          for (int df : {-1, 1}) {
            if (!on_board(ff + df, fr + fw)) continue;
            int to = sq_of(ff + df, fr + fw);
            if (capturable_by(p.sq[to], us))
              add_pawn_move(p, out, from, to, to, false);
            else if (to == p.ep && p.sq[to].type == 0)
              add_pawn_move(p, out, from, to, sq_of(ff + df, fr), false);
          }
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

// ---------------------------------------------------------------- mutation

// The single magic fairy walk present on the board ('G' or 'L'), or 0 when there is none
// or both (ambiguous chain ends: then Q and P do not change).
char magic_fairy(const Pos& p) {
  bool g = false, l = false;
  for (const Unit& u : p.sq) {
    if (u.magic && u.type == 'G') g = true;
    if (u.magic && u.type == 'L') l = true;
  }
  if (g && !l) return 'G';
  if (l && !g) return 'L';
  return 0;
}

char step_up(char t, char fairy) {
  switch (t) {
    case 'P':
      return 'N';
    case 'N':
      return 'B';
    case 'B':
      return 'R';
    case 'R':
      return 'Q';
    case 'Q':
      return fairy ? fairy : 'Q';
    default:
      return t;  // G, L never change
  }
}

char step_down(char t, char fairy) {
  switch (t) {
    case 'Q':
      return 'R';
    case 'R':
      return 'B';
    case 'B':
      return 'N';
    case 'N':
      return 'P';
    case 'P':
      return fairy ? fairy : 'P';
    default:
      return t;
  }
}

// Make the move on a copy: capture, displacement, promotion, then mutation, then the
// en-passant square for the opponent. Legality is not checked here.
Pos make_move(const Pos& before, const Mv& m) {
  Pos p = before;
  Unit mover = p.sq[m.from];
  if (m.cap >= 0) p.sq[m.cap] = Unit{};
  p.sq[m.from] = Unit{};
  if (m.promo) mover.type = m.promo;  // a magic pawn stays magic
  p.sq[m.to] = mover;

  char fairy = magic_fairy(p);
  if (mover.type != 'K') {
    if (mover.magic) {
      // Every ordinary unit touched anew by the magic mover mutates.
      for (int s = 0; s < 64; ++s) {
        Unit& u = p.sq[s];
        if (u.type == 0 || u.magic || u.type == 'K') continue;
        if (adjacent(s, m.to) && !adjacent(s, m.from))
          u.type = u.color == mover.color ? step_up(u.type, fairy) : step_down(u.type, fairy);
      }
    } else {
      // The ordinary mover mutates by the magic units it touches anew.
      bool own = false, other = false;
      for (int s = 0; s < 64; ++s) {
        const Unit& u = p.sq[s];
        if (u.type == 0 || !u.magic) continue;
        if (adjacent(s, m.to) && !adjacent(s, m.from)) (u.color == mover.color ? own : other) = true;
      }
      Unit& me = p.sq[m.to];
      if (own && !other)
        me.type = step_up(me.type, fairy);
      else if (other && !own)
        me.type = step_down(me.type, fairy);
    }
  }

  p.side = 1 - before.side;
  p.ep = -1;
  if (m.dbl && !mover.magic) {
    const Unit& arrived = p.sq[m.to];
    if (arrived.type == 'P' && !arrived.magic) {
      int e = (m.from + m.to) / 2;
      if (ep_usable(p, e)) p.ep = e;
    }
  }
  return p;
}

std::string uci_of(const Mv& m) {
  std::string s = square_name(m.from) + square_name(m.to);
  if (m.promo) s += static_cast<char>(m.promo - 'A' + 'a');
  return s;
}

std::vector<std::pair<Mv, Pos>> legal(const Pos& p) {
  std::vector<std::pair<Mv, Pos>> out;
  for (const Mv& m : pseudo_moves(p)) {
    Pos q = make_move(p, m);
    if (!in_check(q, p.side)) out.emplace_back(m, q);
  }
  return out;
}

std::uint64_t perft_pos(const Pos& p, int depth) {
  if (depth <= 0) return 1;
  std::uint64_t n = 0;
  for (const auto& mq : legal(p)) n += depth == 1 ? 1 : perft_pos(mq.second, depth - 1);
  return n;
}

}  // namespace

std::vector<RefMove> legal_moves_after(const std::string& fen) {
  Pos p = parse_fen(fen);
  std::vector<RefMove> out;
  for (const auto& mq : legal(p)) out.push_back(RefMove{uci_of(mq.first), to_fen(mq.second)});
  std::sort(out.begin(), out.end(), [](const RefMove& a, const RefMove& b) {
    if (a.uci != b.uci) return a.uci < b.uci;
    return a.fen_after < b.fen_after;
  });
  return out;
}

std::uint64_t perft(const std::string& fen, int depth) { return perft_pos(parse_fen(fen), depth); }

}  // namespace feerie::test::magic_reference
