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
 * Thread-safety: one handle may be used from several threads at once. Ownership: the
 * caller owns every buffer it passes; a handle is released with feerie_close(). */
#ifndef FEERIE_FEERIE_H
#define FEERIE_FEERIE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct feerie_tablebase feerie_tablebase;

/* Return values. The same kinds, as positive numbers, are the exit codes of the `feerie`
 * command (docs/cli.md), except that an interruption exits with 130. */
typedef enum {
  FEERIE_OK = 0,
  FEERIE_ERROR_INTERNAL = -1,         /* a bug or an inconsistency found by a check */
  FEERIE_ERROR_INVALID_ARGUMENT = -2, /* a bad FEN or condition, an illegal position, a NULL argument */
  FEERIE_ERROR_NOT_FOUND = -3,        /* a table that is not on disk */
  FEERIE_ERROR_CORRUPT = -4,          /* a damaged, truncated or foreign table file */
  FEERIE_ERROR_IO = -5,               /* the system refused to read or write a file */
  FEERIE_ERROR_NOT_SUPPORTED = -6,    /* valid, but not something this version does */
  FEERIE_ERROR_RESOURCE_LIMIT = -7,   /* beyond the memory or size this call may use */
  FEERIE_ERROR_INTERRUPTED = -8       /* stopped on request */
} feerie_status;

typedef struct {
  int wdl;       /* 1 win, 0 draw, -1 loss, for the side to move */
  int dtm_plies; /* plies to mate; -1 for a draw */
  int mate_in;   /* moves: > 0 the side to move mates, < 0 it is mated, 0 draw or mated now */
} feerie_result;

/* Opens the tables root `directory` for the condition `condition` ("orthodox", ...).
 * Returns NULL on failure (an unknown condition). Tables are opened when first needed. */
feerie_tablebase* feerie_open(const char* directory, const char* condition, char* error, size_t error_size);
void feerie_close(feerie_tablebase* tb);

/* The value of a position given in FEN. */
int feerie_probe(feerie_tablebase* tb, const char* fen, feerie_result* out, char* error, size_t error_size);

/* The moves that keep the value (long algebraic, separated by single spaces), or the
 * moves of a principal variation to mate. Fails if `moves` is too small. */
int feerie_best_moves(feerie_tablebase* tb, const char* fen, char* moves, size_t moves_size, char* error,
                      size_t error_size);
int feerie_principal_variation(feerie_tablebase* tb, const char* fen, char* moves, size_t moves_size, char* error,
                               size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* FEERIE_FEERIE_H */
