/* Akropolis' compiled core, first stage: the legal-placement upkeep of one city.
 *
 * `update_legal` is `engine.akropolis.fast.city_cache.CityCache.update_legal` in C, on
 * the same Python objects (the city's `top` dict, the sorted legal list, its set and the
 * placements' texts): the pure-Python method stays the reference and the fallback, and
 * the tests compare the two on every state of random games.
 *
 * The tables it reads are the Python engine's own (`fast.legal_tables`), handed over once
 * by `setup` (engine/akropolis/native/__init__.py) and copied into C arrays there: no rule
 * is derived a second time here. Every input is checked: a wrong type raises, never
 * crashes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#define CORE_VERSION 1 /* bump with every change of behaviour (checked by the loader) */
#define RING_SIZE 9
#define RING_MASKS (1 << RING_SIZE)
#define MAX_SECTORS 8
#define MAX_SECTOR_TABLE (1 << 12)
#define MAX_OUTER 32

typedef struct {
    int32_t start, len; /* a run of the pool */
} Span;

typedef struct {
    int ring_start, ring_mask, outer_start, outer_mask, width, size;
    Span table[MAX_SECTOR_TABLE];
} Sector;

typedef struct {
    long ring_offset[RING_SIZE];
    long ring_bit[RING_SIZE];
    Span gained[RING_MASKS], lost[RING_MASKS]; /* SPLIT_BY_LEVEL[kind][at_level] */
    Span maybe_before[RING_MASKS];             /* MAYBE_LEGAL_BEFORE[kind][empty] */
    Span outer_needed[RING_MASKS];             /* pairs (offset, bit) in the pool */
    int n_sectors;
    Sector sectors[MAX_SECTORS];
} KindTables;

static KindTables *kinds; /* [2], allocated by setup */
static long outer_whole;
static long *pool;
static Py_ssize_t pool_len, pool_cap;

/* --- setup: the Python tables into C arrays ----------------------------------------- */

static int pool_push(long value) {
    if (pool_len == pool_cap) {
        Py_ssize_t cap = pool_cap ? 2 * pool_cap : 4096;
        long *grown = realloc(pool, (size_t)cap * sizeof(long));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        pool = grown;
        pool_cap = cap;
    }
    pool[pool_len++] = value;
    return 0;
}

static int as_long(PyObject *item, long *out) {
    if (!PyLong_Check(item)) {
        PyErr_SetString(PyExc_TypeError, "core tables: an int was expected");
        return -1;
    }
    *out = PyLong_AsLong(item);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* A tuple of ints into the pool (pairs: a tuple of 2-tuples, flattened). */
static int span_of(PyObject *ints, int pairs, Span *span) {
    if (!PyTuple_Check(ints)) {
        PyErr_SetString(PyExc_TypeError, "core tables: a tuple was expected");
        return -1;
    }
    span->start = (int32_t)pool_len;
    Py_ssize_t n = PyTuple_GET_SIZE(ints);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(ints, i);
        long value;
        if (pairs) {
            if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
                PyErr_SetString(PyExc_TypeError, "core tables: a pair was expected");
                return -1;
            }
            for (int j = 0; j < 2; j++) {
                if (as_long(PyTuple_GET_ITEM(item, j), &value) < 0 || pool_push(value) < 0)
                    return -1;
            }
        } else if (as_long(item, &value) < 0 || pool_push(value) < 0) {
            return -1;
        }
    }
    span->len = (int32_t)(pool_len - span->start);
    return 0;
}

static PyObject *sized_tuple(PyObject *object, Py_ssize_t size, const char *what) {
    if (!PyTuple_Check(object) || (size >= 0 && PyTuple_GET_SIZE(object) != size)) {
        PyErr_Format(PyExc_TypeError, "core tables: %s has the wrong shape", what);
        return NULL;
    }
    return object;
}

static int setup_kind(int kind, PyObject *ring_bits, PyObject *split, PyObject *maybe,
                      PyObject *outer_needed, PyObject *sectors) {
    KindTables *t = &kinds[kind];
    if (!sized_tuple(ring_bits, RING_SIZE, "RING_BITS") ||
        !sized_tuple(split, RING_MASKS, "SPLIT_BY_LEVEL") ||
        !sized_tuple(maybe, RING_MASKS, "MAYBE_LEGAL_BEFORE") ||
        !sized_tuple(outer_needed, RING_MASKS, "OUTER_NEEDED") ||
        !sized_tuple(sectors, -1, "RING_SECTORS"))
        return -1;
    for (int j = 0; j < RING_SIZE; j++) {
        PyObject *pair = sized_tuple(PyTuple_GET_ITEM(ring_bits, j), 2, "a ring bit");
        if (!pair || as_long(PyTuple_GET_ITEM(pair, 0), &t->ring_offset[j]) < 0 ||
            as_long(PyTuple_GET_ITEM(pair, 1), &t->ring_bit[j]) < 0)
            return -1;
        if (t->ring_bit[j] != 1L << j) {
            PyErr_SetString(PyExc_ValueError, "core tables: ring bits in cyclic order");
            return -1;
        }
    }
    for (int mask = 0; mask < RING_MASKS; mask++) {
        PyObject *pair = sized_tuple(PyTuple_GET_ITEM(split, mask), 2, "a split");
        if (!pair || span_of(PyTuple_GET_ITEM(pair, 0), 0, &t->gained[mask]) < 0 ||
            span_of(PyTuple_GET_ITEM(pair, 1), 0, &t->lost[mask]) < 0 ||
            span_of(PyTuple_GET_ITEM(maybe, mask), 0, &t->maybe_before[mask]) < 0 ||
            span_of(PyTuple_GET_ITEM(outer_needed, mask), 1, &t->outer_needed[mask]) < 0)
            return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(sectors);
    if (n > MAX_SECTORS) {
        PyErr_SetString(PyExc_ValueError, "core tables: too many ring sectors");
        return -1;
    }
    t->n_sectors = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        Sector *s = &t->sectors[i];
        PyObject *sector = sized_tuple(PyTuple_GET_ITEM(sectors, i), 6, "a sector");
        long values[5];
        if (!sector) return -1;
        for (int j = 0; j < 5; j++) {
            if (as_long(PyTuple_GET_ITEM(sector, j), &values[j]) < 0) return -1;
        }
        s->ring_start = (int)values[0];
        s->ring_mask = (int)values[1];
        s->outer_start = (int)values[2];
        s->outer_mask = (int)values[3];
        s->width = (int)values[4];
        PyObject *table = sized_tuple(PyTuple_GET_ITEM(sector, 5), -1, "a sector's table");
        if (!table) return -1;
        Py_ssize_t size = PyTuple_GET_SIZE(table);
        /* Every index the update can form must be inside the table. */
        if (size > MAX_SECTOR_TABLE || values[4] < 0 || values[4] > 30 ||
            (((values[1] | (values[3] << values[4])) + 1) != size) || values[0] < 0 ||
            values[0] > 2 * RING_SIZE || values[2] < 0 || values[2] > 2 * MAX_OUTER) {
            PyErr_SetString(PyExc_ValueError, "core tables: a sector's table is out of shape");
            return -1;
        }
        s->size = (int)size;
        for (Py_ssize_t index = 0; index < size; index++) {
            if (span_of(PyTuple_GET_ITEM(table, index), 0, &s->table[index]) < 0) return -1;
        }
    }
    return 0;
}

static PyObject *core_setup(PyObject *self, PyObject *args) {
    PyObject *ring_bits, *split, *maybe, *outer_needed, *sectors;
    long whole;
    if (!PyArg_ParseTuple(args, "O!O!O!O!lO!", &PyTuple_Type, &ring_bits, &PyTuple_Type,
                          &split, &PyTuple_Type, &maybe, &PyTuple_Type, &outer_needed,
                          &whole, &PyTuple_Type, &sectors))
        return NULL;
    if (PyTuple_GET_SIZE(ring_bits) != 2 || PyTuple_GET_SIZE(split) != 2 ||
        PyTuple_GET_SIZE(maybe) != 2 || PyTuple_GET_SIZE(outer_needed) != 2 ||
        PyTuple_GET_SIZE(sectors) != 2) {
        PyErr_SetString(PyExc_ValueError, "core tables: one entry per triangle type");
        return NULL;
    }
    if (whole < 0 || whole >= (1L << MAX_OUTER)) {
        PyErr_SetString(PyExc_ValueError, "core tables: OUTER_WHOLE out of range");
        return NULL;
    }
    KindTables *fresh = calloc(2, sizeof(KindTables));
    if (fresh == NULL) return PyErr_NoMemory();
    KindTables *old = kinds;
    kinds = fresh;
    pool_len = 0;
    for (int kind = 0; kind < 2; kind++) {
        if (setup_kind(kind, PyTuple_GET_ITEM(ring_bits, kind), PyTuple_GET_ITEM(split, kind),
                       PyTuple_GET_ITEM(maybe, kind), PyTuple_GET_ITEM(outer_needed, kind),
                       PyTuple_GET_ITEM(sectors, kind)) < 0) {
            free(fresh);
            kinds = NULL;
            free(old);
            return NULL;
        }
    }
    free(old);
    outer_whole = whole;
    Py_RETURN_NONE;
}

/* --- the update ----------------------------------------------------------------------- */

/* top.get(cell): a borrowed reference, NULL with no error when the cell is empty. */
static PyObject *top_get(PyObject *top, long cell) {
    PyObject *key = PyLong_FromLong(cell);
    if (key == NULL) return NULL;
    PyObject *hex = PyDict_GetItemWithError(top, key);
    Py_DECREF(key);
    return hex;
}

/* bisect_left on a list of ints. */
static Py_ssize_t bisect_left(PyObject *list, long value) {
    Py_ssize_t low = 0, high = PyList_GET_SIZE(list);
    while (low < high) {
        Py_ssize_t middle = (low + high) / 2;
        long item = PyLong_AsLong(PyList_GET_ITEM(list, middle));
        if (item == -1 && PyErr_Occurred()) return -1;
        if (item < value)
            low = middle + 1;
        else
            high = middle;
    }
    return low;
}

/* One lost id: out of the set, the list (and the texts, when kept). */
static int lose(PyObject *legal, PyObject *legal_set, PyObject *texts, long id) {
    PyObject *key = PyLong_FromLong(id);
    if (key == NULL) return -1;
    int found = PySet_Discard(legal_set, key);
    Py_DECREF(key);
    if (found <= 0) return found;
    Py_ssize_t at = bisect_left(legal, id);
    if (at < 0) return -1;
    if (at >= PyList_GET_SIZE(legal)) {
        PyErr_SetString(PyExc_RuntimeError, "legal list and set out of step");
        return -1;
    }
    if (PyList_SetSlice(legal, at, at + 1, NULL) < 0) return -1;
    if (texts != Py_None && PyList_SetSlice(texts, at, at + 1, NULL) < 0) return -1;
    return 0;
}

/* One gained id: without texts appended (the list sorted once at the end), with texts
 * inserted in order beside its placements' text. */
static int gain(PyObject *legal, PyObject *legal_set, PyObject *texts, PyObject *placement_texts,
                long id) {
    PyObject *key = PyLong_FromLong(id);
    if (key == NULL) return -1;
    int found = PySet_Contains(legal_set, key);
    int status = found;
    if (found == 0) {
        status = PySet_Add(legal_set, key);
        if (status == 0) {
            if (texts == Py_None) {
                status = PyList_Append(legal, key);
            } else {
                Py_ssize_t at = bisect_left(legal, id);
                PyObject *text = at < 0 ? NULL : PyObject_GetItem(placement_texts, key);
                status = -1;
                if (text != NULL) {
                    if (PyList_Insert(legal, at, key) == 0 && PyList_Insert(texts, at, text) == 0)
                        status = 0;
                    Py_DECREF(text);
                }
            }
        }
    }
    Py_DECREF(key);
    return status < 0 ? -1 : 0;
}

static PyObject *core_update_legal(PyObject *self, PyObject *args) {
    PyObject *top, *legal, *legal_set, *texts, *placement_texts;
    long triangle, level;
    int direct;
    if (!PyArg_ParseTuple(args, "O!O!O!OOllp", &PyDict_Type, &top, &PyList_Type, &legal,
                          &PySet_Type, &legal_set, &texts, &placement_texts, &triangle, &level,
                          &direct))
        return NULL;
    if (kinds == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "core tables not set up");
        return NULL;
    }
    if (texts != Py_None && !PyList_Check(texts)) {
        PyErr_SetString(PyExc_TypeError, "texts: a list or None");
        return NULL;
    }
    if (triangle < 0) {
        PyErr_SetString(PyExc_ValueError, "triangle: a non-negative id");
        return NULL;
    }
    long y = triangle >> 1, y2 = 2 * y;
    const KindTables *t = &kinds[triangle & 1];

    /* The nine ring cells, read once: the empty ones and those on the new tile's level. */
    int empty = 0, at_level = 0;
    for (int j = 0; j < RING_SIZE; j++) {
        PyObject *hex = top_get(top, y + t->ring_offset[j]);
        if (hex == NULL) {
            if (PyErr_Occurred()) return NULL;
            empty |= 1 << j;
            continue;
        }
        if (!PyTuple_Check(hex) || PyTuple_GET_SIZE(hex) < 1) {
            PyErr_SetString(PyExc_TypeError, "a city's hex: a (level, code, stars) tuple");
            return NULL;
        }
        long hex_level = PyLong_AsLong(PyTuple_GET_ITEM(hex, 0));
        if (hex_level == -1 && PyErr_Occurred()) return NULL;
        if (hex_level == level) at_level |= 1 << j;
    }
    const Span *gained_span = &t->gained[at_level];
    const Span *lost_span =
        (direct && level == 1) ? &t->maybe_before[empty] : &t->lost[at_level];

    /* Lost first, then gained (the sharing triangles', then the ring sectors'), as the
     * Python method does. */
    for (int32_t i = 0; i < lost_span->len; i++) {
        if (lose(legal, legal_set, texts, y2 + pool[lost_span->start + i]) < 0) return NULL;
    }
    Py_ssize_t size = PyList_GET_SIZE(legal);
    for (int32_t i = 0; i < gained_span->len; i++) {
        if (gain(legal, legal_set, texts, placement_texts, y2 + pool[gained_span->start + i]) < 0)
            return NULL;
    }
    if (level == 1) {
        /* The ring triangles whose cells are all empty are legal. */
        long outer = outer_whole;
        const Span *needed = &t->outer_needed[empty];
        for (int32_t i = 0; i < needed->len; i += 2) {
            PyObject *hex = top_get(top, y + pool[needed->start + i]);
            if (hex != NULL)
                outer ^= pool[needed->start + i + 1];
            else if (PyErr_Occurred())
                return NULL;
        }
        long ring = (long)empty | (long)empty << RING_SIZE;
        outer |= outer << 15;
        for (int k = 0; k < t->n_sectors; k++) {
            const Sector *s = &t->sectors[k];
            long index = (ring >> s->ring_start & s->ring_mask) |
                         (outer >> s->outer_start & s->outer_mask) << s->width;
            if (index < 0 || index >= s->size) {
                PyErr_SetString(PyExc_RuntimeError, "a sector's index out of its table");
                return NULL;
            }
            const Span *ids = &s->table[index];
            for (int32_t i = 0; i < ids->len; i++) {
                if (gain(legal, legal_set, texts, placement_texts, y2 + pool[ids->start + i]) < 0)
                    return NULL;
            }
        }
    }
    if (texts == Py_None && PyList_GET_SIZE(legal) != size && PyList_Sort(legal) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef core_methods[] = {
    {"setup", core_setup, METH_VARARGS,
     "setup(ring_bits, split_by_level, maybe_legal_before, outer_needed, outer_whole, "
     "ring_sectors): the tables of `fast.legal_tables`, copied once."},
    {"update_legal", core_update_legal, METH_VARARGS,
     "update_legal(top, legal, legal_set, texts, placement_texts, triangle, level, direct): "
     "`CityCache.update_legal` on the same objects."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core",
    "Akropolis' compiled core (see engine/akropolis/native/__init__.py).", -1, core_methods,
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
