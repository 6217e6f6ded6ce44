/* A prototype of the Akropolis placement step in C, behind the contract of
 * engine/akropolis/city.py's City as a turn uses it: place a tile, the legal triangles
 * (kept up to date placement by placement, as City._update_legal does), whether a
 * triangle may be covered, a copy, and the city's points (the rules' scoring without the
 * variants, the stones being the state's: a full rescoring of the city's bounding box,
 * kept until the next placement).
 *
 * Not part of the engine: bench/prototype/build.py compiles it for the benchmark and the
 * oracle test, after writing "tables.h" from the engine's own geometry and components,
 * so the neighbour tables are the Python engine's, not a second derivation.
 *
 * A city lives on a fixed SIDE x SIDE grid centred on (0, 0): cell (q, r) is
 * (q + HALF) * SIDE + (r + HALF), so a neighbour is a constant step away and sorting local
 * triangle ids (2 * cell + type) sorts them as the engine's ids. A placement closer than
 * MARGIN to the grid's edge raises OverflowError (never seen in random games; a real core
 * would grow the grid).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "tables.h" /* SIDE, HALF, STEPS, TRIANGLE_CELLS, RING_CELLS, EDGE, CORNER, RINGT,
                       hex codes, STARS_OF_CODE, COLOR_OF_CODE */

#define CELLS (SIDE * SIDE)
#define TRIANGLES (2 * CELLS)
#define MARGIN 4
#define MAX_LEGAL 2048
#define ENGINE_OFFSET 2048
#define ENGINE_STRIDE 4096

typedef struct {
    uint8_t level[CELLS]; /* 0: empty */
    uint8_t code[CELLS];
    uint8_t uid[CELLS];
    uint8_t legal_bits[TRIANGLES / 8];
    int16_t legal[MAX_LEGAL]; /* local triangle ids, sorted */
    int n_legal;
    int stars[COLORS];
    int tiles;
    int q_low, q_high, r_low, r_high; /* bounding box, local coordinates */
    long points;                      /* the score, while points_known */
    int points_known;
} City;

typedef struct {
    PyObject_HEAD
    City city;
    PyObject *legal_list; /* the engine ids as a list, until the next placement */
} CCity;

static PyTypeObject CCityType;

/* --- coordinates --------------------------------------------------------------------- */

static int local_of_engine_cell(long code, int *cell) {
    long q = code / ENGINE_STRIDE - ENGINE_OFFSET, r = code % ENGINE_STRIDE - ENGINE_OFFSET;
    if (q < MARGIN - HALF || q >= SIDE - HALF - MARGIN || r < MARGIN - HALF ||
        r >= SIDE - HALF - MARGIN) {
        PyErr_SetString(PyExc_OverflowError, "cell outside the prototype's grid");
        return -1;
    }
    *cell = (int)((q + HALF) * SIDE + (r + HALF));
    return 0;
}

static long engine_triangle_of_local(int triangle) {
    int cell = triangle >> 1, q = cell / SIDE - HALF, r = cell % SIDE - HALF;
    long code = (long)(q + ENGINE_OFFSET) * ENGINE_STRIDE + (r + ENGINE_OFFSET);
    return 2 * code + (triangle & 1);
}

static int local_of_engine_triangle(long triangle, int *local) {
    int cell;
    if (local_of_engine_cell(triangle >> 1, &cell) < 0) return -1;
    *local = 2 * cell + (int)(triangle & 1);
    return 0;
}

/* --- the legal triangles ------------------------------------------------------------- */

static inline int is_marked(const City *c, int t) { return c->legal_bits[t >> 3] >> (t & 7) & 1; }

static int lower_bound(const City *c, int t) {
    int low = 0, high = c->n_legal;
    while (low < high) {
        int mid = (low + high) >> 1;
        if (c->legal[mid] < t) low = mid + 1;
        else high = mid;
    }
    return low;
}

static void drop_legal(City *c, int t) {
    if (!is_marked(c, t)) return;
    c->legal_bits[t >> 3] &= (uint8_t)~(1u << (t & 7));
    int at = lower_bound(c, t);
    memmove(&c->legal[at], &c->legal[at + 1], (size_t)(c->n_legal - at - 1) * sizeof(int16_t));
    c->n_legal--;
}

static int add_legal(City *c, int t) {
    if (is_marked(c, t)) return 0;
    if (c->n_legal == MAX_LEGAL) {
        PyErr_SetString(PyExc_OverflowError, "too many legal triangles for the prototype");
        return -1;
    }
    c->legal_bits[t >> 3] |= (uint8_t)(1u << (t & 7));
    int at = lower_bound(c, t);
    memmove(&c->legal[at + 1], &c->legal[at], (size_t)(c->n_legal - at) * sizeof(int16_t));
    c->legal[at] = (int16_t)t;
    c->n_legal++;
    return 0;
}

/* City.is_legal: the rules' level-1 and level-up tests. */
static int is_legal(const City *c, int t) {
    int y = t >> 1, kind = t & 1;
    int a = y + TRIANGLE_CELLS[kind][0], b = y + TRIANGLE_CELLS[kind][1],
        d = y + TRIANGLE_CELLS[kind][2];
    if (!c->level[a]) {
        if (c->level[b] || c->level[d]) return 0;
        for (int i = 0; i < RING_SIZE; i++)
            if (c->level[y + RING_CELLS[kind][i]]) return 1;
        return 0;
    }
    if (c->level[b] != c->level[a] || c->level[d] != c->level[a]) return 0;
    return !(c->uid[a] == c->uid[b] && c->uid[a] == c->uid[d]);
}

/* The full scan (as city.scan_legal_triangles), for a new city. */
static int scan_legal(City *c) {
    c->n_legal = 0;
    memset(c->legal_bits, 0, sizeof c->legal_bits);
    for (int q = c->q_low - 2; q <= c->q_high + 2; q++)
        for (int r = c->r_low - 2; r <= c->r_high + 2; r++)
            for (int kind = 0; kind < 2; kind++) {
                int t = 2 * (q * SIDE + r) + kind;
                if (is_legal(c, t) && add_legal(c, t) < 0) return -1;
            }
    return 0;
}

/* City._update_legal: only the triangles around the new tile can change. */
static int update_legal(City *c, int triangle, int level) {
    int y = triangle >> 1, kind = triangle & 1, y2 = 2 * y;
    int gained[EDGE_SIZE + CORNER_SIZE + RINGT_SIZE], n_gained = 0;
    drop_legal(c, triangle);
    for (int i = 0; i < EDGE_SIZE; i++) {
        int other = y2 + EDGE[kind][i][0];
        if (c->level[y + EDGE[kind][i][1]] == level) gained[n_gained++] = other;
        else drop_legal(c, other);
    }
    for (int i = 0; i < CORNER_SIZE; i++) {
        int other = y2 + CORNER[kind][i][0];
        if (c->level[y + CORNER[kind][i][1]] == level && c->level[y + CORNER[kind][i][2]] == level)
            gained[n_gained++] = other;
        else drop_legal(c, other);
    }
    if (level == 1)
        for (int i = 0; i < RINGT_SIZE; i++) {
            const int *o = RINGT[kind][i];
            if (!c->level[y + o[1]] && !c->level[y + o[2]] && !c->level[y + o[3]])
                gained[n_gained++] = y2 + o[0];
        }
    for (int i = 0; i < n_gained; i++)
        if (add_legal(c, gained[i]) < 0) return -1;
    return 0;
}

/* --- placing a tile ------------------------------------------------------------------ */

static void set_hex(City *c, int cell, int level, int code, int uid) {
    c->level[cell] = (uint8_t)level;
    c->code[cell] = (uint8_t)code;
    c->uid[cell] = (uint8_t)uid;
    int q = cell / SIDE, r = cell % SIDE;
    if (q < c->q_low) c->q_low = q;
    if (q > c->q_high) c->q_high = q;
    if (r < c->r_low) c->r_low = r;
    if (r > c->r_high) c->r_high = r;
    if (IS_PLAZA[code]) c->stars[COLOR_OF_CODE[code]] += STARS_OF_CODE[code];
}

/* Returns the quarries covered, or -1 with an exception set. */
static int place(City *c, int triangle, const int cells[3], const int codes[3], int uid) {
    int below = c->level[cells[0]], level = below + 1, quarries = 0;
    for (int i = 0; i < 3; i++) {
        int cell = cells[i];
        if (c->level[cell]) {
            int old = c->code[cell];
            if (old == QUARRY_CODE) quarries++;
            if (IS_PLAZA[old]) c->stars[COLOR_OF_CODE[old]] -= STARS_OF_CODE[old];
        }
        set_hex(c, cell, level, codes[i], uid);
    }
    c->tiles++;
    c->points_known = 0;
    if (update_legal(c, triangle, level) < 0) return -1;
    return quarries;
}

/* --- scoring ------------------------------------------------------------------------- */

static uint32_t seen[CELLS];
static uint32_t seen_mark;
static int stack_cells[CELLS];

static inline void next_mark(void) {
    if (++seen_mark == 0) {
        memset(seen, 0, sizeof seen);
        seen_mark = 1;
    }
}

/* The largest group of houses by (size, value): its value. */
static int houses_value(const City *c) {
    int best_size = 0, best_value = 0;
    next_mark();
    for (int q = c->q_low; q <= c->q_high; q++)
        for (int r = c->r_low; r <= c->r_high; r++) {
            int start = q * SIDE + r;
            if (!c->level[start] || c->code[start] != HOUSE_CODE || seen[start] == seen_mark)
                continue;
            int size = 0, value = 0, top = 0;
            seen[start] = seen_mark;
            stack_cells[top++] = start;
            while (top) {
                int cell = stack_cells[--top];
                size++;
                value += c->level[cell];
                for (int s = 0; s < 6; s++) {
                    int near = cell + STEPS[s];
                    if (c->level[near] && c->code[near] == HOUSE_CODE && seen[near] != seen_mark) {
                        seen[near] = seen_mark;
                        stack_cells[top++] = near;
                    }
                }
            }
            if (size > best_size || (size == best_size && value > best_value)) {
                best_size = size;
                best_value = value;
            }
        }
    return best_value;
}

/* The empty cells of the bounding box plus one that reach its border through empty
 * cells (scoring.outside_empty_cells), as bits: bit r - r0 of outside[q - q0]. The flood
 * grows every row at once; a neighbour is the next bit or the row above or below. */
static void find_outside(const City *c, uint64_t outside[SIDE]) {
    int q0 = c->q_low - 1, rows = c->q_high + 2 - q0, r0 = c->r_low - 1;
    int width = c->r_high + 2 - r0;
    uint64_t full = (width == 64) ? ~0ULL : ((1ULL << width) - 1), empty[SIDE];
    for (int i = 0; i < rows; i++) {
        uint64_t bits = 0;
        const uint8_t *level = &c->level[(q0 + i) * SIDE + r0];
        for (int j = 0; j < width; j++)
            if (!level[j]) bits |= 1ULL << j;
        empty[i] = bits;
        outside[i] = (i == 0 || i == rows - 1) ? full : (1ULL | 1ULL << (width - 1));
    }
    for (int grown = 1; grown;) {
        grown = 0;
        for (int i = 1; i < rows - 1; i++) {
            /* (q, r) borders (q, r +- 1), (q + 1, r), (q + 1, r - 1), (q - 1, r), (q - 1, r + 1). */
            uint64_t reach = outside[i] << 1 | outside[i] >> 1 | outside[i + 1] |
                             outside[i + 1] << 1 | outside[i - 1] | outside[i - 1] >> 1;
            uint64_t next = outside[i] | (reach & empty[i] & full);
            if (next != outside[i]) {
                outside[i] = next;
                grown = 1;
            }
        }
    }
}

static inline int is_outside(const City *c, const uint64_t outside[SIDE], int cell) {
    int i = cell / SIDE - (c->q_low - 1), j = cell % SIDE - (c->r_low - 1);
    return (int)(outside[i] >> j & 1);
}

/* scoring.score_surface(...).total less the stones, without variants. */
static long points(const City *c) {
    long values[COLORS] = {0};
    int barracks = 0;
    values[COLOR_OF_CODE[HOUSE_CODE]] = houses_value(c);
    for (int q = c->q_low; q <= c->q_high; q++)
        for (int r = c->r_low; r <= c->r_high; r++) {
            int cell = q * SIDE + r, level = c->level[cell], code = c->code[cell];
            if (!level) continue;
            if (code == MARKET_CODE) {
                int alone = 1;
                for (int s = 0; s < 6; s++) {
                    int near = cell + STEPS[s];
                    if (c->level[near] && c->code[near] == MARKET_CODE) alone = 0;
                }
                if (alone) values[COLOR_OF_CODE[code]] += level;
            } else if (code == TEMPLE_CODE) {
                int surrounded = 1;
                for (int s = 0; s < 6; s++)
                    if (!c->level[cell + STEPS[s]]) surrounded = 0;
                if (surrounded) values[COLOR_OF_CODE[code]] += level;
            } else if (code == GARDEN_CODE) {
                values[COLOR_OF_CODE[code]] += level;
            } else if (code == BARRACKS_CODE) {
                barracks = 1;
            }
        }
    if (barracks) {
        uint64_t outside[SIDE];
        find_outside(c, outside);
        for (int q = c->q_low; q <= c->q_high; q++)
            for (int r = c->r_low; r <= c->r_high; r++) {
                int cell = q * SIDE + r;
                if (!c->level[cell] || c->code[cell] != BARRACKS_CODE) continue;
                for (int s = 0; s < 6; s++)
                    if (is_outside(c, outside, cell + STEPS[s])) {
                        values[COLOR_OF_CODE[BARRACKS_CODE]] += c->level[cell];
                        break;
                    }
            }
    }
    long total = 0;
    for (int i = 0; i < COLORS; i++) total += values[i] * c->stars[i];
    return total;
}

/* --- the Python type ----------------------------------------------------------------- */

static CCity *new_ccity(void) {
    CCity *self = PyObject_New(CCity, &CCityType);
    if (self) self->legal_list = NULL;
    return self;
}

static void ccity_dealloc(CCity *self) {
    Py_XDECREF(self->legal_list);
    PyObject_Free(self);
}

static PyObject *ccity_copy(CCity *self, PyObject *unused) {
    CCity *twin = new_ccity();
    if (!twin) return NULL;
    memcpy(&twin->city, &self->city, sizeof(City));
    twin->legal_list = self->legal_list; /* never mutated, only replaced */
    Py_XINCREF(twin->legal_list);
    return (PyObject *)twin;
}

static int read_triple(PyObject *seq, long out[3], const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 3) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: three items expected", what);
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* place(triangle, cells, codes, uid) -> quarries covered, as City.place. */
static PyObject *ccity_place(CCity *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "place(triangle, cells, codes, uid)");
        return NULL;
    }
    long triangle = PyLong_AsLong(args[0]), uid = PyLong_AsLong(args[3]);
    long engine_cells[3], codes_long[3];
    if (PyErr_Occurred()) return NULL;
    if (read_triple(args[1], engine_cells, "cells") < 0) return NULL;
    if (read_triple(args[2], codes_long, "codes") < 0) return NULL;
    int local_triangle, cells[3], codes[3];
    if (local_of_engine_triangle(triangle, &local_triangle) < 0) return NULL;
    for (int i = 0; i < 3; i++) {
        if (local_of_engine_cell(engine_cells[i], &cells[i]) < 0) return NULL;
        if (codes_long[i] < 0 || codes_long[i] >= HEX_CODES) {
            PyErr_SetString(PyExc_ValueError, "unknown hex code");
            return NULL;
        }
        codes[i] = (int)codes_long[i];
    }
    if (uid < 0 || uid > 255) {
        PyErr_SetString(PyExc_ValueError, "tile ids must fit a byte in the prototype");
        return NULL;
    }
    Py_CLEAR(self->legal_list);
    int quarries = place(&self->city, local_triangle, cells, codes, (int)uid);
    if (quarries < 0) return NULL;
    return PyLong_FromLong(quarries);
}

/* legal_triangles() -> sorted engine ids (do not mutate the list), as City's. */
static PyObject *ccity_legal_triangles(CCity *self, PyObject *unused) {
    if (!self->legal_list) {
        const City *c = &self->city;
        PyObject *list = PyList_New(c->n_legal);
        if (!list) return NULL;
        for (int i = 0; i < c->n_legal; i++) {
            PyObject *id = PyLong_FromLong(engine_triangle_of_local(c->legal[i]));
            if (!id) {
                Py_DECREF(list);
                return NULL;
            }
            PyList_SET_ITEM(list, i, id);
        }
        self->legal_list = list;
    }
    Py_INCREF(self->legal_list);
    return self->legal_list;
}

static PyObject *ccity_can_cover(CCity *self, PyObject *arg) {
    long triangle = PyLong_AsLong(arg);
    int local;
    if (triangle == -1 && PyErr_Occurred()) return NULL;
    if (local_of_engine_triangle(triangle, &local) < 0) {
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    return PyBool_FromLong(is_marked(&self->city, local));
}

static PyObject *ccity_points(CCity *self, PyObject *unused) {
    City *c = &self->city;
    if (!c->points_known) {
        c->points = points(c);
        c->points_known = 1;
    }
    return PyLong_FromLong(c->points);
}

static PyObject *ccity_get_tiles(CCity *self, void *closure) {
    return PyLong_FromLong(self->city.tiles);
}

static PyMethodDef ccity_methods[] = {
    {"copy", (PyCFunction)ccity_copy, METH_NOARGS, "A copy of the city."},
    {"place", (PyCFunction)(void (*)(void))ccity_place, METH_FASTCALL,
     "place(triangle, cells, codes, uid) -> quarries covered"},
    {"legal_triangles", (PyCFunction)ccity_legal_triangles, METH_NOARGS,
     "Sorted ids of the triangles a tile may cover now (do not mutate the list)."},
    {"can_cover", (PyCFunction)ccity_can_cover, METH_O, "Whether a tile may cover it."},
    {"points", (PyCFunction)ccity_points, METH_NOARGS,
     "The city's points without variants, stones not included."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef ccity_getset[] = {
    {"tiles", (getter)ccity_get_tiles, NULL, "Tiles placed, the starting tile included.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CCityType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "akropolis_core.CCity",
    .tp_basicsize = sizeof(CCity),
    .tp_dealloc = (destructor)ccity_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One player's city, in C (a prototype; see the module).",
    .tp_methods = ccity_methods,
    .tp_getset = ccity_getset,
};

/* starting() -> the starting tile alone: a house plaza at (0, 0), quarries around it. */
static PyObject *core_starting(PyObject *module, PyObject *unused) {
    CCity *self = new_ccity();
    if (!self) return NULL;
    City *c = &self->city;
    memset(c, 0, sizeof(City));
    int centre = HALF * SIDE + HALF;
    c->q_low = c->q_high = c->r_low = c->r_high = HALF;
    set_hex(c, centre, 1, HOUSE_PLAZA_CODE, 0);
    for (int s = 0; s < 6; s += 2) set_hex(c, centre + STEPS[s], 1, QUARRY_CODE, 0);
    c->tiles = 1;
    if (scan_legal(c) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyMethodDef core_methods[] = {
    {"starting", core_starting, METH_NOARGS, "A city holding the starting tile."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "akropolis_core",
    "Prototype of the Akropolis placement step in C (benchmark only).", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_akropolis_core(void) {
    if (PyType_Ready(&CCityType) < 0) return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (!module) return NULL;
    Py_INCREF(&CCityType);
    if (PyModule_AddObject(module, "CCity", (PyObject *)&CCityType) < 0) {
        Py_DECREF(&CCityType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
