/* Megalopolis' compiled core: the score's parts of every player.
 *
 * `score_parts(board, players)` is `engine.megalopolis.scoring.score_parts` in C, on the
 * same Python objects (the state's board, a dict of cell codes to `Tile`s): each player's
 * points of controlled groups, printed bonus, silver tiles and largest group. It is half
 * of a lookahead's evaluation (copy + move + `result`) in pure Python. The pure-Python
 * function stays the reference and the fallback, and the tests compare the two on every
 * state of random games and on made-up boards.
 *
 * The numbers it reads are the Python engine's own (`components.BONUS`, `SILVER`,
 * `SMALLEST_SCORING_GROUP`, `squaregrid.NEIGHBOUR_STEPS`) and the slots of its `Tile`
 * class, handed over once by `setup` (engine/megalopolis/native/__init__.py) and copied
 * here: no rule is derived a second time. Every input is checked: a wrong type or value
 * raises, never crashes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#define CORE_VERSION 1 /* bump with every change of behaviour (checked by the loader) */
#define STEPS 4
#define MAX_KINDS 64
#define MAX_PLAYERS 16
#define MAX_CODE (1L << 40) /* far past any board: `code + step` never overflows */

static long steps[STEPS];
static long bonus[MAX_KINDS];
static int silver[MAX_KINDS];
static Py_ssize_t n_kinds;
static long smallest_scoring_group;

/* The `Tile` class (a slotted dataclass): its `kind` and `tokens` are read where Python
 * keeps them, their offsets taken from the class's member descriptors by `setup`, and
 * every tile is checked to be of that exact class first. */
static PyTypeObject *tile_type;
static Py_ssize_t kind_slot, tokens_slot;

#define SLOT(object, offset) (*(PyObject **)((char *)(object) + (offset)))

static int slot_offset(PyTypeObject *type, const char *name, Py_ssize_t *offset) {
    PyObject *descr = PyObject_GetAttrString((PyObject *)type, name);
    if (descr == NULL) return -1;
    int ok = Py_IS_TYPE(descr, &PyMemberDescr_Type) &&
             ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX &&
             ((PyMemberDescrObject *)descr)->d_common.d_type == type;
    if (ok) *offset = ((PyMemberDescrObject *)descr)->d_member->offset;
    Py_DECREF(descr);
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "core tables: %.80s.%s is not a slot", type->tp_name,
                     name);
        return -1;
    }
    return 0;
}

/* An exact int into a long within [low, high], or -1 with an exception. */
static int long_in(PyObject *item, long low, long high, long *out, const char *what) {
    if (!PyLong_CheckExact(item)) {
        PyErr_Format(PyExc_TypeError, "%s: an int was expected, not %.80s", what,
                     Py_TYPE(item)->tp_name);
        return -1;
    }
    int overflow;
    long value = PyLong_AsLongAndOverflow(item, &overflow);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (overflow || value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "%s: out of range", what);
        return -1;
    }
    *out = value;
    return 0;
}

/* setup(Tile, neighbour_steps, bonus, silver, smallest_scoring_group): all checked before
 * any is kept, so a refused call leaves the core as it was. */
static PyObject *core_setup(PyObject *self, PyObject *args) {
    PyTypeObject *tile;
    PyObject *step_tuple, *bonus_tuple, *silver_tuple;
    long smallest, new_steps[STEPS], new_bonus[MAX_KINDS];
    int new_silver[MAX_KINDS];
    Py_ssize_t new_kind_slot, new_tokens_slot;
    if (!PyArg_ParseTuple(args, "O!O!O!O!l", &PyType_Type, &tile, &PyTuple_Type, &step_tuple,
                          &PyTuple_Type, &bonus_tuple, &PyTuple_Type, &silver_tuple, &smallest))
        return NULL;
    Py_ssize_t kinds = PyTuple_GET_SIZE(bonus_tuple);
    if (PyTuple_GET_SIZE(step_tuple) != STEPS || kinds == 0 || kinds > MAX_KINDS ||
        PyTuple_GET_SIZE(silver_tuple) != kinds) {
        PyErr_SetString(PyExc_ValueError, "core tables: wrong sizes");
        return NULL;
    }
    for (int i = 0; i < STEPS; i++) {
        if (long_in(PyTuple_GET_ITEM(step_tuple, i), -MAX_CODE, MAX_CODE, &new_steps[i],
                    "a step") < 0)
            return NULL;
    }
    for (Py_ssize_t k = 0; k < kinds; k++) {
        PyObject *flag = PyTuple_GET_ITEM(silver_tuple, k);
        if (long_in(PyTuple_GET_ITEM(bonus_tuple, k), -1000, 1000, &new_bonus[k], "a bonus") < 0)
            return NULL;
        if (!PyBool_Check(flag)) {
            PyErr_SetString(PyExc_TypeError, "core tables: a silver flag is a bool");
            return NULL;
        }
        new_silver[k] = flag == Py_True;
    }
    if (slot_offset(tile, "kind", &new_kind_slot) < 0 ||
        slot_offset(tile, "tokens", &new_tokens_slot) < 0)
        return NULL;
    memcpy(steps, new_steps, sizeof steps);
    memcpy(bonus, new_bonus, (size_t)kinds * sizeof(long));
    memcpy(silver, new_silver, (size_t)kinds * sizeof(int));
    n_kinds = kinds;
    smallest_scoring_group = smallest;
    kind_slot = new_kind_slot;
    tokens_slot = new_tokens_slot;
    Py_INCREF(tile);
    Py_XSETREF(tile_type, tile);
    Py_RETURN_NONE;
}

typedef struct {
    long code;
    int kind;
    unsigned int owners; /* bit p: player p has a token on the tile */
    int near[STEPS];     /* the index of the tile one step away, or -1 */
} Cell;

static int by_code(const void *a, const void *b) {
    long x = ((const Cell *)a)->code, y = ((const Cell *)b)->code;
    return (x > y) - (x < y);
}

static int find(const Cell *cells, Py_ssize_t n, long code) {
    Py_ssize_t low = 0, high = n;
    while (low < high) {
        Py_ssize_t middle = (low + high) / 2;
        if (cells[middle].code < code)
            low = middle + 1;
        else
            high = middle;
    }
    return (low < n && cells[low].code == code) ? (int)low : -1;
}

/* The board's tiles into `cells` (checked), sorted by code; -1 with an exception. */
static int read_board(PyObject *board, Py_ssize_t players, Cell *cells) {
    Py_ssize_t at = 0, i = 0;
    PyObject *key, *tile;
    while (PyDict_Next(board, &at, &key, &tile)) {
        Cell *cell = &cells[i++];
        long kind;
        if (long_in(key, -MAX_CODE, MAX_CODE, &cell->code, "a cell code") < 0) return -1;
        if (!Py_IS_TYPE(tile, tile_type)) {
            PyErr_Format(PyExc_TypeError, "a Tile expected, not %.80s", Py_TYPE(tile)->tp_name);
            return -1;
        }
        PyObject *kind_object = SLOT(tile, kind_slot), *tokens = SLOT(tile, tokens_slot);
        if (kind_object == NULL || tokens == NULL) {
            PyErr_SetString(PyExc_AttributeError, "a Tile's kind or tokens: not set");
            return -1;
        }
        if (long_in(kind_object, 0, n_kinds - 1, &kind, "a tile's kind") < 0) return -1;
        cell->kind = (int)kind;
        if (!PyList_CheckExact(tokens) || PyList_GET_SIZE(tokens) != players) {
            PyErr_SetString(PyExc_ValueError, "a tile's tokens: a list of one count per player");
            return -1;
        }
        cell->owners = 0;
        for (Py_ssize_t p = 0; p < players; p++) {
            PyObject *count = PyList_GET_ITEM(tokens, p);
            if (!PyLong_CheckExact(count)) {
                PyErr_SetString(PyExc_TypeError, "a tile's tokens: ints expected");
                return -1;
            }
            int truth = PyObject_IsTrue(count); /* `if count:`, as Python reads it */
            if (truth < 0) return -1;
            if (truth) cell->owners |= 1u << p;
        }
    }
    qsort(cells, (size_t)i, sizeof(Cell), by_code);
    for (Py_ssize_t j = 0; j < i; j++) {
        for (int s = 0; s < STEPS; s++) cells[j].near[s] = find(cells, i, cells[j].code + steps[s]);
    }
    return 0;
}

/* score_parts(board, players): [(group points, bonus points, silver tiles, largest
 * group)] per player, as `scoring.score_parts`. */
static PyObject *core_score_parts(PyObject *self, PyObject *args) {
    PyObject *board;
    Py_ssize_t players;
    if (!PyArg_ParseTuple(args, "O!n", &PyDict_Type, &board, &players)) return NULL;
    if (tile_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "core tables not set up");
        return NULL;
    }
    if (players < 1 || players > MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "players: out of range");
        return NULL;
    }
    Py_ssize_t n = PyDict_GET_SIZE(board);
    if (n > INT_MAX / 2) return PyErr_NoMemory();
    Cell *cells = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(Cell));
    int *seen = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int));
    int *stack = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int));
    PyObject *parts = NULL;
    if (cells == NULL || seen == NULL || stack == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_board(board, players, cells) < 0) goto done;
    parts = PyList_New(players);
    if (parts == NULL) goto done;
    for (Py_ssize_t p = 0; p < players; p++) {
        unsigned int mine = 1u << p;
        long groups = 0, bonus_points = 0, silver_tiles = 0, largest = 0;
        for (Py_ssize_t i = 0; i < n; i++) seen[i] = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!(cells[i].owners & mine)) continue;
            bonus_points += bonus[cells[i].kind];
            silver_tiles += silver[cells[i].kind];
            if (seen[i]) continue;
            long size = 0;
            int top = 0;
            seen[i] = 1;
            stack[top++] = (int)i;
            while (top) {
                const Cell *cell = &cells[stack[--top]];
                size++;
                for (int s = 0; s < STEPS; s++) {
                    int other = cell->near[s];
                    if (other >= 0 && !seen[other] && (cells[other].owners & mine)) {
                        seen[other] = 1;
                        stack[top++] = other;
                    }
                }
            }
            if (size >= smallest_scoring_group) groups += size;
            if (size > largest) largest = size;
        }
        PyObject *part = Py_BuildValue("(llll)", groups, bonus_points, silver_tiles, largest);
        if (part == NULL) {
            Py_CLEAR(parts);
            goto done;
        }
        PyList_SET_ITEM(parts, p, part);
    }
done:
    PyMem_Free(cells);
    PyMem_Free(seen);
    PyMem_Free(stack);
    return parts;
}

static PyMethodDef core_methods[] = {
    {"setup", core_setup, METH_VARARGS,
     "setup(Tile, neighbour_steps, bonus, silver, smallest_scoring_group): the class whose "
     "slots the core reads and the rules' numbers, copied once."},
    {"score_parts", core_score_parts, METH_VARARGS,
     "score_parts(board, players): `scoring.score_parts` on the state's board."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core",
    "Megalopolis' compiled core (see engine/megalopolis/native/__init__.py).", -1, core_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL) return NULL;
    if (PyModule_AddIntConstant(module, "VERSION", CORE_VERSION) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
