/*
 * Self-play for learning (selfplay/): a whole game of `equity` against itself in C, from a game set up in
 * Python to the turn the bag runs out, each turn's score and the leave it keeps (engine/equity/nativesamples.py
 * makes the learner's samples of them).
 */

#ifndef ENGINE_SELFPLAY_H
#define ENGINE_SELFPLAY_H

#include "../reply/reply.h"  /* Hand, hand_take, hand_add, leave_weight (and movegen.h) */

/* selfplay.c: the module's selfplay_game (see its docstring in module.c) */
PyObject *selfplay_game(PyObject *module, PyObject *args, PyObject *kwargs);

#endif
