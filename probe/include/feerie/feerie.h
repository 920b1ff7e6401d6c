/* The C API of the Feerie prober, for programs in other languages.
 *
 * Values are from the point of view of the side to move; distances in plies (half
 * moves). A win in p plies (p odd): the side to move mates with its ((p+1)/2)-th move.
 * A loss in p plies (p even): it is mated after p plies; 0 = mated now.
 *
 * Every function that can fail returns FEERIE_OK (0) on success and a negative
 * feerie_status on failure, which says what kind of failure it was (a missing table, a
 * corrupt one, a bad FEN, ...); it then writes a one-line reason (NUL-terminated,
 * truncated to fit) into `error` when `error` is not NULL and `error_size` > 0.
 *
 * Thread-safety: one handle may be used from several threads at once, by every function
 * that takes it, except feerie_close(), which must be the last call on the handle. The
 * functions without a handle may be called from any thread. Ownership: the caller owns
 * every buffer it passes and every buffer is written only within the size given; a
 * handle is released with feerie_close(); strings returned by the library
 * (feerie_version) are static and must not be freed. */
#ifndef FEERIE_FEERIE_H
#define FEERIE_FEERIE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct feerie_tablebase feerie_tablebase;

/* Return values. The same kinds, as positive numbers, are the exit codes of the `feerie`
 * command (docs/cli.md), except two: an interruption exits with 130, and a condition
 * mismatch (-9 here) exits with 8. */
typedef enum {
  FEERIE_OK = 0,
  FEERIE_ERROR_INTERNAL = -1,          /* a bug or an inconsistency found by a check */
  FEERIE_ERROR_INVALID_ARGUMENT = -2,  /* a bad FEN or condition, an illegal position, a NULL argument */
  FEERIE_ERROR_NOT_FOUND = -3,         /* a table that is not on disk */
  FEERIE_ERROR_CORRUPT = -4,           /* a damaged, truncated or foreign table file */
  FEERIE_ERROR_IO = -5,                /* the system refused to read or write a file */
  FEERIE_ERROR_NOT_SUPPORTED = -6,     /* valid, but not something this version does */
  FEERIE_ERROR_RESOURCE_LIMIT = -7,    /* beyond the memory or size this call may use */
  FEERIE_ERROR_INTERRUPTED = -8,       /* stopped on request */
  FEERIE_ERROR_CONDITION_MISMATCH = -9 /* a table file built for another condition than the tablebase's */
} feerie_status;

typedef struct {
  int wdl;       /* 1 win, 0 draw, -1 loss, for the side to move */
  int dtm_plies; /* plies to mate; -1 for a draw */
  int mate_in;   /* moves: > 0 the side to move mates, < 0 it is mated, 0 draw or mated now */
} feerie_result;

/* Opens the tables root `directory` for the condition `condition` ("orthodox", ...).
 * Returns NULL on failure (an unknown condition). Tables are opened when first needed, and
 * opened again when their file was replaced on disk (looked at at most once a second). */
feerie_tablebase* feerie_open(const char* directory, const char* condition, char* error, size_t error_size);
void feerie_close(feerie_tablebase* tb);

/* The value of a position given in FEN. */
int feerie_probe(feerie_tablebase* tb, const char* fen, feerie_result* out, char* error, size_t error_size);

/* One position's helpmate or selfmate (docs/stipulations.md). */
typedef struct {
  int plies;     /* the fewest plies from the position to the mate of the colour mated (0: mated now); -1: never */
  int solutions; /* helpmates: the shortest move sequences, 255 meaning 255 or more; 0 for selfmates, and without a
                    mate */
} feerie_help_result;

/* The helpmate (`stipulation` "h#": both sides together mate the colour) or selfmate ("s#":
 * the colour forces the other to mate it) of a position given in FEN, with `mated` ("white",
 * "black"; NULL: Black for h#, White for s#) mated, from the tables of `feerie gen
 * --stipulation h#` or `s#` (<material>.help-<colour>.ftb, .self-<colour>.ftb: only the mated
 * colour's file is read). A missing file fails with FEERIE_ERROR_NOT_FOUND. */
int feerie_probe_help(feerie_tablebase* tb, const char* fen, const char* stipulation, const char* mated,
                      feerie_help_result* out, char* error, size_t error_size);

/* The moves that keep the value (long algebraic, separated by single spaces), or the
 * moves of a principal variation to mate. A `moves` too small fails with
 * FEERIE_ERROR_INVALID_ARGUMENT, the bytes needed in the message and `moves` set to "";
 * FEERIE_MOVES_SIZE bytes always suffice for the best moves (at most 256 moves of at most
 * 5 characters and a space), and 6 bytes per ply of the variation (at most 1000 plies). */
int feerie_best_moves(feerie_tablebase* tb, const char* fen, char* moves, size_t moves_size, char* error,
                      size_t error_size);
int feerie_principal_variation(feerie_tablebase* tb, const char* fen, char* moves, size_t moves_size, char* error,
                               size_t error_size);

/* The library version, "MAJOR.MINOR.PATCH" (a static string). */
const char* feerie_version(void);

/* Win/draw/loss only: *wdl = 1 (the side to move wins), 0 (draw) or -1 (loses). */
int feerie_probe_wdl(feerie_tablebase* tb, const char* fen, int* wdl, char* error, size_t error_size);

/* One unit of a position given as a piece list. */
typedef struct {
  int square; /* 0 = a1, 1 = b1, ..., 7 = h1, 8 = a2, ..., 63 = h8 */
  char type;  /* 'K', 'Q', 'R', 'B', 'N', 'P', 'G' (grasshopper), 'L' (locust); either case */
  int white;  /* 1 for a white unit, 0 for a black one */
  int magic;  /* 1 for a magic unit (docs/conditions/magic.md), 0 otherwise */
} feerie_piece;

/* Enough for feerie_best_moves() in every position. */
#define FEERIE_MOVES_SIZE 1537
/* Enough for feerie_principal_variation() in every position (6 bytes for each of at most
 * 1000 plies, and the NUL), and for feerie_best_moves() too. */
#define FEERIE_VARIATION_SIZE 6001

/* The value of the position made of `count` units, `white_to_move` (1 or 0; any other
 * value, or a unit's `white` or `magic` other than 1 or 0, is FEERIE_ERROR_INVALID_ARGUMENT), with an
 * en-passant square `ep_square` (0..63, or -1 for none). The same checks as a FEN (one king
 * each, a usable en-passant square, the side not to move not in check; pawns on their first
 * or last rank are valid, as in a FEN: docs/notation.md), and two units on one square is an
 * error. */
int feerie_probe_pieces(feerie_tablebase* tb, const feerie_piece* pieces, size_t count, int white_to_move,
                        int ep_square, feerie_result* out, char* error, size_t error_size);

/* One legal move and the value of the position after it, for the side that plays it. */
typedef struct {
  char move[8];        /* long algebraic, NUL-terminated: "a2b2", "e7e8q" */
  feerie_result value; /* from the mover's point of view: a win in 1 ply is a mating move */
  int checkmate;       /* 1 if the move mates at once */
  int stalemate;       /* 1 if the move stalemates */
} feerie_move_value;

/* Every legal move of the position with its value, best first (the shortest win, draws,
 * the longest loss; equal values by name). Writes at most `capacity` entries to `out` and
 * the number of legal moves to `*count`; if `capacity` is smaller, fails with
 * FEERIE_ERROR_INVALID_ARGUMENT and `*count` still tells how many are needed (256 always
 * suffice). */
int feerie_move_values(feerie_tablebase* tb, const char* fen, feerie_move_value* out, size_t capacity, size_t* count,
                       char* error, size_t error_size);

/* The materials whose tables are in the handle's directory for its condition, sorted,
 * separated by single spaces ("" when none). Fails if `names` is too small. Lists files;
 * each table is checked when it is probed. */
int feerie_list_tables(feerie_tablebase* tb, char* names, size_t names_size, char* error, size_t error_size);

/* Generates the table of `material` ("KQvKR", docs/notation.md) and every table it depends
 * on into `directory` under `condition`, reusing sound tables already there, with `threads`
 * threads (0: all cores; at most 1024, FEERIE_ERROR_INVALID_ARGUMENT otherwise or when
 * negative). Blocks until done; refuses at once a job larger than the memory available.
 * Safe to call from several threads or processes for one directory (a lock per table). */
int feerie_generate(const char* directory, const char* condition, const char* material, int threads, char* error,
                    size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* FEERIE_FEERIE_H */
