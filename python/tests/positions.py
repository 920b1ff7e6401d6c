"""Positions the tests probe, with their values from the side to move's point of view, and
a stand-in for a python-chess Board."""

KQK_WIN = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1"  # White mates in 10 (19 plies)
KQK_LOSS = "8/8/8/5k2/8/8/1Q6/K7 b - - 0 1"  # Black is mated in 10 (20 plies)
KQK_MATED = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"  # Black is checkmated now
KQK_STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"  # Black is stalemated
KQK_MATE_IN_ONE = "7k/8/6K1/8/8/8/5Q2/8 w - - 0 1"  # Qf8 mates; Qf7 and Qa2 stalemate
KRK_CAPTURE = "8/8/8/8/8/1k6/1R6/7K b - - 0 1"  # Black takes the rook: a draw
KBK = "8/8/8/5k2/8/8/1B6/K7 w - - 0 1"  # KBvK: never generated here

class FenOnly:
    """The part of a python-chess Board the module uses: fen()."""

    def __init__(self, fen):
        self._fen = fen

    def fen(self):
        return self._fen
