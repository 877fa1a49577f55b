"""``python -m offline.bench``: the benchmark of move generation, playouts and the endgame
(``offline.bench.movegen``)."""

import sys

from offline.bench.movegen import main

sys.exit(main())
