/*
 * The endgame's interface to the module (endgame/): engine._native.solve_endgame (solve.c).
 */

#ifndef ENGINE_ENDGAME_H
#define ENGINE_ENDGAME_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* solve.c */
PyObject *solve_endgame(PyObject *module, PyObject *args, PyObject *kwargs);

#endif
