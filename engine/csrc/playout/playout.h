/*
 * The playouts' interface to the module (playout/): engine._native.playouts and PlayoutSession.
 */

#ifndef ENGINE_PLAYOUT_H
#define ENGINE_PLAYOUT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* playout.c */
PyObject *playouts(PyObject *module, PyObject *args, PyObject *kwargs);
/* session.c */
extern PyTypeObject SessionType;
PyObject *playout_session(PyObject *module, PyObject *args, PyObject *kwargs);

#endif
