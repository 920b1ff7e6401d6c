/* examples/c_api.c: every call of the C API (feerie/feerie.h) once, on a table it generates.
 * Usage: c_api TABLES_DIR. Quoted whole in docs/probing.md; the test suite runs it. */
#include <stdio.h>
#include <stdlib.h>

#include <feerie/feerie.h>

static char error[512]; /* the reason of the last failure, always NUL-terminated */

static void check(int status) {
  if (status != FEERIE_OK) {
    fprintf(stderr, "status %d: %s\n", status, error);
    exit(1);
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s TABLES_DIR\n", argv[0]);
    return 2;
  }
  printf("libfeerie %s\n", feerie_version());
  /* KQvK and the KvK it depends on, all cores; sound tables already there are reused. */
  check(feerie_generate(argv[1], "orthodox", "KQvK", /*threads=*/0, error, sizeof error));
  feerie_tablebase* tb = feerie_open(argv[1], "orthodox", error, sizeof error);
  if (!tb) { /* an unknown condition */
    fprintf(stderr, "%s\n", error);
    return 1;
  }

  const char* fen = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1";
  const char* black = "8/8/8/5k2/8/8/1Q6/K7 b - - 0 1"; /* the same, Black to move */
  feerie_result r;
  check(feerie_probe(tb, fen, &r, error, sizeof error));
  printf("probe: wdl %d dtm_plies %d mate_in %d\n", r.wdl, r.dtm_plies, r.mate_in);
  int wdl;
  check(feerie_probe_wdl(tb, black, &wdl, error, sizeof error));
  printf("probe_wdl, Black to move: %d\n", wdl);

  /* The same position as a piece list: square 0 = a1, 1 = b1, ..., 63 = h8. */
  feerie_piece pieces[] = {{0, 'K', 1, 0}, {9, 'Q', 1, 0}, {37, 'K', 0, 0}};
  check(feerie_probe_pieces(tb, pieces, 3, /*white_to_move=*/1, /*ep_square=*/-1, &r, error, sizeof error));
  printf("probe_pieces: mate_in %d\n", r.mate_in);

  char moves[FEERIE_VARIATION_SIZE]; /* the best moves, then a principal variation */
  check(feerie_best_moves(tb, black, moves, sizeof moves, error, sizeof error));
  printf("best_moves, Black to move: %s\n", moves);
  check(feerie_principal_variation(tb, fen, moves, sizeof moves, error, sizeof error));
  printf("principal_variation: %s\n", moves);

  feerie_move_value values[256]; /* 256 always suffice */
  size_t count;
  check(feerie_move_values(tb, "7k/8/6K1/8/8/8/5Q2/8 w - - 0 1", values, 256, &count, error, sizeof error));
  printf("move_values: %zu moves, best first:", count);
  for (size_t i = 0; i < 3; ++i)
    printf(" %s (mate_in %d%s)", values[i].move, values[i].value.mate_in, values[i].checkmate ? ", checkmate" : "");
  printf("\n");

  char names[4096];
  check(feerie_list_tables(tb, names, sizeof names, error, sizeof error));
  printf("list_tables: %s\n", names);

  /* Failures say their kind: here a table that is not on disk. */
  int status = feerie_probe(tb, "8/8/8/5k2/8/8/1B6/K7 w - - 0 1", &r, error, sizeof error);
  printf("KBvK: %s\n", status == FEERIE_ERROR_NOT_FOUND ? "FEERIE_ERROR_NOT_FOUND" : "?");
  feerie_close(tb);
  return 0;
}
