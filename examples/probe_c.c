/* Example: probing Feerie tables from C.
 * Usage: probe_c TABLES_DIR CONDITION FEN
 * Prints the value, the best moves and a principal variation; exit status 1 on error. */
#include <stdio.h>

#include "feerie/feerie.h"

int main(int argc, char** argv) {
  char error[512], moves[FEERIE_VARIATION_SIZE];
  feerie_result r;
  if (argc != 4) {
    fprintf(stderr, "usage: %s TABLES_DIR CONDITION FEN\n", argv[0]);
    return 2;
  }
  feerie_tablebase* tb = feerie_open(argv[1], argv[2], error, sizeof error);
  if (!tb) {
    fprintf(stderr, "probe_c: %s\n", error);
    return 1;
  }
  if (feerie_probe(tb, argv[3], &r, error, sizeof error) != 0) {
    fprintf(stderr, "probe_c: %s\n", error);
    feerie_close(tb);
    return 1;
  }
  printf("wdl %d dtm_plies %d mate_in %d\n", r.wdl, r.dtm_plies, r.mate_in);
  if (feerie_best_moves(tb, argv[3], moves, sizeof moves, error, sizeof error) == 0) printf("best %s\n", moves);
  if (feerie_principal_variation(tb, argv[3], moves, sizeof moves, error, sizeof error) == 0) printf("pv %s\n", moves);
  feerie_close(tb);
  return 0;
}
